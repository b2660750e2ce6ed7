// One formatter per time zone: building an Intl.DateTimeFormat costs about a third of a
// millisecond, which the dashboard paid on every request (docs/performance.md).
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date ("YYYY-MM-DD") in a time zone: due dates are the business's days. */
export function todayIn(timeZone: string, now = new Date()): string {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    // An unknown zone throws here and is never cached.
    formatter = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/**
 * The instant a calendar day ("YYYY-MM-DD") starts (00:00) in a time zone: the end of the day
 * before. Used where a day of the business's ends (a schedule's proposal is open until the end of
 * its first instalment's day).
 */
export function startOfDayIn(timeZone: string, day: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(year, month - 1, date);
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    }).formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - instant;
  };
  // Twice: the offset at the first answer settles a day that starts at a daylight-saving change.
  const first = guess - offsetAt(guess);
  return new Date(guess - offsetAt(first));
}

/**
 * A calendar date ("YYYY-MM-DD") some whole days later (or earlier): calendar arithmetic, no time
 * zone and no clock, so a daylight-saving change never makes a day 23 or 25 hours long here.
 */
export function addDaysTo(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, date + days));
  // date-rule: a calendar date held as UTC midnight, never an instant's date (decision 078)
  return moved.toISOString().slice(0, 10);
}
