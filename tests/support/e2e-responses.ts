/**
 * The response journeys' own people (issue 17; tests/e2e/responses.spec.ts), made by e2e-seed.ts
 * before the server opens the database, one per Playwright project so that the js and no-js runs
 * never share a contact or an account: a contact without portal access (a link is all they need)
 * on an account of their own, which has the demo ledger of invoices in every status, so a journey
 * can answer a proposal on one of them. The requests themselves are made by the journeys, through
 * the back-office API of the running portal.
 */
import type { Kysely } from "kysely";
import { demoLedger } from "../../db/seed/demo";
import type { DB } from "../../app/services/platform/db-schema.server";

export const responderEmail = (project: string) => `responder-${project}@acme.test`;
export const responderAccountNumber = (project: string) => `E2E-RESPONDER-${project}`.toUpperCase();
export const responderAccountName = (project: string) => `Test responder ${project}`;

export async function seedResponseJourneys(db: Kysely<DB>, input: { businessId: string; projects: readonly string[] }) {
  for (const project of input.projects) {
    const account = await db
      .insertInto("accounts")
      .values({
        business_id: input.businessId,
        number: responderAccountNumber(project),
        name: responderAccountName(project),
        parent_account_id: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const contact = await db
      .insertInto("contacts")
      .values({
        business_id: input.businessId,
        email: responderEmail(project),
        first_name: "Robin",
        last_name: `Responder ${project}`,
        position: "Accounts",
        verified_at: new Date(),
        permissions: [],
        password_hash: null,
        external_subject: null,
        disabled_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("account_contacts")
      .values({ business_id: input.businessId, account_id: account.id, contact_id: contact.id, role: "owner" })
      .execute();
    const { invoices } = demoLedger(responderAccountNumber(project), new Date());
    await db
      .insertInto("invoices")
      .values(invoices.map((invoice) => ({ ...invoice, business_id: input.businessId, account_id: account.id })))
      .execute();
  }
}
