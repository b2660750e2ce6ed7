/**
 * The paths of payment schedules' pages (issue 15; decision 034). Pure, so the server's link
 * handling, the log redaction and the pages share one rule.
 *
 * - `/payment-schedule/acceptance/<token | reference>`: the proposal, by its emailed link or
 *   signed in by its reference.
 * - `/customer/payment-schedule` (the list), `/customer/payment-schedule/<token | reference>`:
 *   one schedule's progress, by the link of a declined instalment's email or signed in.
 *
 * A reference is `PS-` and 6–12 capitals or digits; a token is 59 URL-safe characters. They
 * never look alike, so one segment says which way in it is.
 */
export const SCHEDULE_REFERENCE = /^PS-[0-9A-Z]{6,12}$/;

export const ACCEPTANCE_FOLDER = "/payment-schedule/acceptance/";
export const PROGRESS_FOLDER = "/customer/payment-schedule/";
export const SCHEDULES_LIST_PATH = "/customer/payment-schedule";

export const isScheduleReference = (value: unknown): value is string =>
  typeof value === "string" && SCHEDULE_REFERENCE.test(value);

export const acceptancePath = (referenceOrToken: string) => `${ACCEPTANCE_FOLDER}${referenceOrToken}`;
export const progressPath = (referenceOrToken: string) => `${PROGRESS_FOLDER}${referenceOrToken}`;

/**
 * Where "add a card" and "set up PayTo" may send the contact back to: a schedule's signed-in
 * acceptance or progress page, by reference (never a token: a link page has no saved methods).
 * Anything else is null, so these pages never become an open redirect, even within the origin.
 */
export function methodReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 80) return null;
  for (const folder of [ACCEPTANCE_FOLDER, PROGRESS_FOLDER]) {
    if (value.startsWith(folder) && isScheduleReference(value.slice(folder.length))) return value;
  }
  return null;
}
