import { chromium, type Page } from "@playwright/test";
import { BENCH_PORT, DEMO_HOST, JOURNEY, LOW_END, MOBILE, benchLinkToken } from "./config";
import { median, round } from "./lib/stats";

/**
 * The emailed request's journey on the low-end phone (issue 31): open the request's link, type a
 * new card, tap Pay, confirm if asked, until the receipt shows. Each tap comes the moment its
 * button is visible, before the page has hydrated if it has not yet: how a payer on a cheap phone
 * behaves, and why the page's HTML (decision 071's confirm step) is its main path. Timed from the
 * document's first byte to the receipt's heading, the typing left out; every POST answered 4xx or 5xx is counted as a
 * refused tap (budget: none). Throttling is applied through DevTools (400 ms, 400 kbps, CPU 6×),
 * JavaScript on. One request per run (bench/seed.ts makes them, `benchLinkToken("journey", i)`):
 * paying one closes it.
 */
export type JourneyRun = {
  /**
   * From the first byte of the request page to the receipt's heading on screen, the payer's typing
   * left out: the page's time to the Pay button, then each tap's time to the next button or the receipt.
   */
  receiptMs: number;
  /** POSTs answered with a status of 400 or more: a tap the portal refused. */
  refused: number;
  /** The taps it took (Pay, and Confirm when the confirm step came). */
  taps: number;
  /** Whether the first tap came before React had hydrated the page. */
  beforeHydration: boolean;
  /** When each tap came on that clock (ms): Pay, then Confirm if asked. */
  tapsAtMs: number[];
};
export type JourneyResult = { journey: string; runs: JourneyRun[]; receiptMs: number; refused: number };

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const nextYear = String(new Date().getUTCFullYear() + 1);

/** React has hydrated the form once it has put its props on the Pay button. */
const hydrated = (page: Page) =>
  page.evaluate(() => {
    const button = document.querySelector('button[name="intent"][value="pay"]');
    return Boolean(button && Object.keys(button).some((key) => key.startsWith("__reactProps$")));
  });

async function journeyOnce(url: string): Promise<JourneyRun> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP *.localhost 127.0.0.1"],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: MOBILE.deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LOW_END.latencyMs,
      downloadThroughput: LOW_END.downloadBitsPerSecond / 8,
      uploadThroughput: LOW_END.uploadBitsPerSecond / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: LOW_END.cpuSlowdown });
    let refused = 0;
    page.on("response", (response) => {
      if (response.request().method() === "POST" && response.status() >= 400) refused += 1;
    });
    // "commit": the document's first bytes have arrived; the clock starts there.
    const response = await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
    if (!response || response.status() !== 200) throw new Error(`${url}: HTTP ${response?.status()}`);
    let clock = performance.now();
    const pay = page.getByRole("button", { name: /^Pay \$/ });
    await pay.waitFor({ timeout: 60_000 });
    // The page's part: from the first byte to the Pay button on screen.
    let pageMs = performance.now() - clock;
    const beforeHydration = !(await hydrated(page));
    // The payer's typing is theirs, not the page's: the fields are filled in one step, off the
    // clock, and each tap is the button's own click in the page (a robot's actionability checks
    // under a 6× slower CPU cost seconds a finger does not).
    // No named function inside: tsx would wrap it in a helper the page does not have.
    await page.evaluate(
      (values) => {
        for (const [name, value] of values) {
          const input = document.querySelector<HTMLInputElement>(`input[name="${name}"]`);
          if (!input) throw new Error(`no field ${name}`);
          input.value = value;
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      },
      [
        ["cardNumber", "4111 1111 1111 1111"],
        ["cardHolderName", "Bench Payer"],
        ["expiryMonth", "12"],
        ["expiryYear", nextYear],
        ["cvn", "123"],
      ] as [string, string][],
    );
    const tap = async (button: typeof pay) => {
      clock = performance.now();
      await button.evaluate((element) => (element as HTMLButtonElement).click());
    };
    const tapsAtMs = [round(pageMs)];
    await tap(pay);
    let taps = 1;
    const receipt = page.getByRole("heading", { level: 1, name: "Payment received" });
    const confirm = page.getByRole("button", { name: /^Confirm and pay \$/ });
    await receipt.or(confirm).first().waitFor({ timeout: 60_000 });
    if (await confirm.isVisible()) {
      pageMs += performance.now() - clock;
      tapsAtMs.push(round(pageMs));
      await tap(confirm);
      taps += 1;
      await receipt.waitFor({ timeout: 60_000 });
    }
    pageMs += performance.now() - clock;
    return { receiptMs: round(pageMs), refused, taps, beforeHydration, tapsAtMs };
  } finally {
    await browser.close();
  }
}

/** `JOURNEY.runs` journeys, each on a request of its own; the median time and every refusal kept. */
export async function measureJourney(): Promise<JourneyResult> {
  const runs: JourneyRun[] = [];
  for (let i = 0; i < JOURNEY.runs; i += 1) {
    const url = `http://${DEMO_HOST}:${BENCH_PORT}/customer/payment-request/${benchLinkToken("journey", i)}`;
    runs.push(await journeyOnce(url));
  }
  return {
    journey: "request-link-new-card",
    runs,
    receiptMs: median(runs.map((run) => run.receiptMs)),
    refused: runs.reduce((sum, run) => sum + run.refused, 0),
  };
}
