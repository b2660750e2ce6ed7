import type { BytesResult } from "./bytes";
import type { GrowthResult } from "./growth";
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

export function formatReport(results: BenchResults): string {
  const { bytes, pages, mobile, load, growth } = results;
  const parts: string[] = [];
  parts.push(
    table(
      `1. Bytes per route (KB; floor = entry + React/Remix runtime: ${kb(bytes.floor.raw)} raw, ${kb(bytes.floor.gzip)} gzip; root app code: ${kb(bytes.root.gzip)} gzip)`,
      ["route", "url", "JS raw", "JS gzip", "app JS gzip", "CSS gzip", "HTML gzip"],
      bytes.routes.map((route) => {
        const page = pages.find((candidate) => candidate.path === route.url);
        return [
          route.route,
          route.url,
          kb(route.js.raw),
          kb(route.js.gzip),
          kb(route.appJs.gzip),
          kb(route.css.gzip),
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
  const sizes = Object.keys(pages[0]?.queries ?? {});
  parts.push(
    table(
      "4. SQL statements per page (steady state), by invoices + statement lines on the account",
      ["page", ...sizes.map((size) => `${size} rows`)],
      pages.map((page) => [page.page, ...sizes.map((size) => page.queries[size] ?? "–")]),
    ),
  );
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
    `\nBench took ${results.durationSeconds} s on ${results.machine.cpus} CPU(s), Node ${results.machine.node}.`,
  );
  return parts.join("\n");
}
