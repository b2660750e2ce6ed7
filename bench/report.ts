import type { BytesResult } from "./bytes";
import type { DocumentResult } from "./documents";
import type { GrowthResult } from "./growth";
import type { InpResult } from "./interaction";
import type { JourneyResult } from "./journey";
import type { LighthousePageResult } from "./lighthouse";
import type { LowEndProtocolResults } from "./lowend-protocols";
import type { ReadOnlyResult } from "./read-only";
import type { MobileResult } from "./mobile";
import type { PageResult } from "./pages";
import type { LoadResult } from "./server-load";

/** What one `npm run bench` found; written to bench/results/latest.json and read by bench:check. */
export type BenchResults = {
  generatedAt: string;
  durationSeconds: number;
  machine: { cpus: number; node: string };
  bytes: BytesResult;
  pages: PageResult[];
  mobile: MobileResult[];
  load: LoadResult;
  /** null when TEST_DATABASE_URL was not set. */
  growth: GrowthResult | null;
  /** The portal's CSS_DELIVERY for this run ("inline" unless BENCH_CSS_DELIVERY said otherwise). */
  cssDelivery?: string;
  /** Real Lighthouse, mobile preset, all four categories (issue 19). */
  lighthouse?: LighthousePageResult[];
  /** Lighthouse on the low-end phone (simulated 400 ms, 400 kbps, CPU 6×), performance only: Lighthouse-only runs. */
  lowEnd?: LighthousePageResult[];
  /** The low-end phone applied through DevTools (the budgets' figures): FCP, LCP, TBT, CLS per page. */
  lowEndApplied?: MobileResult[];
  /** Interaction to Next Paint, low-end phone applied through DevTools. */
  inp?: InpResult[];
  /** The emailed request's journey on the low-end phone (bench/journey.ts). */
  journey?: JourneyResult[];
  /** JavaScript bytes in the read-only pages' documents. */
  readOnly?: ReadOnlyResult[];
  /** The PDF documents (issue 34): time, bytes, and /heartbeat beside the statement (bench/documents.ts). */
  documents?: DocumentResult[];
};

// KB as the budgets count them: 1 KB = 1,000 B.
const kb = (bytes: number) => (bytes / 1000).toFixed(1);

function table(title: string, head: string[], rows: (string | number)[][]) {
  const cells = [head, ...rows.map((row) => row.map(String))];
  const widths = head.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  const out = [
    `\n${title}`,
    line(head),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...cells.slice(1).map(line),
  ];
  return out.join("\n");
}

const orDash = (value: number | null | undefined) => (value === null || value === undefined ? "–" : String(value));

/** The Lighthouse tables (6 and 7): also all that a Lighthouse-only run (BENCH_ONLY=lighthouse) prints. */
export function formatLighthouse(results: Pick<BenchResults, "lighthouse" | "lowEnd" | "cssDelivery">): string {
  const parts: string[] = [];
  const css = results.cssDelivery ? `; CSS ${results.cssDelivery}` : "";
  if (results.lighthouse)
    parts.push(
      table(
        `6. Lighthouse 12, mobile preset (simulated slow 4G, 4× CPU; median of runs${css}): scores, metrics in ms`,
        ["page", "perf", "a11y", "best pr.", "SEO", "FCP", "LCP", "TBT", "CLS", "failing audits"],
        results.lighthouse.map((page) => {
          const { scores, metrics, failing } = page.median;
          const name = page.host ? `${page.page} (${page.host})` : page.page;
          const audits = Object.entries(failing).flatMap(([category, ids]) =>
            (ids ?? []).map((id) => `${category}:${id}`),
          );
          return [
            name,
            orDash(scores.performance),
            orDash(scores.accessibility),
            orDash(scores["best-practices"]),
            orDash(scores.seo),
            metrics.fcp,
            metrics.lcp,
            metrics.tbt,
            metrics.cls,
            audits.join(" ") || "none",
          ];
        }),
      ),
    );
  if (results.lowEnd)
    parts.push(
      table(
        `7. Low-end phone, Lighthouse simulated (400 ms RTT, 400 kbps, 6× CPU${css}): ms`,
        ["page", "perf", "FCP", "LCP", "TBT", "speed index", "failing audits"],
        results.lowEnd.map((page) => [
          page.page,
          orDash(page.median.scores.performance),
          page.median.metrics.fcp,
          page.median.metrics.lcp,
          page.median.metrics.tbt,
          page.median.metrics.speedIndex,
          (page.median.failing.performance ?? []).join(" ") || "none",
        ]),
      ),
    );
  return parts.join("\n");
}

/**
 * Table 10, the PDF documents: time and size per document, then /heartbeat beside each document made
 * with it polled. Also all that a PDF-documents-only run (BENCH_ONLY=documents) prints.
 */
export function formatDocuments(documents: DocumentResult[]): string {
  const first = documents[0];
  const timed = table(
    `10. PDF documents, signed in (ms from request to last byte on 127.0.0.1, median and max of ${first?.runsMs.length ?? 0} after ${first?.warmUps ?? 0} warm-up; 1 KB = 1,000 B)`,
    ["document", "lines", "KB", "median ms", "max ms", "runs (ms)", "type"],
    documents.map((document) => [
      document.document,
      document.lines === undefined ? "–" : document.lines.toLocaleString("en"),
      kb(document.bytes),
      document.medianMs,
      document.maxMs,
      document.runsMs.join(" / "),
      `${document.status} ${document.contentType}`,
    ]),
  );
  const beside = documents.filter((document) => document.heartbeat);
  if (beside.length === 0) return timed;
  return [
    timed,
    table(
      "10b. /heartbeat fetched back to back on its own connection while the document is made (ms; the slowest answer per run, and the same connection's heartbeats alone just before)",
      [
        "document",
        "heartbeat alone: median / max",
        "document beside (runs)",
        "answers beside (runs)",
        "slowest answer (runs)",
        "median of slowest",
        "slowest",
      ],
      beside.map((document) => {
        const heartbeat = document.heartbeat!;
        return [
          document.document,
          `${heartbeat.idle.medianMs} / ${heartbeat.idle.maxMs} (of ${heartbeat.idle.samples})`,
          heartbeat.runs.map((run) => run.documentMs).join(" / "),
          heartbeat.runs.map((run) => run.answers).join(" / "),
          heartbeat.runs.map((run) => run.slowestMs).join(" / "),
          heartbeat.slowestMs,
          heartbeat.worstMs,
        ];
      }),
    ),
  ].join("\n");
}

/** 8b: the emailed request's journey on the low-end phone, each run's time, taps and whether it beat hydration. */
export function formatJourney(journeys: JourneyResult[]): string {
  return table(
    "8b. The emailed request's journey, low-end phone applied (link → new card → Pay → confirm → receipt), tapping before hydration",
    [
      "journey",
      "receipt ms (median)",
      "refused taps",
      "runs (ms to the receipt; taps at ms; first tap before hydration)",
    ],
    journeys.map((journey) => [
      journey.journey,
      journey.receiptMs,
      journey.refused,
      journey.runs
        .map((run) => `${run.receiptMs}; ${run.tapsAtMs.join(", ")}; ${run.beforeHydration ? "yes" : "no"}`)
        .join(" / "),
    ]),
  );
}

/**
 * BENCH_ONLY=lowend-h2 (decision 083): the low-end phone per page, leg beside leg — the load event, LCP
 * and the script files fetched — then each leg's server and the protocols Chromium reported.
 */
export function formatLowEndProtocols(results: LowEndProtocolResults): string {
  const { legs, profile } = results;
  const names = legs[0]?.pages.map((page) => page.page) ?? [];
  const h1 = legs.find((leg) => leg.leg === "h1");
  const h2 = legs.find((leg) => leg.leg === "h2");
  const head = [
    "page",
    "files",
    "KB",
    ...legs.flatMap((leg) => [`${leg.leg} load`, `${leg.leg} scripts in`, `${leg.leg} LCP`]),
  ];
  if (h1 && h2) head.push("h2 − h1 load");
  const rows = names.map((name) => {
    // The files and bytes of the first leg: every leg loads the same page (a leg that differs says so).
    const first = legs[0]?.pages.find((candidate) => candidate.page === name);
    const differs = legs.some((leg) => {
      const page = leg.pages.find((candidate) => candidate.page === name);
      return page?.median.scripts !== first?.median.scripts;
    });
    const files = differs
      ? legs.map((leg) => orDash(leg.pages.find((page) => page.page === name)?.median.scripts)).join(" / ")
      : orDash(first?.median.scripts);
    const transferred = first?.median.transferred;
    const cells: (string | number)[] = [name, files, transferred === undefined ? "–" : kb(transferred)];
    for (const leg of legs) {
      const page = leg.pages.find((candidate) => candidate.page === name);
      cells.push(orDash(page?.median.load), orDash(page?.median.scriptsEnd), orDash(page?.median.lcp));
    }
    if (h1 && h2) {
      const before = h1.pages.find((page) => page.page === name)?.median.load;
      const after = h2.pages.find((page) => page.page === name)?.median.load;
      cells.push(before === undefined || after === undefined ? "–" : String(Math.round(after - before)));
    }
    return cells;
  });
  const footer = legs.map((leg) => {
    const protocols = Object.entries(leg.protocols)
      .sort(([, a], [, b]) => b - a)
      .map(([protocol, count]) => `${protocol} ${count}`)
      .join(", ");
    return `  ${leg.leg}: ${leg.served}; ${leg.origin}; responses by protocol: ${protocols || "none"}`;
  });
  return [
    table(
      `${results.profileName === "mobile" ? "Lighthouse's mobile profile" : "Low-end phone"} by protocol (${profile.latencyMs} ms, ${profile.downloadBitsPerSecond / 1000} kbps, ${profile.cpuSlowdown}× CPU, applied; median of ${profile.runs}): script files and KB before the load event, then ms to the load event, to the last of those files' arrival, to LCP`,
      head,
      rows,
    ),
    ...footer,
  ].join("\n");
}

export function formatReport(results: BenchResults): string {
  const { bytes, pages, mobile, load, growth } = results;
  const parts: string[] = [];
  parts.push(
    table(
      `1. Bytes per route (KB; floor = entry + React/Remix runtime: ${kb(bytes.floor.raw)} raw, ${kb(bytes.floor.gzip)} gzip; root app code: ${kb(bytes.root.gzip)} gzip)`,
      ["route", "url", "JS raw", "JS gzip", "app JS gzip", "CSS bundle gzip", "document's CSS gzip", "HTML gzip"],
      bytes.routes.map((route) => {
        const page = pages.find((candidate) => candidate.path === route.url);
        // A read-only route's documents load no JavaScript (decision 049): say so, do not count.
        const js = (size: { raw: number; gzip: number }, key: "raw" | "gzip") =>
          route.runtime === "never" ? "none (read-only)" : `${kb(size[key])}${route.runtime === "data" ? "*" : ""}`;
        return [
          route.route,
          route.url,
          js(route.js, "raw"),
          js(route.js, "gzip"),
          js(route.appJs, "gzip"),
          kb(route.css.gzip),
          page?.css ? kb(page.css.gzip) : "–",
          page ? kb(page.html.gzip) : "–",
        ];
      }),
    ),
  );
  parts.push(
    table(
      "2. Mobile page load (median of 5; ms; Lighthouse mobile: 4× CPU, 150 ms RTT, 1.6/0.75 Mbps, 412×823)",
      ["page", "FCP", "LCP", "TBT", "CLS", "load", "no-JS submit"],
      mobile.map((m) => [
        m.page,
        m.median.fcp,
        m.median.lcp,
        m.median.tbt,
        m.median.cls,
        m.median.load,
        m.noJsSubmitMs ?? "–",
      ]),
    ),
  );
  parts.push(
    table(
      `3. Server on loopback (autocannon, medians of ${load.runs[0]?.rounds.length ?? 0} interleaved rounds; peak RSS of the server ${load.peakRssMb} MB)`,
      ["page", "conns", "req/s", "of floor", "p50 ms", "p99 ms", "errors", "non-2xx"],
      load.runs.map((run) => [
        run.page,
        run.connections,
        run.requestsPerSecond,
        `${Math.round(run.ofFloor * 100)}%`,
        run.p50Ms,
        run.p99Ms,
        run.errors,
        run.non2xx,
      ]),
    ),
  );
  parts.push(formatQueries(pages));
  parts.push(
    growth
      ? table(
          `5. Growth on PostgreSQL: ${growth.statementLines.toLocaleString("en")} statement lines, ${growth.invoices.toLocaleString("en")} invoices on one account (seeded in ${growth.seedSeconds} s)`,
          ["query (real service function)", "samples", "p50 ms", "p95 ms", "max ms"],
          growth.cases.map((c) => [`${c.page}: ${c.name}`, c.samples, c.p50Ms, c.p95Ms, c.maxMs]),
        )
      : "\n5. Growth on PostgreSQL: skipped (TEST_DATABASE_URL is not set)",
  );
  parts.push(
    "(* only while the page can act: a paid, expired or cancelled link, or a settled receipt, loads none; CSS is inline in the document unless CSS_DELIVERY=link)",
  );
  const lighthouse = formatLighthouse(results);
  if (lighthouse) parts.push(lighthouse);
  if (results.lowEndApplied)
    parts.push(
      table(
        `7. Low-end phone applied in Chromium (400 ms, 400 kbps, 6× CPU; median of ${results.lowEndApplied[0]?.runs.length ?? 0}): ms`,
        ["page", "FCP", "LCP", "TBT", "CLS", "load"],
        results.lowEndApplied.map((page) => [
          page.page,
          page.median.fcp,
          page.median.lcp,
          page.median.tbt,
          page.median.cls,
          page.median.load,
        ]),
      ),
    );
  if (results.inp)
    parts.push(
      table(
        "8. Interaction to Next Paint, low-end phone applied (400 ms, 400 kbps, 6× CPU): type an amount, choose a method",
        ["page", "INP ms (median)", "runs (INP ms)", "interactions in the worst run (ms)"],
        results.inp.map((page) => {
          const worst = [...page.runs].sort((a, b) => (b.inp ?? 0) - (a.inp ?? 0))[0];
          return [
            page.page,
            orDash(page.inp),
            page.runs.map((run) => orDash(run.inp)).join(" / "),
            (worst?.interactions ?? []).map((i) => `${i.events[0]}:${i.duration}`).join(" "),
          ];
        }),
      ),
    );
  if (results.journey) parts.push(formatJourney(results.journey));
  if (results.readOnly)
    parts.push(
      table(
        "9. JavaScript in read-only pages' documents (bytes a browser runs or downloads)",
        ["page", "path", "inline scripts", "inline B", "files", "JS B", "HTML gzip KB"],
        results.readOnly.map((page) => [
          page.page,
          page.path.length > 60 ? `${page.path.slice(0, 57)}...` : page.path,
          page.inlineScripts,
          page.inlineBytes,
          page.files.length,
          page.jsBytes,
          kb(page.htmlGzip),
        ]),
      ),
    );
  if (results.documents) parts.push(formatDocuments(results.documents));
  parts.push(
    `\nBench took ${results.durationSeconds} s on ${results.machine.cpus} CPU(s), Node ${results.machine.node}.`,
  );
  return parts.join("\n");
}

/** Table 4, SQL statements per page: also all that a query-count-only run (BENCH_ONLY=queries) prints. */
export function formatQueries(pages: BenchResults["pages"]): string {
  const sizes = Object.keys(pages[0]?.queries ?? {});
  return table(
    "4. SQL statements per page (steady state: after one unmeasured visit, the most of the counted visits), by invoices + statement lines on the account",
    ["page", ...sizes.map((size) => `${size} rows`)],
    pages.map((page) => [
      page.page,
      ...sizes.map((size) => {
        // A count that changed between the counted visits shows them all: not a steady state.
        const visits = page.queryVisits?.[size] ?? [];
        const steady = visits.every((count) => count === visits[0]);
        return steady ? (page.queries[size] ?? "–") : `${page.queries[size]} (visits: ${visits.join(", ")})`;
      }),
    ]),
  );
}
