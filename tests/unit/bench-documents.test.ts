import { describe, expect, it } from "vitest";
import type { DocumentResult } from "../../bench/documents";
import { documentChecks, isBreach, type DocumentBudgets } from "../../bench/lib/budget-checks";
import { latestPeriodWithLines } from "../../bench/lib/ledger";

/** Step 10's rules (issue 34): which period the bench's statement covers, and how its figures are judged. */

/** Days newest first, from 2026-12-06 back, with these line counts. */
const days = (counts: number[]) =>
  counts.map((lines, index) => ({
    day: new Date(Date.UTC(2026, 11, 6 - index)).toISOString().slice(0, 10),
    lines,
  }));

describe("latestPeriodWithLines", () => {
  it("ends on the newest day when whole days back from it hold exactly the count", () => {
    expect(latestPeriodWithLines(days([6, 7, 7, 7]), 20)).toEqual({ from: "2026-12-04", to: "2026-12-06" });
  });

  it("ends on an earlier day when every run from the newest passes the count", () => {
    // 5, then 5 + 3 = 8: past 7. From the day before: 3 + 4 = 7.
    expect(latestPeriodWithLines(days([5, 3, 4, 9]), 7)).toEqual({ from: "2026-12-04", to: "2026-12-05" });
  });

  it("finds none when no run of whole days holds the count", () => {
    expect(latestPeriodWithLines(days([7, 7, 7]), 10)).toBeNull();
    expect(latestPeriodWithLines(days([2, 2]), 5)).toBeNull();
    expect(latestPeriodWithLines([], 1)).toBeNull();
  });

  it("finds 1,000 lines in the bench ledger's 5,000 (line g on today − g mod 730): today and 142 days before", () => {
    const perDay = Array.from({ length: 730 }, () => 0);
    for (let g = 1; g <= 5_000; g += 1) perDay[g % 730]! += 1;
    expect(latestPeriodWithLines(days(perDay), 1_000)).toEqual({ from: "2026-07-17", to: "2026-12-06" });
  });
});

const budgets: DocumentBudgets = {
  medianMs: 150,
  perDocument: { "statement-1000-lines": 1000 },
  maxBytes: 200_000,
  heartbeatMs: 100,
};

const result = (document: string, medianMs: number, bytes: number, slowestMs?: number): DocumentResult => ({
  document,
  host: "acme.localhost",
  path: `/${document}`,
  status: 200,
  contentType: "application/pdf",
  bytes,
  warmUps: 1,
  runsMs: [medianMs],
  medianMs,
  maxMs: medianMs,
  ...(slowestMs === undefined
    ? {}
    : {
        heartbeat: {
          idle: { samples: 1, medianMs: 2, maxMs: 2 },
          runs: [{ documentMs: medianMs, answers: 3, slowestMs }],
          slowestMs,
          worstMs: slowestMs,
        },
      }),
});

const expected = { documents: ["invoice", "statement-1000-lines"], heartbeat: ["statement-1000-lines"] };

describe("documentChecks", () => {
  it("holds each document to its own time limit or the common one, every one to the size, and the heartbeat", () => {
    const checks = documentChecks(
      budgets,
      [result("invoice", 120, 60_000), result("statement-1000-lines", 1_100, 190_000, 40)],
      expected,
    );
    expect(checks.map((check) => [check.subject, check.value, check.limit, isBreach(check)])).toEqual([
      ["invoice", 120, 150, false],
      ["invoice", 60_000, 200_000, false],
      ["statement-1000-lines", 1_100, 1000, true],
      ["statement-1000-lines", 190_000, 200_000, false],
      ["statement-1000-lines", 40, 100, false],
    ]);
  });

  it("fails a document the results lack, and a heartbeat figure they lack, as not measured", () => {
    const checks = documentChecks(budgets, [result("statement-1000-lines", 700, 150_000)], expected);
    const breaches = checks.filter(isBreach).map((check) => [check.subject, check.budget]);
    expect(breaches).toEqual([
      ["invoice", "PDF document's time, request to last byte on loopback (median)"],
      ["invoice", "PDF document's size"],
      ["statement-1000-lines", "slowest /heartbeat answer while the document is made (median of runs)"],
    ]);
    expect(documentChecks(budgets, undefined, expected).every(isBreach)).toBe(true);
  });
});
