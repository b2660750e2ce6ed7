import { median, round } from "./stats";

/**
 * Lighthouse's result (its "LHR") reduced to what the bench keeps: the four category scores out of
 * 100, the audits that fail in each, and the performance metrics. Only the parts of the LHR read
 * here are typed, so the logic is testable without a browser.
 */
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

export type LhrLike = {
  lighthouseVersion?: string;
  runtimeError?: { code: string; message: string };
  categories: Partial<Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>>;
  audits: Record<string, { score: number | null; scoreDisplayMode: string; numericValue?: number }>;
};

export type LighthouseMetrics = { fcp: number; lcp: number; tbt: number; cls: number; speedIndex: number };
export type LighthouseRun = {
  /** 0–100, or null for a category not run. */
  scores: Partial<Record<Category, number | null>>;
  /** Per category, the ids of the audits that fail (see `failingAudits`). */
  failing: Partial<Record<Category, string[]>>;
  metrics: LighthouseMetrics;
};

const SCORED = new Set(["binary", "numeric", "metricSavings"]);

/**
 * An audit fails when it costs its category points (it has a weight and scores below 1), or when
 * Lighthouse's own report would show it as failed (scored, below its pass mark of 0.9): the
 * performance category's diagnostics have no weight, but say why a metric is slow.
 */
export function failingAudits(lhr: LhrLike, category: Category): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .filter((ref) => {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || !SCORED.has(audit.scoreDisplayMode)) return false;
      return ref.weight > 0 ? audit.score < 1 : audit.score < 0.9;
    })
    .map((ref) => ref.id)
    .sort();
}

const metric = (lhr: LhrLike, id: string, digits = 0) => round(lhr.audits[id]?.numericValue ?? Number.NaN, digits);

export function summarize(lhr: LhrLike): LighthouseRun {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const scores: LighthouseRun["scores"] = {};
  const failing: LighthouseRun["failing"] = {};
  for (const category of CATEGORIES) {
    const found = lhr.categories[category];
    if (!found) continue;
    scores[category] = found.score === null ? null : Math.round(found.score * 100);
    failing[category] = failingAudits(lhr, category);
  }
  return {
    scores,
    failing,
    metrics: {
      fcp: metric(lhr, "first-contentful-paint"),
      lcp: metric(lhr, "largest-contentful-paint"),
      tbt: metric(lhr, "total-blocking-time"),
      cls: metric(lhr, "cumulative-layout-shift", 4),
      speedIndex: metric(lhr, "speed-index"),
    },
  };
}

/**
 * Several runs of one page as one: the median of each score and metric, and the audits that
 * failed in at least half of the runs (one run's hiccup is not a finding; a steady failure is).
 */
export function combineRuns(runs: readonly LighthouseRun[]): LighthouseRun {
  if (runs.length === 0) throw new Error("No Lighthouse run to combine");
  const scores: LighthouseRun["scores"] = {};
  const failing: LighthouseRun["failing"] = {};
  for (const category of CATEGORIES) {
    const values = runs.map((run) => run.scores[category]).filter((v): v is number => typeof v === "number");
    if (values.length) scores[category] = median(values);
    else if (runs.some((run) => category in run.scores)) scores[category] = null;
    const counts = new Map<string, number>();
    for (const run of runs) for (const id of run.failing[category] ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    if (runs.some((run) => run.failing[category]))
      failing[category] = [...counts]
        .filter(([, count]) => count * 2 >= runs.length)
        .map(([id]) => id)
        .sort();
  }
  const pick = (key: keyof LighthouseMetrics) => median(runs.map((run) => run.metrics[key]));
  return {
    scores,
    failing,
    metrics: {
      fcp: pick("fcp"),
      lcp: pick("lcp"),
      tbt: pick("tbt"),
      cls: pick("cls"),
      speedIndex: pick("speedIndex"),
    },
  };
}
