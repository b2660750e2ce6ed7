/**
 * `npm run bench:check`: compares bench/results/latest.json with bench/budgets.json and
 * fails (exit code 1) on any breach, naming the budget, the measured figure and by how
 * much it is over. Timings are already medians (mobile) or whole-run figures (server),
 * so one slow sample on a busy machine does not fail the check on its own.
 */
import fs from "node:fs";
import { BUDGETS_FILE, DOCUMENTS, DOCUMENTS_FILE, PAGES, QUERIES_FILE, RESULTS_FILE } from "./config";
import {
  BUDGET,
  clientChecks,
  documentChecks,
  isBreach,
  type Check,
  type ClientBudgets,
  type DocumentBudgets,
} from "./lib/budget-checks";
import type { BenchResults } from "./report";

type Budgets = {
  /** `perRoute`: a route's own limit where docs/performance.md ("Budget changes") says why. */
  bytes: {
    appJsGzipPerRoute: number;
    cssGzipPerPage: number;
    enhanceJsGzip: number;
    perRoute?: Record<string, number>;
  };
  mobile: { lcpMs: number; tbtMs: number; cls: number };
  /** `pages`: the load-tested pages the server budgets hold for (issue 4 names the dashboard and invoices). */
  server: {
    pages: string[];
    minShareOfFloor: number;
    /** The saturated 50-connection runs are the noisiest figure: their own floor (docs/performance.md). */
    minShareOfFloorAt50Connections?: number;
    p99MsAt10Connections: number;
    p99FloorFactor?: number;
  };
  /** `perPage`: a page's own limit where docs/performance.md ("Budget changes") says why. */
  queries: { maxPerPage: number; constantInDataSize: boolean; perPage?: Record<string, number> };
  /** `pages`: the pages whose paged queries the growth budget holds for (issue 4: invoices and statements). */
  growth: { pages: string[]; p95Ms: number };
  /** The PDF documents (issue 34): time (`medianMs` unless `perDocument` names one), size, /heartbeat beside. */
  documents: DocumentBudgets;
} & ClientBudgets;

function readJson<T>(file: string, hint: string): T {
  if (!fs.existsSync(file)) {
    process.stderr.write(`${file} is missing: ${hint}\n`);
    process.exit(2);
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

const budgets = readJson<Budgets>(BUDGETS_FILE, "it holds the budgets and belongs in the repository");
/**
 * BENCH_ONLY=queries: checks a query-count-only run's bench/results/queries.json against the query
 * budgets alone; BENCH_ONLY=documents, a PDF-documents-only run's bench/results/documents.json against
 * the documents' budgets alone. Everything else is checked only against a whole run's latest.json.
 */
const queriesOnly = process.env.BENCH_ONLY === "queries";
const documentsOnly = process.env.BENCH_ONLY === "documents";
const resultsFile = queriesOnly ? QUERIES_FILE : documentsOnly ? DOCUMENTS_FILE : RESULTS_FILE;
const results = readJson<Pick<BenchResults, "generatedAt"> & Partial<Pick<BenchResults, "pages" | "documents">>>(
  resultsFile,
  `run \`${queriesOnly || documentsOnly ? `BENCH_ONLY=${process.env.BENCH_ONLY} ` : ""}npm run bench\` first`,
);
const whole = queriesOnly || documentsOnly ? null : (results as BenchResults);
// A whole run's pages or a query-count-only run's: either file always has them (a documents-only run has none).
const pageResults = documentsOnly ? [] : (results as Pick<BenchResults, "pages">).pages;

const checks: Check[] = [];
const add = (check: Check) => checks.push(check);

for (const route of whole?.bytes.routes ?? []) {
  add({
    budget: "app JS per route above the runtime floor (gzip)",
    subject: route.route,
    value: route.appJs.gzip,
    limit: budgets.bytes.perRoute?.[route.route] ?? budgets.bytes.appJsGzipPerRoute,
    kind: "max",
    unit: "B",
  });
}
// The CSS a page loads: the stylesheet its document carries (decision 049), its host's theme only (decision 088).
// A document that should carry it and does not (the bundle could not be read) fails: it links 8 KB more.
for (const page of whole?.pages ?? []) {
  if (!page.css && whole?.cssDelivery === "link") continue;
  add({
    budget: "CSS a page's document carries (gzip)",
    subject: page.page,
    value: page.css?.gzip ?? Number.POSITIVE_INFINITY,
    limit: budgets.bytes.cssGzipPerPage,
    kind: "max",
    unit: "B",
  });
}
if (whole?.bytes.enhance) {
  add({
    budget: "the shared conveniences, public/enhance.js (gzip)",
    subject: "enhance.js",
    value: whole.bytes.enhance.gzip,
    limit: budgets.bytes.enhanceJsGzip,
    kind: "max",
    unit: "B",
  });
}
for (const page of whole?.mobile ?? []) {
  add({
    budget: BUDGET.mobileLcp,
    subject: page.page,
    value: page.median.lcp,
    limit: budgets.mobile.lcpMs,
    kind: "max",
    unit: "ms",
  });
  add({
    budget: BUDGET.mobileTbt,
    subject: page.page,
    value: page.median.tbt,
    limit: budgets.mobile.tbtMs,
    kind: "max",
    unit: "ms",
  });
  add({
    budget: BUDGET.mobileCls,
    subject: page.page,
    value: page.median.cls,
    limit: budgets.mobile.cls,
    kind: "max",
    unit: "",
  });
}
for (const run of whole?.load.runs ?? []) {
  add({
    budget: "failed or non-2xx responses under load",
    subject: `${run.page} @${run.connections}`,
    value: run.errors + run.non2xx,
    limit: 0,
    kind: "max",
    unit: "",
  });
  if (!budgets.server.pages.includes(run.page)) continue;
  add({
    budget: `throughput as a share of /heartbeat's, ${run.connections} connections`,
    subject: run.page,
    value: run.ofFloor,
    limit:
      run.connections === 50
        ? (budgets.server.minShareOfFloorAt50Connections ?? budgets.server.minShareOfFloor)
        : budgets.server.minShareOfFloor,
    kind: "min",
    unit: "",
  });
  if (run.connections === 10) {
    // On a machine whose other jobs slow the floor itself past the absolute figure, the page
    // is held to a multiple of the floor's p99 measured in the same rounds (docs/performance.md).
    const floor = whole?.load.runs.find((r) => r.page === "heartbeat" && r.connections === 10);
    const relative = floor && budgets.server.p99FloorFactor ? floor.p99Ms * budgets.server.p99FloorFactor : 0;
    const limit = Math.max(budgets.server.p99MsAt10Connections, Math.round(relative));
    add({
      budget: "p99 latency at 10 connections (150 ms, or 1.5 × the floor's p99 when the floor itself is slower)",
      subject: run.page,
      value: run.p99Ms,
      limit,
      kind: "max",
      unit: "ms",
    });
  }
}
for (const page of pageResults) {
  const counts = Object.values(page.queries);
  add({
    budget: "SQL statements per page",
    subject: page.page,
    value: Math.max(...counts),
    limit: budgets.queries.perPage?.[page.page] ?? budgets.queries.maxPerPage,
    kind: "max",
    unit: "",
  });
  // A steady state (issue 29): the same statements on every counted visit, whatever the order of
  // pages, accounts and visits. Results written before the bench counted several visits have none.
  for (const [size, visits] of Object.entries(page.queryVisits ?? {})) {
    add({
      budget: "SQL statements the same on every counted visit (most − fewest)",
      subject: `${page.page} (${size} rows)`,
      value: Math.max(...visits) - Math.min(...visits),
      limit: 0,
      kind: "max",
      unit: "",
    });
  }
  if (budgets.queries.constantInDataSize) {
    add({
      budget: "SQL statements constant in the data size (largest − smallest account)",
      subject: page.page,
      value: Math.max(...counts) - Math.min(...counts),
      limit: 0,
      kind: "max",
      unit: "",
    });
  }
}
if (whole?.growth) {
  for (const growthCase of whole.growth.cases) {
    if (!budgets.growth.pages.includes(growthCase.page)) continue;
    add({
      budget: `p95 on PostgreSQL with ${whole.growth.statementLines.toLocaleString("en")} statement lines`,
      subject: `${growthCase.page}: ${growthCase.name}`,
      value: growthCase.p95Ms,
      limit: budgets.growth.p95Ms,
      kind: "max",
      unit: "ms",
    });
  }
}

// Issue 19's budgets: every page the mobile run and the read-only list name must have its figure.
if (whole)
  for (const check of clientChecks(budgets, whole, {
    lowEndPages: PAGES.filter((page) => page.mobile).map((page) => page.name),
    readOnlyPages: PAGES.filter((page) => page.readOnly).map((page) => page.name),
  }))
    add(check);

// Issue 34's PDF documents: every document in DOCUMENTS must have its figures, in a whole run's results too.
if (whole || documentsOnly)
  for (const check of documentChecks(budgets.documents, results.documents, {
    documents: DOCUMENTS.map((document) => document.name),
    heartbeat: DOCUMENTS.filter((document) => document.heartbeat).map((document) => document.name),
  }))
    add(check);

const fmt = (value: number, unit: string) =>
  Number.isNaN(value)
    ? "not measured"
    : `${Number.isInteger(value) ? value.toLocaleString("en") : value}${unit ? ` ${unit}` : ""}`;
// Every budget is held as issued: there is no list of breaches that pass (issue 33 removed it).
const breaches = checks.filter(isBreach);

process.stdout.write(
  `Budgets (${BUDGETS_FILE}${queriesOnly ? ", SQL statements only" : documentsOnly ? ", PDF documents only" : ""}) against ${resultsFile} of ${results.generatedAt}: ${checks.length} checks.\n`,
);
if (whole && !whole.growth)
  process.stdout.write(
    "Note: no growth figures (TEST_DATABASE_URL was not set for the bench): that budget was not checked.\n",
  );
for (const check of breaches) {
  if (Number.isNaN(check.value)) {
    process.stdout.write(`FAIL  ${check.budget} — ${check.subject}: not measured (is the bench's result current?)\n`);
    continue;
  }
  const over = Math.abs(check.value - check.limit);
  const share = check.limit !== 0 ? ` (${Math.round((over / check.limit) * 100)}%)` : "";
  const relation =
    check.kind === "max"
      ? `over the limit of ${fmt(check.limit, check.unit)} by ${fmt(Math.round(over * 1000) / 1000, check.unit)}${share}`
      : `under the minimum of ${fmt(check.limit, check.unit)} by ${fmt(Math.round(over * 1000) / 1000, check.unit)}${share}`;
  process.stdout.write(`FAIL  ${check.budget} — ${check.subject}: ${fmt(check.value, check.unit)}, ${relation}\n`);
}
if (breaches.length) {
  process.stdout.write(
    `\n${breaches.length} budget breach(es). Fix the cause, or (with a written reason in docs/performance.md) change bench/budgets.json.\n`,
  );
  process.exit(1);
}
// The tightest margins, so a budget about to be breached is seen before it is.
const margins = checks
  .filter((check) => check.limit > 0 && !isBreach(check))
  .map((check) => ({
    check,
    left: check.kind === "max" ? (check.limit - check.value) / check.limit : (check.value - check.limit) / check.limit,
  }))
  .sort((a, b) => a.left - b.left)
  .slice(0, 5);
for (const { check, left } of margins) {
  process.stdout.write(
    `ok    ${check.budget} — ${check.subject}: ${fmt(check.value, check.unit)} (limit ${fmt(check.limit, check.unit)}, ${Math.round(left * 100)}% to spare)\n`,
  );
}
process.stdout.write("All budgets met.\n");
