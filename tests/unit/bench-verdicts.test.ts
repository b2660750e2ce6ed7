import { describe, expect, it } from "vitest";
import { isBreach, isKnownBreach, type KnownBreach } from "../../bench/lib/budget-checks";
import { median } from "../../bench/lib/stats";
import {
  lighthouseJudged,
  lowEndJudged,
  runUntilSettled,
  verdictsSettled,
  type Judged,
} from "../../bench/lib/verdicts";

const budgets = { mobile: { lcpMs: 1400, tbtMs: 200, cls: 0.01 }, lowEnd: { lcpMs: 1500, tbtMs: 30 } };
const lowEnd = lowEndJudged(budgets);
const tbtBreach: KnownBreach = { budget: "low-end TBT", page: ["dashboard"], ceiling: 250, reason: "test" };
const run = (lcp: number, tbt: number) => ({ lcp, tbt, cls: 0 });

/** One low-end TBT figure on the dashboard, judged as bench:check judges it: met, a known breach, or failed. */
const tbtJudged: Judged<number>[] = [{ budget: "low-end TBT (x)", value: (tbt) => tbt, limit: 30, kind: "max" }];
function verdict(value: number) {
  const check = { budget: "low-end TBT (x)", subject: "dashboard", value, limit: 30, kind: "max" as const, unit: "ms" };
  return !isBreach(check) ? "met" : isKnownBreach(check, [tbtBreach]) ? "known" : "failed";
}

describe("verdictsSettled", () => {
  it("is settled when two runs are on the same side of every budget", () => {
    expect(verdictsSettled([run(900, 0), run(1100, 20)], lowEnd, "sign-in", [])).toBe(true);
    expect(verdictsSettled([run(1600, 40), run(1900, 90)], lowEnd, "sign-in", [])).toBe(true);
  });

  it("is not settled when two runs fall on either side of a budget", () => {
    expect(verdictsSettled([run(900, 0), run(1600, 0)], lowEnd, "sign-in", [])).toBe(false);
    expect(verdictsSettled([run(900, 10), run(900, 31)], lowEnd, "sign-in", [])).toBe(false);
  });

  it("counts a written-down breach's ceiling as a limit, on its own pages only", () => {
    // Both past the budget of 30 ms; one within the ceiling of 250 ms, one past it.
    const runs = [run(900, 100), run(900, 300)];
    expect(verdictsSettled(runs, lowEnd, "dashboard", [tbtBreach])).toBe(false);
    expect(verdictsSettled(runs, lowEnd, "statements", [tbtBreach])).toBe(true);
    expect(verdictsSettled([run(900, 100), run(900, 240)], lowEnd, "dashboard", [tbtBreach])).toBe(true);
  });

  it("treats a figure at its limit as within it, as bench:check does", () => {
    expect(verdictsSettled([run(1500, 30), run(1400, 0)], lowEnd, "sign-in", [])).toBe(true);
  });

  it("judges scores from below, and never settles on a missing score", () => {
    const judged = lighthouseJudged(100);
    const scores = (performance: number | null) => ({
      scores: { performance, accessibility: 100, "best-practices": 100, seo: 100 },
      failing: {},
      metrics: { fcp: 0, lcp: 0, tbt: 0, cls: 0, speedIndex: 0 },
    });
    expect(verdictsSettled([scores(100), scores(100)], judged, "pay", [])).toBe(true);
    expect(verdictsSettled([scores(100), scores(99)], judged, "pay", [])).toBe(false);
    expect(verdictsSettled([scores(100), scores(null)], judged, "pay", [])).toBe(false);
  });

  it("needs two runs", () => {
    expect(verdictsSettled([run(900, 0)], lowEnd, "sign-in", [])).toBe(false);
  });

  // The property the early stop rests on: whenever the first two runs settle, every possible third run
  // leaves bench:check's verdict (budget, known breach, or past the ceiling) where the two put it.
  it("never changes a verdict bench:check would reach with the third run", () => {
    const values = [0, 10, 29, 30, 31, 60, 249, 250, 251, 400];
    let settledPairs = 0;
    for (const first of values)
      for (const second of values) {
        if (!verdictsSettled([first, second], tbtJudged, "dashboard", [tbtBreach])) continue;
        settledPairs += 1;
        const stopped = verdict(median([first, second]));
        for (const third of values) expect(verdict(median([first, second, third]))).toBe(stopped);
      }
    expect(settledPairs).toBeGreaterThan(30);
  });

  // The low-end phone takes up to five runs (decision 086): whenever its first three settle, no fourth and
  // fifth run can move bench:check's verdict.
  it("never changes a verdict bench:check would reach with a fourth and fifth run", () => {
    const values = [0, 29, 30, 31, 249, 250, 251];
    let settledTriples = 0;
    for (const first of values)
      for (const second of values)
        for (const third of values) {
          if (!verdictsSettled([first, second, third], tbtJudged, "dashboard", [tbtBreach])) continue;
          settledTriples += 1;
          const stopped = verdict(median([first, second, third]));
          for (const fourth of values)
            for (const fifth of values) expect(verdict(median([first, second, third, fourth, fifth]))).toBe(stopped);
        }
    expect(settledTriples).toBeGreaterThan(30);
  });
});

describe("runUntilSettled", () => {
  it("stops after a majority of runs that settle, and makes every run otherwise", async () => {
    let made = 0;
    const once = async () => (made += 1);
    expect(await runUntilSettled(3, once, () => true)).toEqual([1, 2]);
    made = 0;
    expect(await runUntilSettled(3, once, () => false)).toEqual([1, 2, 3]);
    made = 0;
    expect(await runUntilSettled(3, once, undefined)).toEqual([1, 2, 3]);
    made = 0;
    // Of five, three are a majority: two agreeing runs are not enough.
    expect(await runUntilSettled(5, once, () => true)).toEqual([1, 2, 3]);
    made = 0;
    expect(await runUntilSettled(1, once, () => true)).toEqual([1]);
  });
});
