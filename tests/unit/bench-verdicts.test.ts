import { describe, expect, it } from "vitest";
import { isBreach } from "../../bench/lib/budget-checks";
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
const run = (lcp: number, tbt: number) => ({ lcp, tbt, cls: 0 });

describe("verdictsSettled", () => {
  it("is settled when two runs are on the same side of every budget", () => {
    expect(verdictsSettled([run(900, 0), run(1100, 20)], lowEnd)).toBe(true);
    expect(verdictsSettled([run(1600, 40), run(1900, 90)], lowEnd)).toBe(true);
  });

  it("is not settled when two runs fall on either side of a budget", () => {
    expect(verdictsSettled([run(900, 0), run(1600, 0)], lowEnd)).toBe(false);
    expect(verdictsSettled([run(900, 10), run(900, 31)], lowEnd)).toBe(false);
  });

  it("treats a figure at its limit as within it, as bench:check does", () => {
    expect(verdictsSettled([run(1500, 30), run(1400, 0)], lowEnd)).toBe(true);
  });

  it("judges scores from below, and never settles on a missing score", () => {
    const judged = lighthouseJudged(100);
    const scores = (performance: number | null) => ({
      scores: { performance, accessibility: 100, "best-practices": 100, seo: 100 },
      failing: {},
      metrics: { fcp: 0, lcp: 0, tbt: 0, cls: 0, speedIndex: 0 },
    });
    expect(verdictsSettled([scores(100), scores(100)], judged)).toBe(true);
    expect(verdictsSettled([scores(100), scores(99)], judged)).toBe(false);
    expect(verdictsSettled([scores(100), scores(null)], judged)).toBe(false);
  });

  it("needs two runs", () => {
    expect(verdictsSettled([run(900, 0)], lowEnd)).toBe(false);
  });

  // The property the early stop rests on: whenever a majority of the runs settle (two of three, three of
  // five), every possible remaining run leaves bench:check's verdict where they put it.
  it("never changes a verdict bench:check would reach with the remaining runs", () => {
    const judged: Judged<number>[] = [{ budget: "low-end TBT (x)", value: (tbt) => tbt, limit: 30, kind: "max" }];
    const verdict = (value: number) =>
      isBreach({ budget: "low-end TBT (x)", subject: "pay", value, limit: 30, kind: "max", unit: "ms" })
        ? "failed"
        : "met";
    const values = [0, 10, 29, 30, 31, 60, 250];
    let settled = 0;
    for (const first of values)
      for (const second of values) {
        if (verdictsSettled([first, second], judged)) {
          settled += 1;
          const stopped = verdict(median([first, second]));
          for (const third of values) expect(verdict(median([first, second, third]))).toBe(stopped);
        }
        for (const third of values) {
          if (!verdictsSettled([first, second, third], judged)) continue;
          settled += 1;
          const stopped = verdict(median([first, second, third]));
          for (const fourth of values)
            for (const fifth of values) expect(verdict(median([first, second, third, fourth, fifth]))).toBe(stopped);
        }
      }
    expect(settled).toBeGreaterThan(100);
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
