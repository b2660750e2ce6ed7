/**
 * The preference-centre journeys' own people (issue 17; tests/e2e/communication.spec.ts), made by
 * e2e-seed.ts before the server opens the database, one set per Playwright project so that the js
 * and no-js runs never share a contact:
 * - `subscriber`: gets a payment reminder, unsubscribes from its link, is skipped by the next one;
 * - `oneclick`: gets a reminder whose List-Unsubscribe URL a "mail provider" posts to (RFC 8058);
 * - `chooser`: signs in and changes their preferences from the portal menu;
 * - `offers`: said yes to news and offers (recorded by the business), turns them off from an email's link, and
 *   finds that a link cannot turn them back on.
 * Each is a verified contact with portal access on an account of their own (requests are made by the
 * journeys through the back-office API, as a stated amount: no invoices needed).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";

export const COMMUNICATION_ROLES = ["subscriber", "oneclick", "chooser", "offers"] as const;
export type CommunicationRole = (typeof COMMUNICATION_ROLES)[number];

export const communicationEmail = (role: CommunicationRole, project: string) => `${role}-${project}@acme.test`;
export const communicationAccount = (role: CommunicationRole, project: string) =>
  `E2E-${role}-${project}`.toUpperCase();

export async function seedCommunicationJourneys(
  db: Kysely<DB>,
  input: { businessId: string; passwordHash: string; projects: readonly string[] },
) {
  for (const project of input.projects) {
    for (const role of COMMUNICATION_ROLES) {
      const account = await db
        .insertInto("accounts")
        .values({
          business_id: input.businessId,
          number: communicationAccount(role, project),
          name: `Test ${role} ${project}`,
          parent_account_id: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const contact = await db
        .insertInto("contacts")
        .values({
          business_id: input.businessId,
          email: communicationEmail(role, project),
          first_name: "Casey",
          last_name: `${role} ${project}`,
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
        .values({ business_id: input.businessId, account_id: account.id, contact_id: contact.id, role: "owner" })
        .execute();
    }
  }
}
