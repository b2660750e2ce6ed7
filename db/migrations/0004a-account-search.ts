/**
 * Contacts with thousands of accounts (issue 7). The account switcher lists a contact's
 * accounts parents first, then by name, 25 at a time: this index gives that order, so the
 * first page is read from its start instead of sorting every visible account. The total of
 * an account search is counted from account_contacts alone, which is only right if every
 * row there belongs to its account's business: the two-column foreign key makes it so.
 */
export const name = "0004a-account-search";

export const up = /* sql */ `
CREATE INDEX accounts_switcher_idx ON accounts (business_id, (parent_account_id IS NOT NULL), lower(name), id);

ALTER TABLE accounts ADD CONSTRAINT accounts_business_id_id_key UNIQUE (business_id, id);
ALTER TABLE account_contacts
  ADD CONSTRAINT account_contacts_account_business_fkey
  FOREIGN KEY (business_id, account_id) REFERENCES accounts (business_id, id) ON DELETE CASCADE;
`;
