import { todayIn } from "~/lib/dates";

/**
 * The portal's clock (issue 15; decision 068): everything on the server that decides "is it due
 * yet" or stamps "when" reads `now()` from here, never `new Date()`, so tests move time instead of
 * sleeping. ESLint refuses `new Date()` and `Date.now()` in app/services and db; the few places
 * that stay on the real clock (timeouts, ages compared with the database's own now(), credentials'
 * lifetimes) say why beside them.
 *
 * - Unit and integration tests call `setClockForTesting(() => someDate)` and put it back after.
 * - The e2e suite starts the portal with `PORTAL_TEST_CLOCK=on`, which lets a test-only route move
 *   this process's clock forward (decision 035); without that setting the route is "Page not found"
 *   and the clock is the system's.
 */
export type Clock = () => Date;

const systemClock: Clock = () => new Date();
const globalKey = Symbol.for("portal.clock");
const store = globalThis as unknown as { [globalKey]?: Clock };

/** The current time as the portal sees it. */
export function now(): Date {
  return (store[globalKey] ?? systemClock)();
}

/** Tests only: replace the clock (undefined puts the system clock back). */
export function setClockForTesting(clock: Clock | undefined) {
  if (clock) store[globalKey] = clock;
  else delete store[globalKey];
}

/** A clock that stands still until moved: `const clock = fixedClock("2026-12-01T00:00:00Z"); clock.advance(days)`. */
export function fixedClock(start: Date | string) {
  let at = new Date(start).getTime();
  const clock: Clock & { set(to: Date | string): void; advanceMs(ms: number): void; advanceDays(days: number): void } =
    Object.assign(() => new Date(at), {
      set(to: Date | string) {
        at = new Date(to).getTime();
      },
      advanceMs(ms: number) {
        at += ms;
      },
      advanceDays(days: number) {
        at += days * 86_400_000;
      },
    });
  return clock;
}

/**
 * The calendar date ("YYYY-MM-DD") a business is on at an instant, by default now (decision 078):
 * what a record's date is (a statement line, a payment's day, "today" for due and overdue), never
 * the UTC date, which is yesterday's for ten or eleven hours of every Australian and New Zealand day.
 */
export function businessToday(timeZone: string, at: Date = now()): string {
  return todayIn(timeZone, at);
}
