/**
 * The payment-schedule journeys' own data (issue 15; tests/e2e/payment-schedules.spec.ts), made
 * by e2e-seed.ts before the server opens the database: one set per Playwright project, so the js
 * and no-js runs never share a login, an account or a card.
 *
 * - `scheduler`: a portal contact on an account of their own with a Visa saved earlier (a sandbox
 *   token that approves), to whom the journey proposes a schedule through the back-office API.
 * - another account with a saved card of its own: the card id the journey tampers into the form.
 * Card ids are fixed so the journey can name them.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";

export const schedulerEmail = (project: string) => `scheduler-${project}@acme.test`;
export const schedulerAccount = (project: string) => `E2E-SCHEDULER-${project}`.toUpperCase();
const otherAccount = (project: string) => `E2E-SCHEDOTHER-${project}`.toUpperCase();

/** The scheduler's saved Visa, and the other account's card. */
export function scheduleCardId(project: string, which: "own" | "other") {
  const n = (project === "js" ? 0 : 2) + (which === "own" ? 1 : 2);
  return `00000000-0000-4000-8000-5c4ed00000${String(n).padStart(2, "0")}`;
}

export async function seedScheduleJourneys(
  db: Kysely<DB>,
  input: { businessId: string; passwordHash: string; projects: readonly string[] },
) {
  const { businessId } = input;
  const year = new Date().getUTCFullYear() + 3;
  for (const project of input.projects) {
    for (const which of ["own", "other"] as const) {
      const account = await db
        .insertInto("accounts")
        .values({
          business_id: businessId,
          number: which === "own" ? schedulerAccount(project) : otherAccount(project),
          name: which === "own" ? `Test scheduler ${project}` : `Test other payer ${project}`,
          parent_account_id: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const token = `tok_sbx_e2e_schedule_${project.replace(/[^a-z]/g, "")}_${which}`;
      await db
        .insertInto("sandbox_gateway_tokens")
        .values({
          token,
          brand: "visa",
          last4: which === "own" ? "1111" : "1881",
          expiry_month: 9,
          expiry_year: year,
          outcome: "approve",
        })
        .execute();
      await db
        .insertInto("cards")
        .values({
          id: scheduleCardId(project, which),
          business_id: businessId,
          account_id: account.id,
          gateway: "sandbox",
          gateway_token: token,
          brand: "visa",
          first_digit: "4",
          last4: which === "own" ? "1111" : "1881",
          expiry_month: 9,
          expiry_year: year,
          holder_name: "Sky Scheduler",
          is_default: true,
          authority_reference: "E2E-SEED",
          consented_at: new Date(),
          consented_by: null,
        })
        .execute();
      if (which !== "own") continue;
      const contact = await db
        .insertInto("contacts")
        .values({
          business_id: businessId,
          email: schedulerEmail(project),
          first_name: "Sky",
          last_name: `Scheduler ${project}`,
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
}
