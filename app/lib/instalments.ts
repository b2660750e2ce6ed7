/**
 * Payment schedules' arithmetic (decision 034): splitting an amount into instalments, their days,
 * checking a list a business sends, and the published retry policy. Pure and isomorphic: the
 * back-office API, the pages and the runner all use these, so they never disagree.
 *
 * Money is integer cents; days are "YYYY-MM-DD" calendar dates in the business's time zone.
 */

export const SCHEDULE_FREQUENCIES = ["weekly", "fortnightly", "monthly", "quarterly"] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

/** The most instalments one schedule may have (five years of monthly payments). */
export const MAX_INSTALMENTS = 60;
/** The latest first day a proposal may name, counted from today. */
export const MAX_DAYS_TO_FIRST_INSTALMENT = 366;
/** The longest a schedule may run, from its first instalment to its last. */
export const MAX_SCHEDULE_DAYS = 5 * 366;

export type Instalment = { dueDate: string; amountCents: number };

/**
 * `totalCents` in `count` equal parts of whole cents; what does not divide evenly goes on the last
 * instalment (100.00 in 3 → 33.33, 33.33, 33.34). Throws on a count or total no schedule could have.
 */
export function splitEqually(totalCents: number, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_INSTALMENTS) throw new RangeError("count");
  if (!Number.isSafeInteger(totalCents) || totalCents < count) throw new RangeError("total");
  const part = Math.floor(totalCents / count);
  const parts = Array.from({ length: count }, () => part);
  parts[count - 1] = totalCents - part * (count - 1);
  return parts;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in "YYYY-MM-DD" (no 2026-02-30). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const toUtc = (day: string) => {
  const [year, month, date] = day.split("-").map(Number);
  return Date.UTC(year!, month! - 1, date!);
};
// date-rule: a calendar date held as UTC midnight, never an instant's date (decision 078)
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `day` plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  return fromUtc(toUtc(day) + days * 86_400_000);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / 86_400_000);
}

/**
 * `months` calendar months after `day`, kept on the same day of the month where the month has it
 * and on its last day where it does not (31 January + 1 month → 28 or 29 February).
 */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split("-").map(Number);
  const target = new Date(Date.UTC(year!, month! - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date!, lastDay));
  return fromUtc(target.getTime());
}

/**
 * The days of `count` instalments from `firstDay`. Monthly and quarterly days are counted from the
 * first day each time (not from the previous instalment), so a schedule starting on the 31st
 * comes back to the 31st after a short month.
 */
export function instalmentDays(firstDay: string, count: number, frequency: ScheduleFrequency): string[] {
  return Array.from({ length: count }, (_, i) => {
    switch (frequency) {
      case "weekly":
        return addDays(firstDay, 7 * i);
      case "fortnightly":
        return addDays(firstDay, 14 * i);
      case "monthly":
        return addMonths(firstDay, i);
      case "quarterly":
        return addMonths(firstDay, 3 * i);
    }
  });
}

/** Equal instalments on a regular rhythm: the usual proposal. */
export function regularInstalments(
  totalCents: number,
  count: number,
  firstDay: string,
  frequency: ScheduleFrequency,
): Instalment[] {
  const amounts = splitEqually(totalCents, count);
  return instalmentDays(firstDay, count, frequency).map((dueDate, i) => ({ dueDate, amountCents: amounts[i]! }));
}

/** What can be wrong with a list of instalments, in the order it is checked. */
export type InstalmentProblem =
  | { code: "none" }
  | { code: "tooMany"; max: number }
  | { code: "badDate"; index: number }
  | { code: "badAmount"; index: number }
  | { code: "pastDate"; index: number }
  | { code: "tooFarAhead"; index: number }
  | { code: "notInOrder"; index: number }
  | { code: "tooLong" }
  | { code: "sumMismatch"; sumCents: number; totalCents: number };

/**
 * Checks a proposed list against its total and today (the business's day): at least one and at
 * most MAX_INSTALMENTS; real dates, none before today, strictly later one after another (one
 * instalment a day), the first within MAX_DAYS_TO_FIRST_INSTALMENT and the last within
 * MAX_SCHEDULE_DAYS of it; every amount a whole number of cents above zero; the amounts adding up
 * to the total exactly. Returns the first problem, or null.
 */
export function instalmentProblem(
  totalCents: number,
  instalments: readonly { dueDate: unknown; amountCents: unknown }[],
  today: string,
): Exclude<InstalmentProblem, { code: "none" }> | null {
  if (instalments.length === 0) return { code: "tooMany", max: MAX_INSTALMENTS };
  if (instalments.length > MAX_INSTALMENTS) return { code: "tooMany", max: MAX_INSTALMENTS };
  let sum = 0;
  for (const [index, item] of instalments.entries()) {
    if (!isCalendarDate(item.dueDate)) return { code: "badDate", index };
    const amount = item.amountCents;
    if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) return { code: "badAmount", index };
    if (item.dueDate < today) return { code: "pastDate", index };
    if (index === 0 && daysBetween(today, item.dueDate) > MAX_DAYS_TO_FIRST_INSTALMENT)
      return { code: "tooFarAhead", index };
    const previous = instalments[index - 1];
    if (previous && (item.dueDate as string) <= (previous.dueDate as string)) return { code: "notInOrder", index };
    sum += amount;
  }
  const first = instalments[0]!.dueDate as string;
  const last = instalments[instalments.length - 1]!.dueDate as string;
  if (daysBetween(first, last) > MAX_SCHEDULE_DAYS) return { code: "tooLong" };
  if (!Number.isSafeInteger(totalCents) || sum !== totalCents)
    return { code: "sumMismatch", sumCents: sum, totalCents };
  return null;
}

/**
 * The published retry policy (decision 035): a declined instalment is tried again this many days
 * after the try before, in turn; after the last, the schedule is in arrears. Shown on the
 * acceptance page and in the emails, so what the contact agrees to is what the runner does.
 */
export const RETRY_AFTER_DAYS = [3, 7] as const;
/** Tries in all: the first on the due day, then one per entry of RETRY_AFTER_DAYS. */
export const MAX_ATTEMPTS = 1 + RETRY_AFTER_DAYS.length;

/**
 * After the runner's try number `attemptNo` (1 = on the due day) was declined on `day`: the day of
 * the next try, or null when that was the last and the schedule goes into arrears. A contact's own
 * try (paying early or again) does not count against the policy and never calls this.
 */
export function nextRetryDay(attemptNo: number, day: string): string | null {
  if (!Number.isSafeInteger(attemptNo) || attemptNo < 1) throw new RangeError("attemptNo");
  const wait = RETRY_AFTER_DAYS[attemptNo - 1];
  return wait === undefined ? null : addDays(day, wait);
}
