/**
 * The budgets' names, on their own: the checks (budget-checks.ts) and the runs that stop once their
 * verdicts settle (verdicts.ts) share them, and the checks import the runs' result types, so neither
 * may import the other for these.
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
