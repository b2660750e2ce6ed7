import { BUDGET } from "./budgets";
import { CATEGORIES, type LighthouseRun } from "./lighthouse-summary";

/**
 * When a page's remaining runs cannot change a verdict (issue 29, decision 060).
 *
 * `bench:check` judges a page by the median of its runs against each figure's budget. When more than half of
 * the runs a page would get lie on the same side of a budget (all within it, or all past it), the median of all
 * of them lies on that side whatever the others measure; so does the median of the runs taken. So once a
 * majority of the runs (two of three, three of five) agree on every judged figure, the rest are not made; when
 * they disagree on any, they are.
 */
export type Judged<Run> = {
  /** The budget's name as bench/check.ts prints it. */
  budget: string;
  value: (run: Run) => number | null | undefined;
  limit: number;
  kind: "max" | "min";
};

const past = (value: number, limit: number, kind: "max" | "min") => (kind === "max" ? value > limit : value < limit);

/**
 * Whether `runs` (two or more) agree on every verdict. A figure that is missing in any run (NaN, null) is
 * never settled.
 */
export function verdictsSettled<Run>(runs: readonly Run[], judged: readonly Judged<Run>[]): boolean {
  if (runs.length < 2) return false;
  return judged.every((figure) => {
    const values = runs.map((run) => figure.value(run));
    if (values.some((value) => typeof value !== "number" || Number.isNaN(value))) return false;
    return new Set(values.map((value) => past(value as number, figure.limit, figure.kind))).size === 1;
  });
}

/** Runs a page `runs` times at most, stopping once a majority of them has been taken and settles every verdict. */
export async function runUntilSettled<Run>(
  runs: number,
  once: () => Promise<Run>,
  settled: ((taken: readonly Run[]) => boolean) | undefined,
): Promise<Run[]> {
  const taken: Run[] = [];
  for (let i = 0; i < runs; i += 1) {
    taken.push(await once());
    if (settled && taken.length > runs / 2 && taken.length < runs && settled(taken)) break;
  }
  return taken;
}

type Timings = { lcp: number; tbt: number; cls: number };
type MobileBudgets = {
  mobile: { lcpMs: number; tbtMs: number; cls: number };
  lowEnd: { lcpMs: number; tbtMs: number };
};

/** The figures bench:check judges a page's mobile runs by (Lighthouse's mobile settings, applied). */
export const mobileJudged = (budgets: MobileBudgets): Judged<Timings>[] => [
  { budget: BUDGET.mobileLcp, value: (run) => run.lcp, limit: budgets.mobile.lcpMs, kind: "max" },
  { budget: BUDGET.mobileTbt, value: (run) => run.tbt, limit: budgets.mobile.tbtMs, kind: "max" },
  { budget: BUDGET.mobileCls, value: (run) => run.cls, limit: budgets.mobile.cls, kind: "max" },
];

/** The figures bench:check judges a page's low-end runs by. */
export const lowEndJudged = (budgets: MobileBudgets): Judged<Timings>[] => [
  { budget: BUDGET.lowEndLcp, value: (run) => run.lcp, limit: budgets.lowEnd.lcpMs, kind: "max" },
  { budget: BUDGET.lowEndTbt, value: (run) => run.tbt, limit: budgets.lowEnd.tbtMs, kind: "max" },
];

/** The scores bench:check judges a budgeted page's Lighthouse runs by: every category at least `minScore`. */
export const lighthouseJudged = (minScore: number): Judged<LighthouseRun>[] =>
  CATEGORIES.map((category) => ({
    budget: BUDGET.lighthouse(category),
    value: (run: LighthouseRun) => run.scores[category],
    limit: minScore,
    kind: "min" as const,
  }));

/** What a measurement needs to stop early: the figures judged. */
export type Settle<Run> = { judged: readonly Judged<Run>[] };

/** `settle` for one page, as runUntilSettled takes it; without one, every run is made. */
export const settlerFor =
  <Run>(settle: Settle<Run> | undefined) =>
  (taken: readonly Run[]) =>
    settle !== undefined && verdictsSettled(taken, settle.judged);
