import { describe, expect, it } from "vitest";
import { todayIn } from "./dates";

describe("todayIn", () => {
  // 2026-03-01 13:30 UTC is already 2 March in Sydney and Auckland, still 1 March in UTC.
  const now = new Date("2026-03-01T13:30:00Z");

  it("gives the calendar date in each time zone, with each zone's formatter kept apart", () => {
    expect(todayIn("Australia/Sydney", now)).toBe("2026-03-02");
    expect(todayIn("UTC", now)).toBe("2026-03-01");
    expect(todayIn("Pacific/Auckland", now)).toBe("2026-03-02");
    expect(todayIn("Australia/Sydney", new Date("2026-03-01T12:00:00Z"))).toBe("2026-03-01");
  });

  it("refuses an unknown time zone every time", () => {
    expect(() => todayIn("Mars/Olympus", now)).toThrow(RangeError);
    expect(() => todayIn("Mars/Olympus", now)).toThrow(RangeError);
  });
});
