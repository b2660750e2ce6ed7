import type { Db } from "../platform/db.server";
import { invalid } from "../platform/problems.server";
import { UUID } from "~/lib/ids";

/** Look-ups the back-office calls share: an account and its contacts, always within one business. */

export const clip = (value: string) => value.slice(0, 60);

export type AccountRow = { id: string; number: string; name: string };

/** An account of the business by its id or its number (another business's is not found). */
export async function findAccount(db: Db, businessId: string, idOrNumber: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom("accounts")
    .select(["id", "number", "name"])
    .where("business_id", "=", businessId)
    .where((eb) =>
      UUID.test(idOrNumber)
        ? eb.or([eb("id", "=", idOrNumber), eb("number", "=", idOrNumber)])
        : eb("number", "=", idOrNumber),
    )
    .executeTakeFirst();
}

/**
 * Contacts of the account by id or email (any case). Anyone who is not a contact of that very
 * account — another account's, another business's, unknown — is a validation error on that
 * entry, and so is a disabled contact. Each contact once, whatever the list repeats.
 */
export async function resolveRecipients(
  db: Db,
  businessId: string,
  account: AccountRow,
  wanted: string[],
  field = "recipients",
) {
  const emails = wanted.filter((value) => !UUID.test(value)).map((value) => value.toLowerCase());
  const ids = wanted.filter((value) => UUID.test(value));
  const rows = await db
    .selectFrom("account_contacts as ac")
    .innerJoin("contacts as c", "c.id", "ac.contact_id")
    .select(["c.id", "c.email", "c.first_name as firstName", "c.disabled_at as disabledAt"])
    .where("ac.business_id", "=", businessId)
    .where("ac.account_id", "=", account.id)
    .where((eb) =>
      eb.or([
        ...(emails.length ? [eb(eb.fn("lower", ["c.email"]), "in", emails)] : []),
        ...(ids.length ? [eb("c.id", "in", ids)] : []),
      ]),
    )
    .execute();
  const fields: Record<string, string> = {};
  const chosen = new Map<string, (typeof rows)[number]>();
  wanted.forEach((value, index) => {
    const row = rows.find((r) => r.email.toLowerCase() === value.toLowerCase() || r.id === value.toLowerCase());
    if (!row) {
      fields[`${field}.${index}`] = `"${clip(value)}" is not a contact of account ${account.number}.`;
    } else if (row.disabledAt) {
      fields[`${field}.${index}`] = `${row.email} can no longer be reached through the portal.`;
    } else {
      chosen.set(row.id, row);
    }
  });
  if (Object.keys(fields).length) throw invalid(fields);
  return [...chosen.values()];
}

/**
 * A contact of the business by id or email (any case), linked to any account or none, enabled
 * or not: what a revocation needs (a contact who has left the account is who it is for).
 */
export async function findContact(db: Db, businessId: string, idOrEmail: string) {
  return db
    .selectFrom("contacts")
    .select(["id", "email"])
    .where("business_id", "=", businessId)
    .where((eb) =>
      UUID.test(idOrEmail)
        ? eb("id", "=", idOrEmail.toLowerCase())
        : eb(eb.fn("lower", ["email"]), "=", idOrEmail.toLowerCase()),
    )
    .executeTakeFirst();
}

/**
 * A contact of the business by id or email (case-blind), whether or not they are disabled, with the
 * first name an email greets them by: whom an agreement offer or a response request is made for.
 */
export async function findContactOf(db: Db, businessId: string, idOrEmail: string) {
  return db
    .selectFrom("contacts")
    .select(["id", "email", "first_name as firstName", "disabled_at as disabledAt"])
    .where("business_id", "=", businessId)
    .where((eb) =>
      UUID.test(idOrEmail)
        ? eb("id", "=", idOrEmail.toLowerCase())
        : eb(eb.fn("lower", ["email"]), "=", idOrEmail.toLowerCase()),
    )
    .executeTakeFirst();
}
