/**
 * `npm run bench`: builds the production app, starts it on its own port with a fresh
 * embedded database (demo data plus the bench's own accounts), measures, stops it, and
 * prints one table per measurement. Everything lands in bench/results/latest.json for
 * `npm run bench:check`. See docs/performance.md.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { heapLimitArgs } from "../scripts/heap-limit.js";
import { measureBytes } from "./bytes";
import { measureDocuments } from "./documents";
import {
  BENCH_DATA_DIR,
  BUDGETS_FILE,
  BENCH_PORT,
  DEMO_ADMIN_LOGIN,
  DEMO_HOST,
  DEMO_LOGIN,
  DOCUMENTS,
  DOCUMENTS_FILE,
  LOW_END,
  MOBILE,
  PAGES,
  QUERIES_FILE,
  RESULTS_FILE,
  SECOND_BRAND,
} from "./config";
import { measureGrowth } from "./growth";
import { measureInp } from "./interaction";
import { measureJourney } from "./journey";
import { measureLighthouse } from "./lighthouse";
import { formatLongTasks, measureLongTasks } from "./long-tasks";
import { signIn, waitForPortal } from "./lib/http";
import { measureMobile } from "./mobile";
import { measurePages } from "./pages";
import { measureReadOnly } from "./read-only";
import {
  formatDocuments,
  formatJourney,
  formatLighthouse,
  formatLowEndProtocols,
  formatQueries,
  formatReport,
  type BenchResults,
} from "./report";
import {
  benchClusterPorts,
  clusterLegs,
  legsFromEnvironment,
  lowEndPages,
  measureLegsInTurn,
  protocolProfileFromEnvironment,
  singleProcessLeg,
  startBenchCluster,
  type LegPlan,
  type LowEndProtocolResults,
} from "./lowend-protocols";
import { prepareBenchDatabase } from "./seed";
import { lighthouseJudged, lowEndJudged, mobileJudged } from "./lib/verdicts";
import { measureLoad } from "./server-load";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// A query-count-only run and a PDF-documents-only run (BENCH_ONLY=queries or documents, below) open no browser.
const noBrowser = process.env.BENCH_ONLY === "queries" || process.env.BENCH_ONLY === "documents";
if (!noBrowser && !fs.existsSync(chromium)) {
  process.stderr.write(
    `The mobile page-load runs need Chromium at ${chromium} (Playwright's own download cannot work here).\n` +
      "Install it with:  sudo apt-get install -y chromium   (or set CHROMIUM_PATH); `npm test` installs it when run as root.\n",
  );
  process.exit(1);
}

/**
 * The portal's CSS delivery (decision 049): BENCH_CSS_DELIVERY=link measures the stylesheet as a
 * linked file instead of inline. BENCH_ONLY=lighthouse runs only the two Lighthouse steps (on the
 * pages in BENCH_LIGHTHOUSE_PAGES, comma-separated, if given) and writes
 * bench/results/lighthouse-<delivery>.json, leaving latest.json alone: how the two deliveries were
 * compared (docs/performance.md).
 */
const cssDelivery = process.env.BENCH_CSS_DELIVERY ?? "inline";
if (cssDelivery !== "inline" && cssDelivery !== "link") throw new Error("BENCH_CSS_DELIVERY is inline or link");
const lighthouseOnly = process.env.BENCH_ONLY === "lighthouse";
/**
 * BENCH_ONLY=lighthouse-sweep: Lighthouse's mobile preset, all four categories, on every page in
 * PAGES on acme and on the second brand's pages (SECOND_BRAND), BENCH_SWEEP_RUNS runs each
 * (default 1); writes bench/results/lighthouse-sweep.json. Too long for every CI run (about 15 s
 * a page): the five pages with `lighthouse: true` carry the budget there; the sweep is how "every
 * page of both brands" is checked (docs/performance.md).
 */
const lighthouseSweep = process.env.BENCH_ONLY === "lighthouse-sweep";
/**
 * BENCH_ONLY=queries: only step 4's SQL statements per page (and the documents' bytes), in about a
 * minute; writes bench/results/queries.json, which `BENCH_ONLY=queries npm run bench:check` checks
 * against the query budgets alone, leaving latest.json alone.
 */
const queriesOnly = process.env.BENCH_ONLY === "queries";
/**
 * BENCH_ONLY=documents: only step 10, the PDF documents' time and bytes and /heartbeat beside the
 * statement, in about a minute after the build; writes bench/results/documents.json, which
 * `BENCH_ONLY=documents npm run bench:check` checks against the documents' budgets alone.
 */
const documentsOnly = process.env.BENCH_ONLY === "documents";
/** BENCH_ONLY=journey: only step 8b, the emailed request's journey on the low-end phone, printed. */
const journeyOnly = process.env.BENCH_ONLY === "journey";
/**
 * BENCH_ONLY=lowend-h2: the low-end phone on one process over HTTP/1.1 (step 7's way) and through the
 * cluster's TLS listener over HTTP/1.1 and HTTP/2 (bench/lowend-protocols.ts, decision 083); writes
 * bench/results/lowend-h2.json, leaving latest.json alone. Needs TEST_DATABASE_URL, HAProxy and openssl.
 */
const lowEndH2 = process.env.BENCH_ONLY === "lowend-h2";
/**
 * BENCH_ONLY=long-tasks: the low-end phone's long tasks from a Chromium trace, each with what ran
 * in it (bench/long-tasks.ts); the mobile pages, or those named in BENCH_LOWEND_PAGES;
 * BENCH_LONG_TASK_RUNS loads each (3). Printed and written to bench/results/long-tasks.json.
 */
const longTasksOnly = process.env.BENCH_ONLY === "long-tasks";
if (
  process.env.BENCH_ONLY &&
  !lighthouseOnly &&
  !lighthouseSweep &&
  !queriesOnly &&
  !documentsOnly &&
  !journeyOnly &&
  !lowEndH2 &&
  !longTasksOnly
)
  throw new Error("BENCH_ONLY is lighthouse, lighthouse-sweep, queries, documents, journey, lowend-h2 or long-tasks");
const protocolLegs = lowEndH2 ? legsFromEnvironment() : [];
const protocolPages = lowEndH2 ? lowEndPages(PAGES) : [];
const protocolProfile = protocolProfileFromEnvironment();
const clusterDatabaseUrl = process.env.TEST_DATABASE_URL?.trim();
if (lowEndH2 && protocolLegs.some((leg) => leg !== "h1") && !clusterDatabaseUrl)
  throw new Error("BENCH_ONLY=lowend-h2 runs the cluster on PostgreSQL: set TEST_DATABASE_URL");
const sweepRuns = Number(process.env.BENCH_SWEEP_RUNS ?? 1);
if (!Number.isInteger(sweepRuns) || sweepRuns < 1) throw new Error("BENCH_SWEEP_RUNS is a whole number from 1");
const lighthousePages = process.env.BENCH_LIGHTHOUSE_PAGES?.split(",").map((name) => name.trim());
const pick = (pages: typeof PAGES) =>
  lighthousePages ? pages.filter((page) => lighthousePages.includes(page.name)) : pages;

// The budgets the runs are judged by: a page's last run is skipped when its first two settle every verdict
// (lib/verdicts.ts, decision 060). bench:check still judges the results against the file as it is then.
const budgets = JSON.parse(fs.readFileSync(BUDGETS_FILE, "utf8")) as Parameters<typeof mobileJudged>[0] & {
  lighthouse: { minScore: number };
};

const started = performance.now();
const step = (text: string) =>
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${text}\n`);

// BENCH_SKIP_BUILD=1: measure the build already in ./build (CI: `npm test` has just made it).
if (process.env.BENCH_SKIP_BUILD === "1" && fs.existsSync("build/index.js")) {
  step("production build: the one in ./build (BENCH_SKIP_BUILD)");
} else {
  step("production build");
  const build = spawnSync("npx", ["remix", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) throw new Error("remix build failed");
}

step("fresh database: demo hosts and the bench's accounts");
await prepareBenchDatabase();

step(`portal on 127.0.0.1:${BENCH_PORT}`);
// The heap limit on the command line (decision 058): the pid is the server's, not a relaunching parent's.
const server = spawn(process.execPath, [...heapLimitArgs(), "scripts/serve.js", "./build/index.js"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(BENCH_PORT),
    DATA_DIR: BENCH_DATA_DIR,
    DATABASE_URL: "",
    SEED_DEMO_DATA: "false",
    // Production's level: one line per request is part of what a request costs.
    LOG_LEVEL: "info",
    BENCH_QUERY_COUNT: "1",
    CSS_DELIVERY: cssDelivery,
  },
  stdio: ["ignore", "ignore", "pipe"],
});
let serverErrors = "";
server.stderr.on("data", (chunk: Buffer) => {
  serverErrors = (serverErrors + chunk.toString()).slice(-4_000);
});
const serverExit = new Promise<void>((resolve) => server.once("exit", () => resolve()));

async function stopServer() {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill("SIGTERM");
  // remix-serve may linger after SIGTERM (STACK.md): give it a moment, then end it.
  const timer = setTimeout(() => server.kill("SIGKILL"), 3_000);
  await serverExit;
  clearTimeout(timer);
}

let results: BenchResults;
try {
  await waitForPortal(120_000);
  const cookie = {
    customer: await signIn(DEMO_HOST, DEMO_LOGIN.email, DEMO_LOGIN.password),
    hostAdmin: await signIn(DEMO_HOST, DEMO_ADMIN_LOGIN.email, DEMO_ADMIN_LOGIN.password),
  };

  if (lighthouseSweep) {
    step(`Lighthouse sweep, mobile preset, ${sweepRuns} run(s) a page: every page on ${DEMO_HOST}`);
    const demo = await measureLighthouse(pick(PAGES), cookie, "mobile", { runs: sweepRuns });
    step(`Lighthouse sweep: ${SECOND_BRAND.host}`);
    const secondCookies = {
      customer: await signIn(SECOND_BRAND.host, SECOND_BRAND.login.email, SECOND_BRAND.login.password),
      hostAdmin: await signIn(SECOND_BRAND.host, SECOND_BRAND.admin.email, SECOND_BRAND.admin.password),
    };
    const second = await measureLighthouse(
      pick(PAGES.filter((page) => SECOND_BRAND.pages.includes(page.name))),
      secondCookies,
      "mobile",
      { host: SECOND_BRAND.host, runs: sweepRuns },
    );
    await stopServer();
    const file = path.join(path.dirname(RESULTS_FILE), "lighthouse-sweep.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const sweep = { generatedAt: new Date().toISOString(), cssDelivery, lighthouse: [...demo, ...second] };
    fs.writeFileSync(file, `${JSON.stringify(sweep, null, 2)}\n`);
    const below = sweep.lighthouse.filter((page) =>
      Object.values(page.median.scores).some((score) => typeof score === "number" && score < 100),
    );
    process.stdout.write(
      `${formatLighthouse(sweep)}\n${sweep.lighthouse.length} pages; ${below.length} below 100 in a category` +
        `${below.length ? `: ${below.map((page) => (page.host ? `${page.page} (${page.host})` : page.page)).join(", ")}` : ""}.\nWritten to ${file}.\n`,
    );
    process.exit(0);
  }

  if (lighthouseOnly) {
    step(`Lighthouse only, CSS ${cssDelivery}: mobile preset`);
    const lighthouse = await measureLighthouse(pick(PAGES.filter((page) => page.lighthouse)), cookie, "mobile");
    step("Lighthouse only: low-end phone");
    const lowEnd = await measureLighthouse(pick(PAGES.filter((page) => page.mobile)), cookie, "lowEnd");
    await stopServer();
    const file = path.join(path.dirname(RESULTS_FILE), `lighthouse-${cssDelivery}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const only = { generatedAt: new Date().toISOString(), cssDelivery, lighthouse, lowEnd };
    fs.writeFileSync(file, `${JSON.stringify(only, null, 2)}\n`);
    process.stdout.write(`${formatLighthouse(only)}\nWritten to ${file}.\n`);
    process.exit(0);
  }

  if (longTasksOnly) {
    const runs = Number(process.env.BENCH_LONG_TASK_RUNS ?? 3);
    if (!Number.isInteger(runs) || runs < 1) throw new Error("BENCH_LONG_TASK_RUNS is a whole number from 1");
    const longTasks = await measureLongTasks(lowEndPages(PAGES), cookie, runs, (name) =>
      step(`long tasks on the low-end phone: ${name}`),
    );
    await stopServer();
    const file = path.join(path.dirname(RESULTS_FILE), "long-tasks.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ generatedAt: new Date().toISOString(), longTasks }, null, 2)}\n`);
    process.stdout.write(`${formatLongTasks(longTasks)}\nWritten to ${file}.\n`);
    process.exit(0);
  }

  if (journeyOnly) {
    step("8b. the emailed request's journey on the low-end phone, only");
    const journey = [await measureJourney()];
    await stopServer();
    process.stdout.write(`${formatJourney(journey)}\n`);
    process.exit(0);
  }

  if (lowEndH2) {
    const plans: LegPlan[] = [];
    if (protocolLegs.includes("h1")) plans.push(await singleProcessLeg(protocolPages, cookie));
    let clusterRun: Awaited<ReturnType<typeof startBenchCluster>> | undefined;
    try {
      if (protocolLegs.some((leg) => leg !== "h1")) {
        const ports = benchClusterPorts();
        step(
          `the cluster: its own PostgreSQL database, 2 processes, HAProxy on ${ports.proxy} and TLS on ${ports.tls}`,
        );
        clusterRun = await startBenchCluster(clusterDatabaseUrl!, { LOG_LEVEL: "info", CSS_DELIVERY: cssDelivery });
        plans.push(...(await clusterLegs(clusterRun.cluster, protocolLegs, protocolPages)));
      }
      // In the order asked for (BENCH_LOWEND_LEGS).
      plans.sort((a, b) => protocolLegs.indexOf(a.leg) - protocolLegs.indexOf(b.leg));
      const { profile } = protocolProfile;
      step(
        `${protocolProfile.name} profile (${profile.latencyMs} ms, ${profile.downloadBitsPerSecond / 1000} kbps, ` +
          `CPU ${profile.cpuSlowdown}×) by protocol: ${protocolPages.length} pages`,
      );
      const legs = await measureLegsInTurn(plans, protocolPages, profile, step);
      const byProtocol: LowEndProtocolResults = {
        generatedAt: new Date().toISOString(),
        durationSeconds: Math.round((performance.now() - started) / 1000),
        machine: { cpus: os.availableParallelism(), node: process.version },
        profileName: protocolProfile.name,
        profile,
        cssDelivery,
        legs,
      };
      fs.mkdirSync(path.dirname(protocolProfile.file), { recursive: true });
      fs.writeFileSync(protocolProfile.file, `${JSON.stringify(byProtocol, null, 2)}\n`);
      process.stdout.write(`${formatLowEndProtocols(byProtocol)}\nWritten to ${protocolProfile.file}.\n`);
    } finally {
      await clusterRun?.cluster.stop();
      await clusterRun?.drop();
      await stopServer();
    }
    process.exit(0);
  }

  if (queriesOnly) {
    step("4. documents and SQL statements per page, only");
    const pages = await measurePages(
      PAGES.filter((page) => !page.demoOnly),
      cookie,
    );
    await stopServer();
    fs.mkdirSync(path.dirname(QUERIES_FILE), { recursive: true });
    fs.writeFileSync(QUERIES_FILE, `${JSON.stringify({ generatedAt: new Date().toISOString(), pages }, null, 2)}\n`);
    process.stdout.write(
      `${formatQueries(pages)}\nWritten to ${QUERIES_FILE}; check: BENCH_ONLY=queries npm run bench:check\n`,
    );
    process.exit(0);
  }

  if (documentsOnly) {
    step("10. PDF documents, only");
    const documents = await measureDocuments(DOCUMENTS);
    await stopServer();
    fs.mkdirSync(path.dirname(DOCUMENTS_FILE), { recursive: true });
    fs.writeFileSync(
      DOCUMENTS_FILE,
      `${JSON.stringify({ generatedAt: new Date().toISOString(), documents }, null, 2)}\n`,
    );
    process.stdout.write(
      `${formatDocuments(documents)}\nWritten to ${DOCUMENTS_FILE}; check: BENCH_ONLY=documents npm run bench:check\n`,
    );
    process.exit(0);
  }

  step("1. bytes per route (manifest) and 4. documents and SQL statements per page");
  const bytes = measureBytes();
  const pages = await measurePages(
    PAGES.filter((page) => !page.demoOnly),
    cookie,
  );
  step("9. JavaScript in the read-only pages' documents");
  const readOnly = await measureReadOnly(
    PAGES.filter((page) => page.readOnly),
    cookie,
  );

  step("2. mobile page load in throttled Chromium");
  const mobile = await measureMobile(
    PAGES.filter((page) => page.mobile),
    cookie,
    MOBILE,
    { judged: mobileJudged(budgets) },
  );

  step("6. Lighthouse, mobile preset, four categories");
  const lighthouse = await measureLighthouse(
    PAGES.filter((page) => page.lighthouse),
    cookie,
    "mobile",
    { settle: { judged: lighthouseJudged(budgets.lighthouse.minScore) } },
  );
  step("7. low-end phone (400 ms, 400 kbps, CPU 6×) applied in throttled Chromium");
  const lowEndApplied = await measureMobile(
    PAGES.filter((page) => page.mobile),
    cookie,
    LOW_END,
    { judged: lowEndJudged(budgets) },
  );
  step("8. Interaction to Next Paint on the pay page, low-end phone");
  const payPage = PAGES.find((page) => page.name === "pay");
  if (!payPage) throw new Error("PAGES has no pay page");
  const inp = [await measureInp(payPage, cookie)];
  step("8b. the emailed request's journey on the low-end phone: link → new card → receipt");
  const journey = [await measureJourney()];

  step("3. server load with autocannon");
  const load = await measureLoad(
    PAGES.filter((page) => page.load),
    cookie,
    server.pid!,
  );
  // After the load runs, so the figures before it (the server's peak RSS among them) are what they were
  // without PDFs; on the server as they left it, quiet again.
  step("10. PDF documents: time and bytes, and /heartbeat beside the statement");
  const documents = await measureDocuments(DOCUMENTS);
  await stopServer();

  const databaseUrl = process.env.TEST_DATABASE_URL?.trim();
  step(databaseUrl ? "5. growth on PostgreSQL" : "5. growth skipped: TEST_DATABASE_URL is not set");
  const growth = databaseUrl ? await measureGrowth(databaseUrl) : null;

  results = {
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((performance.now() - started) / 1000),
    machine: { cpus: os.availableParallelism(), node: process.version },
    bytes,
    pages,
    mobile,
    load,
    growth,
    cssDelivery,
    lighthouse,
    lowEndApplied,
    inp,
    journey,
    readOnly,
    documents,
  };
} catch (error) {
  if (serverErrors) process.stderr.write(`\nThe portal's last error output:\n${serverErrors}\n`);
  throw error;
} finally {
  await stopServer();
}

fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(
  `${formatReport(results)}\nWritten to ${RESULTS_FILE}; compare with the budgets: npm run bench:check\n`,
);
