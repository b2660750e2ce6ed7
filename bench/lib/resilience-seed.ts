import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../app/services/platform/db.server";
import { hashPassword } from "../../app/services/auth/password.server";

/**
 * The resilience bench's brand (bench/resilience.ts): `users` accounts, each with one contact who
 * signs in through the real form, a ledger big enough to make the pages do real work (open and paid
 * invoices, statement lines), a saved card at the sandbox gateway and an ACTIVE PayTo agreement at
 * the sandbox provider (both sides, as a finished set-up leaves them), and `payable` invoices kept
 * for the payment scenarios. No fee rules and invoices not yet due: what a payment charges is the
 * invoice's balance, so the bench can post the total the customer "saw" without asking for a quote.
 */
export const RESILIENCE_HOST = "resilience.localhost";
export const RESILIENCE_BRAND = "Resilience Supplies";
export const RESILIENCE_PASSWORD = "Resilience!2026";
export const resilienceEmail = (user: number) => `user-${user}@resilience.example`;

export type ResilienceUser = {
  index: number;
  email: string;
  accountId: string;
  cardId: string;
  agreementId: string;
  /** Invoices no page load touches: each payment scenario takes its own. */
  payable: { id: string; cents: number }[];
};

export async function seedResilience(
  db: Db,
  users: number,
  options: { payable: number; invoices: number; lines: number },
): Promise<{ businessId: string; users: ResilienceUser[] }> {
  const business = await db
    .insertInto("businesses")
    .values({
      name: RESILIENCE_BRAND,
      label: "Resilience",
      country: "AU",
      currency: "AUD",
      theme: "navy-blue",
      logo_directory: "/brands/acme",
      privacy_policy: "# Privacy policy\n\nThe bench's brand keeps nothing.",
      terms_and_conditions: "# Terms\n\nInvoices are due within 30 days.",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const businessId = business.id;
  await db.insertInto("hosts").values({ hostname: RESILIENCE_HOST, business_id: businessId }).execute();
  await db.insertInto("payto_settings").values({ business_id: businessId, enabled: true }).execute();
  // One hash for every contact: argon2 is slow on purpose, and the password is the same.
  const passwordHash = await hashPassword(RESILIENCE_PASSWORD);
  const numbers = Array.from({ length: users }, (_, i) => i + 1);
  const accounts = await db
    .insertInto("accounts")
    .values(numbers.map((i) => ({ business_id: businessId, number: `RES-${i}`, name: `Resilience ${i}`, address: "" })))
    .returning(["id", "number"])
    .execute();
  const accountOf = new Map(accounts.map((a) => [a.number, a.id]));
  const contacts = await db
    .insertInto("contacts")
    .values(
      numbers.map((i) => ({
        business_id: businessId,
        email: resilienceEmail(i),
        first_name: "User",
        last_name: String(i),
        position: "Bench",
        verified_at: new Date(),
        permissions: ["accessCustomerPortal"],
        password_hash: passwordHash,
        external_subject: null,
        disabled_at: null,
      })),
    )
    .returning(["id", "email"])
    .execute();
  const contactOf = new Map(contacts.map((c) => [c.email, c.id]));
  await db
    .insertInto("account_contacts")
    .values(
      numbers.map((i) => ({
        business_id: businessId,
        account_id: accountOf.get(`RES-${i}`)!,
        contact_id: contactOf.get(resilienceEmail(i))!,
        role: "owner",
      })),
    )
    .execute();
  // The ledger of every account in two statements: a quarter of the invoices still open.
  await sql`
    INSERT INTO invoices (business_id, account_id, number, description, issue_date, due_date, amount_cents, balance_cents, status)
    SELECT ${businessId}::uuid, a.id, a.number || '-INV-' || g, 'Resilience invoice',
           current_date - (g % 300), current_date - (g % 300) + 30,
           10000 + g % 9000, CASE WHEN g % 4 = 0 THEN 10000 + g % 9000 ELSE 0 END,
           CASE WHEN g % 4 = 0 THEN 1 ELSE 2 END
    FROM accounts a CROSS JOIN generate_series(1, ${options.invoices}::int) AS g
    WHERE a.business_id = ${businessId}::uuid`.execute(db);
  await sql`
    INSERT INTO statement_lines (business_id, account_id, line_date, type, reference, description, debit_cents, credit_cents)
    SELECT ${businessId}::uuid, a.id, current_date - (g % 365),
           (ARRAY['invoice', 'payment', 'credit', 'adjustment', 'fee'])[1 + g % 5],
           a.number || '-REF-' || g, 'Resilience line',
           CASE WHEN g % 5 IN (0, 3, 4) THEN 1000 + g % 50000 ELSE 0 END,
           CASE WHEN g % 5 IN (1, 2) THEN 1000 + g % 50000 ELSE 0 END
    FROM accounts a CROSS JOIN generate_series(1, ${options.lines}::int) AS g
    WHERE a.business_id = ${businessId}::uuid`.execute(db);
  // The payment scenarios' invoices: due in 20 days (no late fee), a balance of their own.
  await sql`
    INSERT INTO invoices (business_id, account_id, number, description, issue_date, due_date, amount_cents, balance_cents, status)
    SELECT ${businessId}::uuid, a.id, a.number || '-PAY-' || g, 'Resilience payment',
           current_date, current_date + 20, 5000 + g, 5000 + g, 1
    FROM accounts a CROSS JOIN generate_series(1, ${options.payable}::int) AS g
    WHERE a.business_id = ${businessId}::uuid`.execute(db);

  // A saved card per account: the gateway's vault entry and our token of it (as saving one leaves them).
  const year = new Date().getUTCFullYear() + 3;
  await db
    .insertInto("sandbox_gateway_tokens")
    .values(
      numbers.map((i) => ({
        token: `tok_sbx_res_${i}`,
        brand: "visa",
        last4: "1111",
        expiry_month: 12,
        expiry_year: year,
        outcome: "approve",
      })),
    )
    .execute();
  await db
    .insertInto("cards")
    .values(
      numbers.map((i) => ({
        business_id: businessId,
        account_id: accountOf.get(`RES-${i}`)!,
        gateway: "sandbox",
        gateway_token: `tok_sbx_res_${i}`,
        brand: "visa" as const,
        first_digit: "4",
        last4: "1111",
        expiry_month: 12,
        expiry_year: year,
        holder_name: `User ${i}`,
        is_default: true,
        authority_reference: "RESILIENCE",
        consented_at: new Date(),
        consented_by: contactOf.get(resilienceEmail(i))!,
      })),
    )
    .execute();
  // An ACTIVE PayTo agreement per account, at the provider and ours, the same version on both sides.
  await db
    .insertInto("sandbox_payto_agreements")
    .values(
      numbers.map((i) => ({
        id: `agr_sbx_res_${i}`,
        idempotency_key: `res-agreement-${i}`,
        merchant: businessId,
        hostname: RESILIENCE_HOST,
        status: "ACTIVE",
        version: 1,
        payer: `res-${i}@payto.test`,
        party_name: `User ${i}`,
        outcome: "approve",
        max_amount_cents: 1_000_000,
      })),
    )
    .execute();
  await db
    .insertInto("payto_agreements")
    .values(
      numbers.map((i) => {
        const guid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
        return {
          business_id: businessId,
          account_id: accountOf.get(`RES-${i}`)!,
          request_guid: guid,
          request_hash: createHash("sha256").update(guid).digest("hex"),
          status: "ACTIVE" as const,
          provider_agreement_id: `agr_sbx_res_${i}`,
          provider_version: 1,
          party_name: `User ${i}`,
          alias_type: "EMAL" as const,
          alias_value: `res-${i}@payto.test`,
          max_amount_cents: 1_000_000,
          created_by: contactOf.get(resilienceEmail(i))!,
        };
      }),
    )
    .execute();

  const cards = await db
    .selectFrom("cards")
    .select(["id", "account_id"])
    .where("business_id", "=", businessId)
    .execute();
  const agreements = await db
    .selectFrom("payto_agreements")
    .select(["id", "account_id"])
    .where("business_id", "=", businessId)
    .execute();
  const payable = await db
    .selectFrom("invoices")
    .select(["id", "account_id", "balance_cents", "number"])
    .where("business_id", "=", businessId)
    .where("number", "like", "%-PAY-%")
    .orderBy("number")
    .execute();
  return {
    businessId,
    users: numbers.map((i) => {
      const accountId = accountOf.get(`RES-${i}`)!;
      return {
        index: i,
        email: resilienceEmail(i),
        accountId,
        cardId: cards.find((c) => c.account_id === accountId)!.id,
        agreementId: agreements.find((a) => a.account_id === accountId)!.id,
        payable: payable
          .filter((p) => p.account_id === accountId)
          .map((p) => ({ id: p.id, cents: Number(p.balance_cents) })),
      };
    }),
  };
}
