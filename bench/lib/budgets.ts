/**
 * The budgets' names and the written-down breaches, on their own: the checks (budget-checks.ts) and
 * the runs that stop once their verdicts settle (verdicts.ts) share them, and the checks import the
 * runs' result types, so neither may import the other for these.
 */

/** The budgets' names as checks print them, shared with the runs that stop once their verdicts settle (lib/verdicts.ts). */
export const BUDGET = {
  mobileLcp: "mobile LCP (median)",
  mobileTbt: "mobile TBT (median)",
  mobileCls: "mobile CLS (median)",
  lowEndLcp: "low-end LCP (applied in Chromium, median)",
  lowEndTbt: "low-end TBT (applied in Chromium, median)",
  lighthouse: (category: string) => `Lighthouse ${category} (mobile preset, median)`,
} as const;

/**
 * A budget the portal does not meet yet, written down: which budget (the start of its name), which page,
 * how far it may be off at worst, and why (docs/performance.md says more). The budget itself stays as
 * issued; a breach within the ceiling is printed as known instead of failing the run, and a breach past it
 * still fails, so a known gap cannot quietly grow. An entry that no longer matches a breach is reported,
 * so it is removed once the budget is met.
 */
export type KnownBreach = { budget: string; page: string | readonly string[]; ceiling: number; reason: string };

/** The pages a written-down breach covers: one, or a list. */
export const knownBreachPages = (entry: KnownBreach): readonly string[] =>
  typeof entry.page === "string" ? [entry.page] : entry.page;
