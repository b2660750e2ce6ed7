import type { DocumentResult } from "../documents";
import type { InpResult } from "../interaction";
import type { JourneyResult } from "../journey";
import type { LighthousePageResult } from "../lighthouse";
import type { MobileResult } from "../mobile";
import type { ReadOnlyResult } from "../read-only";
import { BUDGET } from "./budgets";
import { CATEGORIES } from "./lighthouse-summary";

export { BUDGET } from "./budgets";

/**
 * The issue-19 budgets (Lighthouse scores, the low-end phone, the pay page's interaction, zero
 * JavaScript on read-only pages) as checks bench/check.ts prints and fails on. Pure, so the rules
 * are tested without a bench run: a figure that is missing (a page not measured, a score of null)
 * is a breach too, never a silent pass.
 */
export type Check = {
  budget: string;
  subject: string;
  value: number;
  limit: number;
  kind: "max" | "min";
  unit: string;
};

export type ClientBudgets = {
  /** `pages`: the pages Lighthouse must score `minScore` on, in every category. */
  lighthouse: { pages: string[]; minScore: number };
  /** Every page the mobile run measures, on the low-end phone (applied through DevTools, median). */
  lowEnd: { lcpMs: number; tbtMs: number };
  /** Interaction to Next Paint on these pages, low-end phone (applied throttling). */
  inp: { pages: string[]; maxMs: number };
  /** JavaScript bytes a read-only page's document makes the browser download or run. */
  readOnly: { maxJsBytes: number };
  /** The emailed request's journey on the low-end phone: time to the receipt, refused taps (issue 31). */
  journey: { journeys: string[]; receiptMs: number; maxRefused: number };
};

export type ClientResults = {
  lighthouse?: LighthousePageResult[];
  lowEndApplied?: Pick<MobileResult, "page" | "median">[];
  inp?: InpResult[];
  journey?: JourneyResult[];
  readOnly?: ReadOnlyResult[];
};

export function clientChecks(
  budgets: ClientBudgets,
  results: ClientResults,
  expected: { lowEndPages: string[]; readOnlyPages: string[] },
): Check[] {
  const checks: Check[] = [];
  for (const name of budgets.lighthouse.pages) {
    const page = results.lighthouse?.find((candidate) => candidate.page === name);
    for (const category of CATEGORIES) {
      const score = page?.median.scores[category];
      const failing = page?.median.failing[category] ?? [];
      checks.push({
        budget: BUDGET.lighthouse(category),
        subject: failing.length ? `${name} (failing: ${failing.join(", ")})` : name,
        value: typeof score === "number" ? score : Number.NaN,
        limit: budgets.lighthouse.minScore,
        kind: "min",
        unit: "",
      });
    }
  }
  for (const name of expected.lowEndPages) {
    const page = results.lowEndApplied?.find((candidate) => candidate.page === name);
    checks.push({
      budget: BUDGET.lowEndLcp,
      subject: name,
      value: page?.median.lcp ?? Number.NaN,
      limit: budgets.lowEnd.lcpMs,
      kind: "max",
      unit: "ms",
    });
    checks.push({
      budget: BUDGET.lowEndTbt,
      subject: name,
      value: page?.median.tbt ?? Number.NaN,
      limit: budgets.lowEnd.tbtMs,
      kind: "max",
      unit: "ms",
    });
  }
  for (const name of budgets.inp.pages) {
    const page = results.inp?.find((candidate) => candidate.page === name);
    checks.push({
      budget: "Interaction to Next Paint on the low-end phone (median)",
      subject: name,
      value: page?.inp ?? Number.NaN,
      limit: budgets.inp.maxMs,
      kind: "max",
      unit: "ms",
    });
  }
  for (const name of budgets.journey.journeys) {
    const journey = results.journey?.find((candidate) => candidate.journey === name);
    checks.push({
      budget: "Journey to the receipt on the low-end phone (median)",
      subject: name,
      value: journey?.receiptMs ?? Number.NaN,
      limit: budgets.journey.receiptMs,
      kind: "max",
      unit: "ms",
    });
    checks.push({
      budget: "Refused taps on the journey (all runs)",
      subject: name,
      value: journey?.refused ?? Number.NaN,
      limit: budgets.journey.maxRefused,
      kind: "max",
      unit: "",
    });
  }
  for (const name of expected.readOnlyPages) {
    const page = results.readOnly?.find((candidate) => candidate.page === name);
    checks.push({
      budget: "JavaScript on a read-only page (inline + files)",
      subject: name,
      value: page?.jsBytes ?? Number.NaN,
      limit: budgets.readOnly.maxJsBytes,
      kind: "max",
      unit: "B",
    });
  }
  return checks;
}

/** The PDF documents' budgets (issue 34), `documents` in bench/budgets.json. */
export type DocumentBudgets = {
  /** A document's median time, request to last byte on loopback, unless `perDocument` names it. */
  medianMs: number;
  /** A document's own limit where the issue gives it one (a statement of 1,000 lines: 1 s). */
  perDocument?: Record<string, number>;
  /** Every document's size. */
  maxBytes: number;
  /** The slowest /heartbeat answer while a document is made beside it (the median of its runs' slowest). */
  heartbeatMs: number;
};

/**
 * The PDF documents' checks: every document bench/config.ts lists must have its time and size, and each
 * one measured beside /heartbeat its heartbeat figure; a document missing from the results (or a results
 * file from before step 10) is a breach, never a silent pass.
 */
export function documentChecks(
  budgets: DocumentBudgets,
  results: DocumentResult[] | undefined,
  expected: { documents: string[]; heartbeat: string[] },
): Check[] {
  const checks: Check[] = [];
  const measured = (name: string) => results?.find((candidate) => candidate.document === name);
  for (const name of expected.documents) {
    const document = measured(name);
    checks.push({
      budget: "PDF document's time, request to last byte on loopback (median)",
      subject: name,
      value: document?.medianMs ?? Number.NaN,
      limit: budgets.perDocument?.[name] ?? budgets.medianMs,
      kind: "max",
      unit: "ms",
    });
    checks.push({
      budget: "PDF document's size",
      subject: name,
      value: document?.bytes ?? Number.NaN,
      limit: budgets.maxBytes,
      kind: "max",
      unit: "B",
    });
  }
  for (const name of expected.heartbeat) {
    checks.push({
      budget: "slowest /heartbeat answer while the document is made (median of runs)",
      subject: name,
      value: measured(name)?.heartbeat?.slowestMs ?? Number.NaN,
      limit: budgets.heartbeatMs,
      kind: "max",
      unit: "ms",
    });
  }
  return checks;
}

/** A breach: over a maximum, under a minimum, or not measured at all (NaN). */
export const isBreach = (check: Check) =>
  Number.isNaN(check.value) || (check.kind === "max" ? check.value > check.limit : check.value < check.limit);
