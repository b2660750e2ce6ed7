/**
 * `npm run test:slowest`: the ten slowest Vitest tests and end-to-end journeys of the last run, each
 * with its time limit, from the reports the two runners write (.tmp/reports). A test whose duration
 * is over a third of its limit is marked: on a busy machine it is the next time-out (issue 29,
 * docs/testing.md). It reports; it does not fail: speed is the bench's business, not a test's.
 */
import fs from "node:fs";

type Row = { runner: string; name: string; durationMs: number; limitMs: number };
const COUNT = Number(process.env.SLOWEST_COUNT ?? 10);

function vitestRows(file: string): Row[] {
  const report = JSON.parse(fs.readFileSync(file, "utf8")) as {
    tests: { file: string; name: string; durationMs: number; limitMs: number }[];
  };
  return report.tests.map((test) => ({
    runner: "vitest",
    name: `${test.file} › ${test.name}`,
    durationMs: test.durationMs,
    limitMs: test.limitMs,
  }));
}

type PlaywrightSuite = {
  specs?: {
    file: string;
    line: number;
    title: string;
    tests: { projectName: string; timeout: number; results: { duration: number; status: string }[] }[];
  }[];
  suites?: PlaywrightSuite[];
};

function playwrightRows(file: string): Row[] {
  const report = JSON.parse(fs.readFileSync(file, "utf8")) as { suites: PlaywrightSuite[] };
  const rows: Row[] = [];
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) {
          if (result.status === "skipped") continue;
          rows.push({
            runner: `e2e ${test.projectName}`,
            name: `${spec.file}:${spec.line} › ${spec.title}`,
            durationMs: result.duration,
            limitMs: test.timeout,
          });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return rows;
}

function print(title: string, rows: Row[]) {
  const slowest = [...rows].sort((a, b) => b.durationMs - a.durationMs).slice(0, COUNT);
  const over = rows.filter((row) => row.durationMs * 3 > row.limitMs);
  process.stdout.write(`\n${title}: ${rows.length} tests, the ${slowest.length} slowest\n`);
  for (const row of slowest) {
    const share = Math.round((100 * row.durationMs) / row.limitMs);
    const mark = row.durationMs * 3 > row.limitMs ? "  OVER A THIRD" : "";
    process.stdout.write(
      `${(row.durationMs / 1000).toFixed(1).padStart(6)} s of ${String(row.limitMs / 1000).padStart(3)} s (${String(share).padStart(2)}%)  ${row.runner.padEnd(9)} ${row.name.slice(0, 110)}${mark}\n`,
    );
  }
  process.stdout.write(
    over.length === 0
      ? "Every test took at most a third of its limit.\n"
      : `${over.length} over a third of their limit: ${over.map((row) => `${row.runner} ${row.name.slice(0, 60)}`).join("; ")}\n`,
  );
}

const reports = [
  { title: "Vitest", file: ".tmp/reports/vitest-durations.json", read: vitestRows },
  { title: "End-to-end (Playwright)", file: ".tmp/reports/e2e.json", read: playwrightRows },
];
let found = 0;
for (const report of reports) {
  if (!fs.existsSync(report.file)) {
    process.stdout.write(`\n${report.title}: no report at ${report.file} (run the suite first).\n`);
    continue;
  }
  found += 1;
  print(report.title, report.read(report.file));
}
if (found === 0) process.exitCode = 1;
