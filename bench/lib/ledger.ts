import { sql } from "kysely";
import type { Db } from "../../app/services/platform/db.server";
import { hashPassword } from "../../app/services/auth/password.server";

/**
 * The bench's own data, written straight into its database with generate_series: a
 * brand, and accounts whose invoices and statement lines number in the thousands or
 * millions. The demo seed (db/seed/demo.ts) stays small and is not touched.
 */
export async function createBenchBusiness(db: Db, hostname: string): Promise<string> {
  const business = await db
    .insertInto("businesses")
    .values({
      name: "Bench Supplies",
      label: "Bench",
      country: "AU",
      currency: "AUD",
      theme: "navy-blue",
      logo_directory: "/brands/acme",
      privacy_policy: "# Privacy policy\n\nThe bench's brand keeps nothing.",
      terms_and_conditions: "# Terms\n\nInvoices are due within 30 days.",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("hosts").values({ hostname, business_id: business.id }).execute();
  // PayTo on, like the acme demo: its pages (and the dashboard's PayID panel) are measured too.
  await db
    .insertInto("payto_settings")
    .values({ business_id: business.id, enabled: true, payid_domain: "pay.bench.example" })
    .execute();
  return business.id;
}

/** An account with a contact who may sign in (password login) and see it. */
export async function createBenchAccount(
  db: Db,
  businessId: string,
  input: { number: string; email: string; password: string },
): Promise<{ accountId: string; contactId: string }> {
  const account = await db
    .insertInto("accounts")
    .values({
      business_id: businessId,
      number: input.number,
      name: `Bench account ${input.number}`,
      address: "1 Bench St",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const contact = await db
    .insertInto("contacts")
    .values({
      business_id: businessId,
      email: input.email,
      first_name: "Bench",
      last_name: input.number,
      position: "Tester",
      verified_at: new Date(),
      permissions: ["accessCustomerPortal"],
      password_hash: await hashPassword(input.password),
      external_subject: null,
      disabled_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("account_contacts")
    .values({ business_id: businessId, account_id: account.id, contact_id: contact.id, role: "owner" })
    .execute();
  return { accountId: account.id, contactId: contact.id };
}

/**
 * `invoices` invoices (one in four still open, the rest paid) and `lines` statement lines
 * spread over the last two years, in every line type.
 */
export async function insertLedger(
  db: Db,
  ids: { businessId: string; accountId: string; prefix: string },
  counts: { invoices: number; lines: number },
) {
  const { businessId, accountId, prefix } = ids;
  await sql`
    INSERT INTO invoices (business_id, account_id, number, description, issue_date, due_date, amount_cents, balance_cents, status)
    SELECT ${businessId}::uuid, ${accountId}::uuid, ${prefix} || '-INV-' || g, 'Bench invoice',
           current_date - (g % 730), current_date - (g % 730) + 30,
           10000 + g % 9000, CASE WHEN g % 4 = 0 THEN 10000 + g % 9000 ELSE 0 END,
           CASE WHEN g % 4 = 0 THEN 1 + (g / 4) % 3 * 2 ELSE 2 END
    FROM generate_series(1, ${counts.invoices}::int) AS g`.execute(db);
  await sql`
    INSERT INTO statement_lines (business_id, account_id, line_date, type, reference, description, debit_cents, credit_cents)
    SELECT ${businessId}::uuid, ${accountId}::uuid, current_date - (g % 730),
           (ARRAY['invoice', 'payment', 'credit', 'adjustment', 'fee'])[1 + g % 5],
           ${prefix} || '-REF-' || g, 'Bench line',
           CASE WHEN g % 5 IN (0, 3, 4) THEN 1000 + g % 50000 ELSE 0 END,
           CASE WHEN g % 5 IN (1, 2) THEN 1000 + g % 50000 ELSE 0 END
    FROM generate_series(1, ${counts.lines}::int) AS g`.execute(db);
}

/**
 * The latest period of whole days holding exactly `lines` lines, from an account's lines per day (newest
 * first, days without lines left out): from each day back, days are added until their lines reach the
 * count, and the first run that lands on it exactly is the period. Null when no run of days does (a day's
 * lines cannot be split: a statement's period is whole days).
 */
export function latestPeriodWithLines(
  days: readonly { day: string; lines: number }[],
  lines: number,
): { from: string; to: string } | null {
  for (let end = 0; end < days.length; end += 1) {
    let sum = 0;
    for (let start = end; start < days.length && sum < lines; start += 1) {
      sum += days[start]!.lines;
      if (sum === lines) return { from: days[start]!.day, to: days[end]!.day };
    }
  }
  return null;
}
