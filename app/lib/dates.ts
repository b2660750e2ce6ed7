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
