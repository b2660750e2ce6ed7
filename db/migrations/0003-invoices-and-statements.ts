/**
 * What accounts owe and have done: invoices (the spec's orders, with its status codes) and
 * statement lines. Money is integer cents. Both are paged per account, so their indexes
 * lead with (business_id, account_id) and end in a unique tiebreaker.
 */
export const name = "0003-invoices-and-statements";

export const up = /* sql */ `
ALTER TABLE accounts ADD COLUMN email text NOT NULL DEFAULT '' CHECK (length(email) <= 254);
ALTER TABLE accounts ADD COLUMN phone text NOT NULL DEFAULT '' CHECK (length(phone) <= 40);
ALTER TABLE accounts ADD COLUMN credit_limit_cents bigint CHECK (credit_limit_cents >= 0);
CREATE INDEX accounts_search_idx ON accounts (business_id, lower(name), id);
CREATE INDEX accounts_number_idx ON accounts (business_id, lower(number));

CREATE TABLE invoices (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  number          text NOT NULL CHECK (length(number) BETWEEN 1 AND 60),
  description     text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  issue_date      date NOT NULL,
  due_date        date NOT NULL CHECK (due_date >= issue_date),
  amount_cents    bigint NOT NULL CHECK (amount_cents >= 0),
  balance_cents   bigint NOT NULL CHECK (balance_cents >= 0 AND balance_cents <= amount_cents),
  -- Spec §3 order status codes 1–8; anything else is shown as 'Other'.
  status          smallint NOT NULL DEFAULT 1 CHECK (status >= 0),
  promise_date    date,
  dispute_reason  text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, number)
);
CREATE INDEX invoices_account_due_idx ON invoices (business_id, account_id, due_date, id);
CREATE INDEX invoices_account_status_idx ON invoices (business_id, account_id, status, due_date, id);

CREATE TABLE statement_lines (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  line_date     date NOT NULL,
  type          text NOT NULL CHECK (type IN ('invoice', 'payment', 'credit', 'adjustment', 'fee')),
  reference     text NOT NULL CHECK (length(reference) <= 80),
  description   text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  debit_cents   bigint NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
  credit_cents  bigint NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
  invoice_id    uuid REFERENCES invoices (id) ON DELETE SET NULL
);
CREATE INDEX statement_lines_account_date_idx ON statement_lines (business_id, account_id, line_date DESC, id DESC);
CREATE INDEX statement_lines_account_amount_idx ON statement_lines (business_id, account_id, (debit_cents - credit_cents), id);
`;
