import { chromium } from "@playwright/test";
import {
  BENCH_PORT,
  cookieFor,
  DEMO_HOST,
  INP_RUNS,
  LOW_END,
  MOBILE,
  type BenchCookies,
  type BenchPage,
} from "./config";
import { inpOf, interactionsOf, type EventEntry, type Interaction } from "./lib/inp";
import { median, round } from "./lib/stats";

/**
 * Interaction to Next Paint on the pay page, on the low-end phone with its throttling applied
 * through DevTools (400 ms round trip, 400 kbps, CPU 6× slower): load the page signed in, wait
 * until React has hydrated it, then do what a payer does — open the amounts if they are folded
 * away, type an amount, choose another way to pay — and read the page's Event Timing entries.
 * Applied, not simulated: an interaction's cost is the main thread's work, which only a real
 * (slowed) browser shows; the network part is there so hydration ends when it would on the phone.
 */
export type InpRun = { inp: number | null; interactions: Interaction[] };
export type InpResult = { page: string; path: string; runs: InpRun[]; inp: number | null };

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// Every event of 16 ms or more (the lowest threshold Event Timing allows), from the first one.
const OBSERVER = `
  window.__events = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__events.push({ name: e.name, interactionId: e.interactionId || 0, duration: e.duration, startTime: e.startTime });
    }).observe({ type: "event", durationThreshold: 16, buffered: true });
  } catch {}
`;

/** React has hydrated an element once it has put its props on it (a key starting "__reactProps$"). */
const HYDRATED = (selector: string) => {
  const element = document.querySelector(selector);
  return Boolean(element && Object.keys(element).some((key) => key.startsWith("__reactProps$")));
};

async function interactOnce(url: string, cookie: string | undefined): Promise<InpRun> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP *.localhost 127.0.0.1"],
  });
  try {
    const context = await browser.newContext({
      viewport: MOBILE.viewport,
      deviceScaleFactor: MOBILE.deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
    });
    if (cookie) {
      await context.addCookies(
        cookie.split("; ").map((pair) => {
          const at = pair.indexOf("=");
          return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: DEMO_HOST, path: "/" };
        }),
      );
    }
    const page = await context.newPage();
    await page.addInitScript(OBSERVER);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LOW_END.latencyMs,
      downloadThroughput: LOW_END.downloadBitsPerSecond / 8,
      uploadThroughput: LOW_END.uploadBitsPerSecond / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: LOW_END.cpuSlowdown });
    const response = await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    if (!response || response.status() !== 200) throw new Error(`${url}: HTTP ${response?.status()}`);
    await page.waitForFunction(HYDRATED, 'input[name="method"]', { timeout: 120_000 });
    await page.waitForLoadState("networkidle", { timeout: 60_000 });

    const amount = page.locator('input[name^="amount-"]').first();
    if (!(await amount.isVisible())) await page.locator("main details summary").first().click();
    await amount.click();
    await amount.press("ControlOrMeta+a");
    await amount.pressSequentially("12.50", { delay: 120 });
    await page.locator('input[name="method"]:not(:checked)').first().click();
    // Event Timing reports an event once its next paint is done: let the last one land.
    await page.waitForTimeout(2_000);
    const entries = await page.evaluate(() => (window as unknown as { __events: EventEntry[] }).__events);
    const interactions = interactionsOf(entries).map((interaction) => ({
      ...interaction,
      duration: round(interaction.duration),
      startTime: round(interaction.startTime),
    }));
    return { inp: inpOf(interactions), interactions };
  } finally {
    await browser.close();
  }
}

export async function measureInp(page: BenchPage, cookies: BenchCookies): Promise<InpResult> {
  const url = `http://${DEMO_HOST}:${BENCH_PORT}${page.path}`;
  const cookie = cookieFor(page, cookies);
  const runs: InpRun[] = [];
  for (let i = 0; i < INP_RUNS; i += 1) runs.push(await interactOnce(url, cookie));
  const measured = runs.map((run) => run.inp).filter((inp): inp is number => inp !== null);
  // A run in which no interaction was reported is a failed measurement, not a fast page.
  if (measured.length < runs.length) throw new Error(`${url}: a run reported no interaction (Event Timing)`);
  return { page: page.name, path: page.path, runs, inp: median(measured) };
}
