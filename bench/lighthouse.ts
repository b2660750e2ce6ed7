import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { BENCH_PORT, cookieFor, DEMO_HOST, LIGHTHOUSE, LOW_END, type BenchCookies, type BenchPage } from "./config";
import { CATEGORIES, combineRuns, summarize, type LhrLike, type LighthouseRun } from "./lib/lighthouse-summary";
import { runUntilSettled, settlerFor, type Settle } from "./lib/verdicts";

/**
 * Real Lighthouse (the npm package) in Debian's Chromium, headless, with simulated throttling:
 * Lighthouse loads the page once at full speed and computes from that trace how long it would
 * take on the slower network and CPU (its "Lantern" model). Two profiles:
 * - "mobile": Lighthouse's own mobile preset (slow 4G: 150 ms, 1.6 Mbps; CPU 4×), all four
 *   categories: the scores a business would see if it ran Lighthouse on its portal.
 * - "lowEnd": the low-end phone (LOW_END: 400 ms, 400 kbps, CPU 6×), performance only.
 * Signed-in pages carry the bench's session cookie on every request (Lighthouse's extraHeaders).
 */
export type LighthouseProfile = "mobile" | "lowEnd";
export type LighthousePageResult = {
  page: string;
  path: string;
  /** The brand's host name, when not the demo host (the sweep's second brand). */
  host?: string;
  runs: LighthouseRun[];
  median: LighthouseRun;
};

/**
 * Where and how often: the demo host and the profile's runs unless said otherwise (the sweep). `settle`: the
 * budgets the runs are judged by; a page's last run is skipped when the first two agree on every verdict
 * (lib/verdicts.ts, decision 060).
 */
export type LighthouseOptions = { host?: string; runs?: number; settle?: Settle<LighthouseRun> };

const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--host-resolver-rules=MAP *.localhost 127.0.0.1",
];

function configFor(profile: LighthouseProfile) {
  if (profile === "mobile") return { extends: "lighthouse:default", settings: { onlyCategories: [...CATEGORIES] } };
  return {
    extends: "lighthouse:default",
    settings: {
      onlyCategories: ["performance"],
      throttlingMethod: "simulate" as const,
      // Only rttMs, throughputKbps and cpuSlowdownMultiplier drive the simulation; the others are
      // what "devtools" throttling would apply, kept equal so the profile reads the same either way.
      throttling: {
        rttMs: LOW_END.latencyMs,
        throughputKbps: LOW_END.downloadBitsPerSecond / 1000,
        cpuSlowdownMultiplier: LOW_END.cpuSlowdown,
        requestLatencyMs: LOW_END.latencyMs,
        downloadThroughputKbps: LOW_END.downloadBitsPerSecond / 1000,
        uploadThroughputKbps: LOW_END.uploadBitsPerSecond / 1000,
      },
    },
  };
}

/**
 * One Lighthouse run. Lighthouse 12.8.2 in Chromium 156 now and then loses the page's trace
 * (NO_NAVSTART, "Please run Lighthouse again"): such a run measured nothing, so it is run again,
 * at most twice; any other error, or a third loss, stops the bench.
 */
async function runOnce(url: string, port: number, cookie: string | undefined, profile: LighthouseProfile) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(
      url,
      { port, output: "json", logLevel: "error", ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) },
      configFor(profile),
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr as unknown as LhrLike & { finalDisplayedUrl?: string };
    if (lhr.runtimeError?.code === "NO_NAVSTART" && attempt < 3) continue;
    // A signed-in page that redirected to the sign-in form would be measuring the wrong page.
    if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`Lighthouse on ${url} ended at ${lhr.finalDisplayedUrl}`);
    // BENCH_LIGHTHOUSE_KEEP=<folder>: each run's whole report, to read what an audit saw.
    const keep = process.env.BENCH_LIGHTHOUSE_KEEP;
    if (keep) {
      fs.mkdirSync(keep, { recursive: true });
      const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, "-")}-${profile}-${Date.now()}.json`;
      fs.writeFileSync(path.join(keep, name), JSON.stringify(result.lhr));
    }
    return lhr;
  }
}

export async function measureLighthouse(
  pages: BenchPage[],
  cookies: BenchCookies,
  profile: LighthouseProfile,
  options: LighthouseOptions = {},
): Promise<LighthousePageResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath: LIGHTHOUSE.chromePath, chromeFlags: CHROME_FLAGS });
  const runs = options.runs ?? (profile === "mobile" ? LIGHTHOUSE.runs : LOW_END.runs);
  const host = options.host ?? DEMO_HOST;
  const results: LighthousePageResult[] = [];
  try {
    for (const page of pages) {
      const url = `http://${host}:${BENCH_PORT}${page.path}`;
      const cookie = cookieFor(page, cookies);
      const pageRuns = await runUntilSettled(
        runs,
        async () => summarize(await runOnce(url, chrome.port, cookie, profile)),
        settlerFor(options.settle),
      );
      results.push({
        page: page.name,
        path: page.path,
        ...(host === DEMO_HOST ? {} : { host }),
        runs: pageRuns,
        median: combineRuns(pageRuns),
      });
    }
  } finally {
    await chrome.kill();
  }
  return results;
}
