import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "@playwright/test";
import { BENCH_PORT, cookieFor, DEMO_HOST, MOBILE, type BenchCookies, type BenchPage } from "./config";
import { median, round } from "./lib/stats";
import { runUntilSettled, settlerFor, type Settle } from "./lib/verdicts";

/**
 * Mobile page load in Debian's Chromium with Lighthouse's mobile settings: CPU 4× slower,
 * 150 ms round trip, 1.6 Mbps down and 750 kbps up (DevTools throttling, per request), a
 * 412×823 phone screen. Every run is a fresh context (cold cache), so each load pays for
 * its HTML, CSS and JavaScript in full. Metrics come from the page's own performance
 * timeline (PerformanceObserver), read after the network has gone quiet.
 */
export type MobileRun = {
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  load: number;
  /**
   * From the page's Resource Timing: the script files (`.js`) requested before the load event, which
   * it waited for; when the last of them had arrived (ms); and the bytes the document and everything
   * requested before the load event took (`transferSize`: compressed bodies and headers).
   */
  scripts?: number;
  scriptsEnd?: number;
  transferred?: number;
  /** Script files requested after the load event (Remix's prefetches of linked routes), until the network was quiet. */
  laterScripts?: number;
  /** Every response the page received, counted by the protocol CDP reports (`h2`, `http/1.1`, …). */
  protocols?: Record<string, number>;
};
export type MobileResult = {
  page: string;
  path: string;
  runs: MobileRun[];
  median: MobileRun;
  /** JavaScript disabled: when the primary submit button is in the DOM and visible (median). */
  noJsSubmitMs?: number;
  noJsRuns?: number[];
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// Runs in the page before any of its own scripts. Long tasks count towards total blocking
// time from first contentful paint on, for their part over 50 ms (Lighthouse's definition,
// ended here at network quiet rather than at "time to interactive").
const OBSERVERS = `
  window.__bench = { fcp: 0, lcp: 0, cls: 0, longTasks: [] };
  const observe = (type, onEntry) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true }); } catch {}
  };
  observe("paint", (e) => { if (e.name === "first-contentful-paint") window.__bench.fcp = e.startTime; });
  observe("largest-contentful-paint", (e) => { window.__bench.lcp = e.startTime; });
  observe("layout-shift", (e) => { if (!e.hadRecentInput) window.__bench.cls += e.value; });
  observe("longtask", (e) => { window.__bench.longTasks.push([e.startTime, e.duration]); });
`;

/** A network and CPU profile applied through DevTools: Lighthouse's mobile one, or the low-end phone. */
export type AppliedProfile = {
  latencyMs: number;
  downloadBitsPerSecond: number;
  uploadBitsPerSecond: number;
  cpuSlowdown: number;
  runs: number;
};

/**
 * Where a page is loaded from: by default the bench's own portal over plain HTTP/1.1. The low-end
 * protocol comparison (bench/lowend-protocols.ts, decision 083) loads pages through the cluster's TLS
 * listener as well, over HTTP/2 or (a browser started with `--disable-http2`) HTTP/1.1.
 */
export type LoadTarget = {
  /** scheme://host:port of the demo brand, e.g. https://acme.localhost:7421 */
  origin: string;
  /** Fail a run whose page ended anywhere but the path asked for (a lost cookie lands on the sign-in page). */
  requireSamePath?: boolean;
};

const defaultTarget = (): LoadTarget => ({ origin: `http://${DEMO_HOST}:${BENCH_PORT}` });

export async function throttle(context: BrowserContext, page: Page, profile: AppliedProfile = MOBILE) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.downloadBitsPerSecond / 8,
    uploadThroughput: profile.uploadBitsPerSecond / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
  return cdp;
}

/**
 * Over https, the session's cookies through DevTools: with a URL and no domain, Chromium makes each
 * host-only, as the portal's own Set-Cookie does (a `__Host-` cookie must be). Over http, nothing
 * (newMobileContext has added them).
 */
async function setSecureCookies(cdp: CDPSession, cookie: string | undefined, target: LoadTarget) {
  if (!cookie || !target.origin.startsWith("https:")) return;
  for (const pair of cookie.split("; ")) {
    const at = pair.indexOf("=");
    const { success } = await cdp.send("Network.setCookie", {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      url: `${target.origin}/`,
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
    });
    if (!success) throw new Error(`Chromium refused the cookie ${pair.slice(0, at)} for ${target.origin}`);
  }
}

export function newMobileContext(
  browser: Browser,
  options: { javaScriptEnabled: boolean; cookie?: string; target?: LoadTarget },
) {
  const secure = options.target?.origin.startsWith("https:") ?? false;
  return browser
    .newContext({
      viewport: MOBILE.viewport,
      deviceScaleFactor: MOBILE.deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
      javaScriptEnabled: options.javaScriptEnabled,
      // The cluster's certificate is self-signed (decision 083): a person clicks through once.
      ignoreHTTPSErrors: secure,
    })
    .then(async (context) => {
      // Over https the cookies are set per page through DevTools (loadOnce): a __Host- cookie must be
      // host-only, which Playwright's addCookies does not make.
      if (options.cookie && !secure) {
        await context.addCookies(
          options.cookie.split("; ").map((pair) => {
            const at = pair.indexOf("=");
            return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: DEMO_HOST, path: "/" };
          }),
        );
      }
      return context;
    });
}

export async function loadOnce(
  browser: Browser,
  url: string,
  cookie: string | undefined,
  profile: AppliedProfile = MOBILE,
  target: LoadTarget = defaultTarget(),
): Promise<MobileRun> {
  const context = await newMobileContext(browser, { javaScriptEnabled: true, cookie, target });
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVERS);
    const cdp = await throttle(context, page, profile);
    // The protocol of every response, as the browser's network stack saw it (`h2`, `http/1.1`).
    const protocols: Record<string, number> = {};
    cdp.on("Network.responseReceived", (event) => {
      if (event.response.url.startsWith("data:")) return;
      const protocol = event.response.protocol ?? "unknown";
      protocols[protocol] = (protocols[protocol] ?? 0) + 1;
    });
    await setSecureCookies(cdp, cookie, target);
    const response = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    if (!response || response.status() !== 200) throw new Error(`${url}: HTTP ${response?.status()}`);
    if (target.requireSamePath && new URL(page.url()).pathname !== new URL(url).pathname) {
      throw new Error(`${url} ended on ${page.url()}: not the page asked for (signed out?)`);
    }
    await page.waitForLoadState("networkidle", { timeout: 30_000 });
    const raw = await page.evaluate(() => {
      const bench = (
        window as unknown as { __bench: { fcp: number; lcp: number; cls: number; longTasks: [number, number][] } }
      ).__bench;
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      // No named functions in here: tsx would wrap them in a helper the page does not have (`__name`).
      const loadStart = navigation?.loadEventStart ?? 0;
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const beforeLoad = resources.filter((entry) => entry.startTime < loadStart);
      const scripts = beforeLoad.filter((entry) => new URL(entry.name).pathname.endsWith(".js"));
      return {
        ...bench,
        load: navigation?.loadEventEnd ?? 0,
        scripts: scripts.length,
        scriptsEnd: scripts.reduce((latest, entry) => Math.max(latest, entry.responseEnd), 0),
        transferred: beforeLoad.reduce((sum, entry) => sum + entry.transferSize, navigation?.transferSize ?? 0),
        laterScripts: resources.filter(
          (entry) => entry.startTime >= loadStart && new URL(entry.name).pathname.endsWith(".js"),
        ).length,
      };
    });
    const tbt = raw.longTasks
      .filter(([start]) => start >= raw.fcp)
      .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
    return {
      fcp: round(raw.fcp),
      lcp: round(raw.lcp),
      tbt: round(tbt),
      cls: round(raw.cls, 4),
      load: round(raw.load),
      scripts: raw.scripts,
      scriptsEnd: round(raw.scriptsEnd),
      transferred: raw.transferred,
      laterScripts: raw.laterScripts,
      protocols,
    };
  } finally {
    await context.close();
  }
}

/**
 * With JavaScript disabled, the moment the primary button is usable: present and visible
 * (a plain form post needs nothing more). Read in the page's own clock, so the time
 * Playwright takes to notice is included: an upper bound.
 */
async function noJsSubmitOnce(
  browser: Browser,
  url: string,
  selector: string,
  cookie: string | undefined,
): Promise<number> {
  const context = await newMobileContext(browser, { javaScriptEnabled: false, cookie });
  try {
    const page = await context.newPage();
    await throttle(context, page);
    await page.goto(url, { waitUntil: "commit", timeout: 60_000 });
    await page.locator(selector).first().waitFor({ state: "visible", timeout: 30_000 });
    // Evaluation is DevTools' own, so it works while the page's scripts are off.
    return round(await page.evaluate(() => performance.now()));
  } finally {
    await context.close();
  }
}

/** Debian's Chromium as every page-load step starts it (`extraArgs`: e.g. `--disable-http2`). */
export function launchBenchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--host-resolver-rules=MAP *.localhost 127.0.0.1",
      ...extraArgs,
    ],
  });
}

/** A page's runs and the median of each figure. */
export function mobileResult(page: Pick<BenchPage, "name" | "path">, runs: MobileRun[]): MobileResult {
  return {
    page: page.name,
    path: page.path,
    runs,
    median: {
      fcp: median(runs.map((run) => run.fcp)),
      lcp: median(runs.map((run) => run.lcp)),
      tbt: median(runs.map((run) => run.tbt)),
      cls: median(runs.map((run) => run.cls)),
      load: median(runs.map((run) => run.load)),
      scripts: median(runs.map((run) => run.scripts ?? Number.NaN)),
      scriptsEnd: median(runs.map((run) => run.scriptsEnd ?? Number.NaN)),
      transferred: median(runs.map((run) => run.transferred ?? Number.NaN)),
      laterScripts: median(runs.map((run) => run.laterScripts ?? Number.NaN)),
    },
  };
}

/**
 * `profile`: Lighthouse's mobile settings (the default), or the low-end phone (issue 19), which is
 * measured without the warm-up load (the mobile run has warmed the server) and without the no-JS runs.
 * `settle`: the budgets the runs are judged by; a page's last run is skipped when the first two agree
 * on every verdict (lib/verdicts.ts, decision 060).
 */
export async function measureMobile(
  pages: BenchPage[],
  cookies: BenchCookies,
  profile: AppliedProfile = MOBILE,
  settle?: Settle<MobileRun>,
): Promise<MobileResult[]> {
  const lowEnd = profile !== MOBILE;
  const browser = await launchBenchBrowser();
  const results: MobileResult[] = [];
  try {
    for (const page of pages) {
      const url = `http://${DEMO_HOST}:${BENCH_PORT}${page.path}`;
      const cookie = cookieFor(page, cookies);
      // One unmeasured load warms the server (first-use caches, JIT), not the browser, for a page the
      // query-count step has not already fetched twice on this host (it skips the demo-only pages).
      if (!lowEnd && page.demoOnly) await loadOnce(browser, url, cookie);
      const runs = await runUntilSettled(
        profile.runs,
        () => loadOnce(browser, url, cookie, profile),
        settlerFor(settle),
      );
      const result = mobileResult(page, runs);
      if (page.submit && !lowEnd) {
        const noJsRuns: number[] = [];
        for (let i = 0; i < MOBILE.runs; i += 1) noJsRuns.push(await noJsSubmitOnce(browser, url, page.submit, cookie));
        result.noJsRuns = noJsRuns;
        result.noJsSubmitMs = median(noJsRuns);
      }
      results.push(result);
    }
  } finally {
    await browser.close();
  }
  return results;
}
