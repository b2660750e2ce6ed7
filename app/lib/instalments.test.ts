import { describe, expect, it } from "vitest";
import {
  addMonths,
  instalmentDays,
  instalmentProblem,
  MAX_ATTEMPTS,
  MAX_INSTALMENTS,
  nextRetryDay,
  regularInstalments,
  splitEqually,
} from "./instalments";

describe("splitEqually", () => {
  it("puts what does not divide evenly on the last instalment", () => {
    expect(splitEqually(10_000, 3)).toEqual([3_333, 3_333, 3_334]);
    expect(splitEqually(100_001, 6)).toEqual([16_666, 16_666, 16_666, 16_666, 16_666, 16_671]);
    expect(splitEqually(600, 6)).toEqual([100, 100, 100, 100, 100, 100]);
    expect(splitEqually(7, 7)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it("always adds up to the total, every part above zero and none above the last", () => {
    for (let total = 1; total < 5_000; total += 37) {
      for (let count = 1; count <= Math.min(total, MAX_INSTALMENTS); count += 5) {
        const parts = splitEqually(total, count);
        expect(parts).toHaveLength(count);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.min(...parts)).toBeGreaterThan(0);
        expect(parts[count - 1]! - parts[0]!).toBeLessThan(count);
      }
    }
  });

  it("refuses counts and totals no schedule could have", () => {
    expect(() => splitEqually(100, 0)).toThrow(RangeError);
    expect(() => splitEqually(100, MAX_INSTALMENTS + 1)).toThrow(RangeError);
    expect(() => splitEqually(100, 2.5)).toThrow(RangeError);
    expect(() => splitEqually(2, 3)).toThrow(RangeError);
    expect(() => splitEqually(10.5, 2)).toThrow(RangeError);
  });
});

describe("instalment days", () => {
  it("counts fortnights and weeks in days", () => {
    expect(instalmentDays("2026-12-01", 3, "fortnightly")).toEqual(["2026-12-01", "2026-12-15", "2026-12-29"]);
    expect(instalmentDays("2026-12-29", 2, "weekly")).toEqual(["2026-12-29", "2027-01-05"]);
  });

  it("keeps monthly days on the first day's date, or the month's last day", () => {
    expect(instalmentDays("2027-01-31", 4, "monthly")).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
    ]);
    expect(addMonths("2028-01-31", 1)).toBe("2028-02-29");
    expect(instalmentDays("2026-11-30", 3, "quarterly")).toEqual(["2026-11-30", "2027-02-28", "2027-05-30"]);
  });

  it("builds a regular proposal: six fortnightly parts with the rounding cent on the last", () => {
    const plan = regularInstalments(123_457, 6, "2026-12-01", "fortnightly");
    expect(plan.map((i) => i.amountCents)).toEqual([20_576, 20_576, 20_576, 20_576, 20_576, 20_577]);
    expect(plan.at(-1)!.dueDate).toBe("2027-02-09");
  });
});

describe("instalmentProblem", () => {
  const today = "2026-11-24";
  const ok = [
    { dueDate: "2026-11-24", amountCents: 500 },
    { dueDate: "2026-12-08", amountCents: 500 },
  ];

  it("accepts a list that adds up, from today on, in order", () => {
    expect(instalmentProblem(1_000, ok, today)).toBeNull();
  });

  it("names the first problem", () => {
    expect(instalmentProblem(1_001, ok, today)).toEqual({ code: "sumMismatch", sumCents: 1_000, totalCents: 1_001 });
    expect(instalmentProblem(1_000, [{ dueDate: "2026-11-23", amountCents: 1_000 }], today)).toEqual({
      code: "pastDate",
      index: 0,
    });
    expect(instalmentProblem(1_000, [ok[0]!, { dueDate: "2026-12-08", amountCents: 0 }], today)).toEqual({
      code: "badAmount",
      index: 1,
    });
    expect(instalmentProblem(1_000, [{ dueDate: "2026-12-01", amountCents: -500 }, ok[1]!], today)?.code).toBe(
      "badAmount",
    );
    expect(instalmentProblem(1_000, [{ dueDate: "2026-12-01", amountCents: 999.5 }], today)?.code).toBe("badAmount");
    expect(instalmentProblem(1_000, [{ dueDate: "2026-12-01", amountCents: "1000" }], today)?.code).toBe("badAmount");
    expect(instalmentProblem(1_000, [{ dueDate: "2026-02-30", amountCents: 1_000 }], today)?.code).toBe("badDate");
    expect(instalmentProblem(1_000, [{ dueDate: "1 Dec 2026", amountCents: 1_000 }], today)?.code).toBe("badDate");
    expect(instalmentProblem(1_000, [ok[1]!, ok[0]!], today)).toEqual({ code: "notInOrder", index: 1 });
    expect(instalmentProblem(1_000, [ok[0]!, { ...ok[0]! }], today)).toEqual({ code: "notInOrder", index: 1 });
    expect(instalmentProblem(1_000, [], today)?.code).toBe("tooMany");
    expect(instalmentProblem(1_000, [{ dueDate: "2028-01-01", amountCents: 1_000 }], today)?.code).toBe("tooFarAhead");
    const many = regularInstalments(100_000, MAX_INSTALMENTS, "2026-12-01", "weekly");
    expect(instalmentProblem(100_000, many, today)).toBeNull();
    expect(instalmentProblem(100_001, [...many, { dueDate: "2028-12-01", amountCents: 1 }], today)?.code).toBe(
      "tooMany",
    );
    expect(
      instalmentProblem(
        2,
        [
          { dueDate: "2026-12-01", amountCents: 1 },
          { dueDate: "2032-12-01", amountCents: 1 },
        ],
        today,
      )?.code,
    ).toBe("tooLong");
  });
});

describe("the retry policy", () => {
  it("tries again 3 days after the due day, then 7 days after that, then stops", () => {
    expect(MAX_ATTEMPTS).toBe(3);
    expect(nextRetryDay(1, "2026-12-29")).toBe("2027-01-01");
    expect(nextRetryDay(2, "2027-01-01")).toBe("2027-01-08");
    expect(nextRetryDay(3, "2027-01-08")).toBeNull();
  });

  it("refuses an attempt number that cannot be", () => {
    expect(() => nextRetryDay(0, "2026-12-01")).toThrow(RangeError);
  });
});
