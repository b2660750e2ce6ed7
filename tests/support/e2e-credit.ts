/**
 * The trade-reference journeys' own credit applications (issue 17; tests/e2e/credit-reference.
 * spec.ts), made by e2e-seed.ts before the server opens the database, one set per Playwright
 * project so that the js and no-js runs never share a referee or an application:
 * - `referee` (acme): the referee journey; its referee's link is emailed by the back office's
 *   resend, so the journey opens it from the real mailbox;
 * - `decision` (acme): accepted through the API, the applicant's email read back;
 * - `kiwi` (kiwi): the same page in the other brand, for the screenshots.
 * Written as the credit form leaves a submitted application (db/seed/credit.ts).
 */
import type { Kysely } from "kysely";
import { insertSubmittedApplication } from "../../db/seed/credit";
import type { DB } from "../../app/services/platform/db-schema.server";

export const CREDIT_JOURNEYS = ["referee", "decision", "kiwi"] as const;
export type CreditJourney = (typeof CREDIT_JOURNEYS)[number];

const code = (project: string) => (project === "js" ? "J" : "N");

export const creditReference = (journey: CreditJourney, project: string) =>
  `CA-E2E${code(project)}${journey.slice(0, 3).toUpperCase()}`;
export const creditApplicant = (journey: CreditJourney, project: string) => `E2E ${journey} ${project} Pty Ltd`;
export const creditApplicantEmail = (journey: CreditJourney, project: string) =>
  `applicant-${journey}-${project}@credit.test`;
export const creditRefereeEmail = (journey: CreditJourney, project: string, position: number) =>
  `referee${position}-${journey}-${project}@credit.test`;

export async function seedCreditJourneys(
  db: Kysely<DB>,
  input: { businesses: { acme: string; kiwi: string }; projects: readonly string[] },
) {
  for (const project of input.projects) {
    for (const journey of CREDIT_JOURNEYS) {
      await insertSubmittedApplication(db, {
        businessId: journey === "kiwi" ? input.businesses.kiwi : input.businesses.acme,
        country: journey === "kiwi" ? "NZ" : "AU",
        reference: creditReference(journey, project),
        legalName: creditApplicant(journey, project),
        applicantEmail: creditApplicantEmail(journey, project),
        requestedLimitCents: 2_500_000,
        referees: [1, 2].map((position) => ({
          refereeBusiness: `Referee Supplies ${position}`,
          contactName: `Referee ${position}`,
          email: creditRefereeEmail(journey, project, position),
        })),
      });
    }
  }
}
