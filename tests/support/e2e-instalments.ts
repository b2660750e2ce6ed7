/**
 * The instalment runner's journey's own data (issue 15; tests/e2e/instalments.spec.ts), made by
 * e2e-seed.ts before the server opens the database: one set per Playwright project, so the js and
 * no-js runs never share a login, an account or a card.
 *
 * A portal contact on an account of their own with two saved Visa cards, as the sandbox gateway
 * would have saved them: one that approves, and one saved from the sandbox's declining test card
 * 4000 0000 0000 9995 (saved after its $0 verification, declined with insufficient funds on every
 * charge) — the card a later instalment is declined on.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";

export const instalmentsEmail = (project: string) => `instalments-${project}@acme.test`;
export const instalmentsAccount = (project: string) => `E2E-INSTALMENTS-${project}`.toUpperCase();

export async function seedInstalmentJourneys(
  db: Kysely<DB>,
  input: { businessId: string; passwordHash: string; projects: readonly string[] },
) {
  const { businessId } = input;
  const year = new Date().getUTCFullYear() + 3;
  for (const project of input.projects) {
    const account = await db
      .insertInto("accounts")
      .values({
        business_id: businessId,
        number: instalmentsAccount(project),
        name: `Test instalments ${project}`,
        parent_account_id: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [last4, outcome] of [
      ["4242", "approve"],
      ["9995", "insufficient_funds"],
    ] as const) {
      const token = `tok_sbx_e2e_instalments_${project.replace(/[^a-z]/g, "")}_${last4}`;
      await db
        .insertInto("sandbox_gateway_tokens")
        .values({ token, brand: "visa", last4, expiry_month: 9, expiry_year: year, outcome })
        .execute();
      await db
        .insertInto("cards")
        .values({
          business_id: businessId,
          account_id: account.id,
          gateway: "sandbox",
          gateway_token: token,
          brand: "visa",
          first_digit: "4",
          last4,
          expiry_month: 9,
          expiry_year: year,
          holder_name: "Ira Instalments",
          is_default: last4 === "4242",
          authority_reference: "E2E-SEED",
          consented_at: new Date(),
          consented_by: null,
        })
        .execute();
    }
    const contact = await db
      .insertInto("contacts")
      .values({
        business_id: businessId,
        email: instalmentsEmail(project),
        first_name: "Ira",
        last_name: `Instalments ${project}`,
        position: "Accounts",
        verified_at: new Date(),
        permissions: ["accessCustomerPortal"],
        password_hash: input.passwordHash,
        external_subject: null,
        disabled_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("account_contacts")
      .values({ business_id: businessId, account_id: account.id, contact_id: contact.id, role: "contact" })
      .execute();
  }
}
