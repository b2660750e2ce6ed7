/**
 * The agreement journeys' own people (issue 15; tests/e2e/agreements.spec.ts), made by
 * e2e-seed.ts before the server opens the database, one set per Playwright project so that the
 * js and no-js runs never share a login or an account:
 * - `signer`: a contact WITH accessCustomerPortal, on an account of their own, to whom the
 *   journeys offer agreements by email (through the back-office API of the running portal);
 * - `signerstyle`: a contact WITHOUT it (customer-style), on an account of their own, who
 *   finds an offer on their home and decides signed in.
 * The agreements themselves are made by the journeys, each a document of its own.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";

export const AGREEMENT_ROLES = ["signer", "signerstyle"] as const;
export type AgreementRole = (typeof AGREEMENT_ROLES)[number];

export const agreementEmail = (role: AgreementRole, project: string) => `${role}-${project}@acme.test`;
export const agreementAccountNumber = (role: AgreementRole, project: string) => `E2E-${role}-${project}`.toUpperCase();
export const agreementAccountName = (role: AgreementRole, project: string) => `Test ${role} ${project}`;

export async function seedAgreementJourneys(
  db: Kysely<DB>,
  input: { businessId: string; passwordHash: string; projects: readonly string[] },
) {
  for (const project of input.projects) {
    for (const role of AGREEMENT_ROLES) {
      const account = await db
        .insertInto("accounts")
        .values({
          business_id: input.businessId,
          number: agreementAccountNumber(role, project),
          name: agreementAccountName(role, project),
          parent_account_id: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const contact = await db
        .insertInto("contacts")
        .values({
          business_id: input.businessId,
          email: agreementEmail(role, project),
          first_name: "Sasha",
          last_name: `${role} ${project}`,
          position: "Director",
          verified_at: new Date(),
          permissions: role === "signer" ? ["accessCustomerPortal"] : [],
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
