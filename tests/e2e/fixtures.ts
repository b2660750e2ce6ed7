import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type APIResponse, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { describeFindings, isCustomerPage, scanText } from "../support/text-scan";

export const PORT = Number(process.env.E2E_PORT ?? 4310);
export const ACME = `http://acme.localhost:${PORT}`;
export const KIWI = `http://kiwi.localhost:${PORT}`;
/** Where playwright.config.ts keeps the portal's embedded database and its log (server.log). */
export const E2E_DATA_DIR = `.tmp/e2e-data-${PORT}`;
export const UNKNOWN = `http://nowhere.localhost:${PORT}`;
export const HARBOUR = `http://harbour.localhost:${PORT}`;
/** The SMTP catcher's query API (started by playwright.config.ts). */
export const MAILBOX = `http://127.0.0.1:${Number(process.env.E2E_MAILBOX_PORT ?? PORT + 16)}`;

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** The phone every page must also work on (issue 12): its first screen holds the page's heading. */
export const PHONE = { width: 360, height: 740 };
const HEADING_WITHIN = 200;

/**
 * Fails the test on any WCAG 2.2 A/AA violation axe-core can find on the current page, at the
 * test's own viewport and again on a 360 × 740 phone (once, when the test is on the phone), where the page must also not scroll
 * sideways and its h1 must start within the top 200 px. The phone's view is attached to the
 * test's results as a screenshot.
 *
 * axe runs as a script in the page, which a JavaScript-disabled page cannot do. There,
 * the exact HTML the no-JS browser has is loaded into a scripted page at the same URL
 * (so styles and relative links resolve), with the app's own scripts blocked, and
 * checked: the document under test is still the no-JS one.
 */
export async function expectAccessible(page: Page, options: AxeOptions = {}) {
  const jsOff = test.info().project.use.javaScriptEnabled === false;
  // A click on a link resolves `toHaveURL` when the new document commits, before its body has arrived:
  // without this wait the check (and, without JavaScript, the copied HTML) can be a half-parsed page.
  await page.waitForLoadState("load");
  const url = page.url();
  pagesChecked(page).add(pageKey(url));
  if (!jsOff) {
    const viewport = page.viewportSize();
    // A journey on the phone is checked once, at the phone's size (expectFitsPhone runs axe there).
    if (!isPhone(viewport)) expect(await axeSummary(page, options), `axe violations on ${url}`).toEqual([]);
    await page.setViewportSize(PHONE);
    try {
      await expectFitsPhone(page, url, options);
    } finally {
      if (viewport) await page.setViewportSize(viewport);
    }
    return;
  }
  const html = await page.content();
  const browser = page.context().browser();
  if (!browser) throw new Error("expectAccessible needs a browser");
  const copy = await (await scriptedContext(browser)).newPage();
  try {
    const viewport = page.viewportSize();
    if (viewport) await copy.setViewportSize(viewport);
    await copy.route("**/*", (route) => {
      const request = route.request();
      if (request.url() === url && request.resourceType() === "document") {
        return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      }
      if (request.resourceType() === "script") return route.abort();
      return route.continue();
    });
    await copy.goto(url);
    if (!isPhone(page.viewportSize())) {
      expect(await axeSummary(copy, options), `axe violations on ${url} (JavaScript disabled)`).toEqual([]);
    }
    await copy.setViewportSize(PHONE);
    await expectFitsPhone(copy, `${url} (JavaScript disabled)`, options);
  } finally {
    await copy.close();
  }
}

/**
 * One scripted context per browser (a worker's), where the no-JS copies are checked, each in a page of its
 * own: a fresh context per check cost about a quarter of a no-JS check (issue 29). It holds no cookies the
 * check depends on (the copy's document is the no-JS page's own HTML; only styles and images are fetched).
 */
const scriptedContexts = new WeakMap<Browser, Promise<BrowserContext>>();
function scriptedContext(browser: Browser) {
  let context = scriptedContexts.get(browser);
  if (!context) {
    context = browser.newContext({ javaScriptEnabled: true });
    scriptedContexts.set(browser, context);
  }
  return context;
}

/**
 * Whether the page is already at the phone's size: checking it again there would run axe twice on the same
 * layout (about 1 s each on 2 cores; issue 29).
 */
function isPhone(viewport: { width: number; height: number } | null) {
  return viewport?.width === PHONE.width && viewport.height === PHONE.height;
}

/** At 360 × 740: nothing wider than the screen, the h1 in the first 200 px, no axe finding. */
async function expectFitsPhone(page: Page, label: string, options: AxeOptions) {
  const layout = await page.evaluate(() => {
    const width = window.innerWidth;
    const tooWide = [...document.querySelectorAll("body *")]
      .filter((element) => element.checkVisibility() && element.getBoundingClientRect().right > width + 0.5)
      .map((element) => {
        const name = element.getAttribute("name") ?? element.id;
        return `${element.tagName.toLowerCase()}${name ? `[${name}]` : ""} (right edge ${Math.round(element.getBoundingClientRect().right)} px)`;
      });
    const heading = document.querySelector("main h1") ?? document.querySelector("h1");
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width,
      tooWide: tooWide.slice(-5),
      headingTop: heading ? heading.getBoundingClientRect().top + window.scrollY : null,
    };
  });
  const screenshot = await page.screenshot();
  await test.info().attach(`360px ${label}`, { body: screenshot, contentType: "image/png" });
  expect(
    layout.scrollWidth,
    `${label} scrolls sideways at ${PHONE.width} px; widest: ${layout.tooWide.join(", ")}`,
  ).toBeLessThanOrEqual(layout.width);
  expect(layout.headingTop, `${label} has no h1`).not.toBeNull();
  expect(
    layout.headingTop!,
    `${label}: the h1 starts below the top ${HEADING_WITHIN} px at 360 × 740`,
  ).toBeLessThanOrEqual(HEADING_WITHIN);
  expect(await axeSummary(page, options), `axe violations on ${label} at ${PHONE.width} × ${PHONE.height}`).toEqual([]);
}

/**
 * `skipFrames`: the page's own markup only, not its frames' documents (the branding preview
 * shows real pages, checked by their own journeys; a frame sandboxed without scripts cannot
 * run axe, which would wait for it until the test times out).
 */
type AxeOptions = { skipFrames?: boolean };

async function axeSummary(page: Page, options: AxeOptions = {}) {
  // axe.run in the page itself ("legacy mode"), reporting violations only: the default runs axe in every
  // frame and then again in a blank page it opens to merge the frames' results, three times the cost of
  // this on our pages (~0.25 s against ~0.75 s; issue 29). Frames are still checked: axe reaches
  // same-origin frames from the page, and the branding preview's sandboxed frames are excluded (skipFrames).
  const builder = new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] });
  if (options.skipFrames) builder.exclude("iframe");
  const results = await builder.analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
}

/** A page's path with ids (numbers, UUIDs, references) folded, so one route is one key. */
function pageKey(url: string) {
  const { host, pathname } = new URL(url);
  const path = pathname
    .split("/")
    .map((part) => (/\d/.test(part) ? ":id" : part))
    .join("/");
  return `${host.split(".")[0]}${path}`;
}

const checkedPages = new WeakMap<Page, Set<string>>();
function pagesChecked(page: Page) {
  let set = checkedPages.get(page);
  if (!set) checkedPages.set(page, (set = new Set()));
  return set;
}

/**
 * What the browser may say without failing the journey, per test: `allowConsoleError(page,
 * /pattern/, why)`. Each allowance must be met at least once, so none outlives its reason.
 */
const allowances = new WeakMap<Page, { pattern: RegExp; reason: string; seen: boolean }[]>();
export function allowConsoleError(page: Page, pattern: RegExp, reason: string) {
  if (!reason.trim()) throw new Error("allowConsoleError needs a reason");
  const list = allowances.get(page) ?? [];
  list.push({ pattern, reason, seen: false });
  allowances.set(page, list);
}

/** React's hydration complaints: in development by name, in production as minified errors. */
const HYDRATION = /hydrat|did not match|Minified React error #(418|423|425)/i;

/**
 * A failed HTTP answer the browser reports in the console. The app's own 4xx answers to a
 * document or a data request (a 404 page, a 400 form reply) are journeys the tests assert;
 * a missing script, stylesheet, image or font, or any 5xx, is a fault.
 */
function isExpectedHttpAnswer(text: string, resourceUrl: string) {
  const status = /status of (\d{3})/.exec(text)?.[1];
  if (!status || !status.startsWith("4")) return false;
  const path = resourceUrl ? new URL(resourceUrl).pathname : "";
  return !/\.(js|css|svg|png|jpe?g|webp|ico|woff2?)$/i.test(path) && !path.startsWith("/build/");
}

/**
 * HTTP calls to a demo host from the test runner. Chromium maps *.localhost to loopback,
 * but Node's resolver does not, so the call goes to 127.0.0.1 with the host's name in
 * the Host header, exactly what a browser sends.
 */
export function hostCall(absoluteUrl: string, headers: Record<string, string> = {}) {
  const url = new URL(absoluteUrl);
  return {
    url: `${url.protocol}//127.0.0.1:${url.port}${url.pathname}${url.search}`,
    headers: { host: url.host, ...headers },
  };
}

export type HostRequest = {
  get(url: string, options?: { headers?: Record<string, string> }): Promise<APIResponse>;
  post(
    url: string,
    options?: { headers?: Record<string, string>; form?: Record<string, string>; data?: unknown },
  ): Promise<APIResponse>;
  fetch(
    url: string,
    options: { method: string; headers?: Record<string, string>; data?: unknown },
  ): Promise<APIResponse>;
};

export const test = base.extend<{ jsEnabled: boolean; hostRequest: HostRequest }>({
  /**
   * The page of every journey: it fails on what a person would not see but a browser reports: an uncaught
   * error in the page, a console error, or a React hydration warning (the server's HTML and
   * the browser's render disagreed), or a slip in the words it shows (issue 32). Also notes, as an annotation, the pages the test visited
   * but never checked with `expectAccessible` (and so never at 360 px).
   */
  page: async ({ page }, use, testInfo) => {
    const problems: string[] = [];
    const visited = new Set<string>();
    const report = (problem: string) => {
      const allowance = allowances.get(page)?.find((a) => a.pattern.test(problem));
      if (allowance) allowance.seen = true;
      else problems.push(problem);
    };
    page.on("pageerror", (error) => report(`uncaught ${error.name}: ${error.message} (${page.url()})`));
    page.on("console", (message) => {
      const text = message.text();
      const type = message.type();
      if (type === "error") {
        if (/^Failed to load resource/.test(text) && isExpectedHttpAnswer(text, message.location().url)) return;
        report(`console error: ${text} (${message.location().url || page.url()})`);
      } else if (HYDRATION.test(text)) {
        report(`console ${type}: ${text} (${page.url()})`);
      }
    });
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame() && /^https?:/.test(frame.url())) visited.add(pageKey(frame.url()));
    });
    // The words check (issue 32): the visible text of each document the journey loads, and of the
    // page it ends on (a client-side navigation loads no document), read once and scanned.
    const words = new Set<string>();
    const scans: Promise<void>[] = [];
    const scanWords = async () => {
      const url = page.url();
      if (!/^https?:/.test(url) || new URL(url).port !== String(PORT)) return;
      const text = await page
        .mainFrame()
        .evaluate(() => document.body?.innerText ?? "")
        .catch(() => null); // navigated away meanwhile: the next page is scanned on its own load
      if (text === null) return;
      const findings = scanText(text, { customerPage: isCustomerPage(url) });
      for (const finding of describeFindings(pageKey(url), findings)) words.add(finding);
    };
    page.on("load", () => scans.push(scanWords()));
    await use(page);
    if (!page.isClosed()) scans.push(scanWords());
    await Promise.all(scans);
    const unchecked = [...visited].filter((key) => !pagesChecked(page).has(key));
    if (unchecked.length > 0) {
      testInfo.annotations.push({ type: "not checked at 360 px", description: unchecked.join(" ") });
    }
    const unmet = (allowances.get(page) ?? []).filter((a) => !a.seen).map((a) => `${a.pattern} (${a.reason})`);
    expect(problems, "the browser reported problems").toEqual([]);
    expect([...words], "words a person would notice (issue 32; tests/support/text-scan.ts)").toEqual([]);
    expect(unmet, "allowed console errors that never happened").toEqual([]);
  },

  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  hostRequest: async ({ request }, use) => {
    await use({
      get: (url, options = {}) => {
        const call = hostCall(url, options.headers);
        return request.get(call.url, { headers: call.headers, maxRedirects: 0 });
      },
      post: (url, options = {}) => {
        const call = hostCall(url, options.headers);
        return request.post(call.url, {
          headers: call.headers,
          form: options.form,
          data: options.data,
          maxRedirects: 0,
        });
      },
      fetch: (url, options) => {
        const call = hostCall(url, options.headers);
        return request.fetch(call.url, {
          method: options.method,
          headers: call.headers,
          data: options.data,
          maxRedirects: 0,
        });
      },
    });
  },
});

export { expect };

/** Waits for React's first commit on the document (hydration, or the client render replacing it). */
/**
 * A page's scripts are running: React has hydrated it, or, on a page without React, the shared
 * conveniences (`public/enhance.js`, decision 084) are listening.
 */
export async function waitForPageScripts(page: Page) {
  await page.waitForFunction(() => {
    if (document.documentElement.hasAttribute("data-enhanced")) return true;
    const key = Object.keys(document).find((name) => name.startsWith("__reactContainer$"));
    const container = key
      ? (document as unknown as Record<string, { stateNode?: { current?: { child: unknown } } }>)[key]
      : null;
    return Boolean(container?.stateNode?.current?.child);
  });
}

/**
 * Holds back every request for the page's modules until the returned function is called: the page
 * stays the HTML form it is before its script has run (a slow phone's first seconds; decision 087).
 * A document opened meanwhile never reaches its load event once its modules are asked for (after its
 * first paint): open it with `waitUntil: "domcontentloaded"`, never the default "load".
 */
export async function holdModules(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/build/**", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((name) => name.startsWith("__reactContainer$"));
    const container = key
      ? (document as unknown as Record<string, { stateNode?: { current?: { child: unknown } } }>)[key]
      : null;
    return Boolean(container?.stateNode?.current?.child);
  });
}

/**
 * Signs in and waits for the landing page: the dashboard, or for a contact without
 * accessCustomerPortal their own home (decision 033).
 *
 * The sign-in form's own post, sent from the page's context (its cookies are the browser's), then the page
 * opens where the portal sends it: a journey that is not about signing in skips loading and filling the
 * sign-in page (about a second, JS on, a second and a half with its checks; issue 29). The sign-in page
 * itself is driven by a person's steps in auth.spec.ts, auth0.spec.ts and the brand journeys.
 */
export async function signInAs(page: Page, origin: string, email: string, password: string) {
  // Node cannot resolve *.localhost (Chromium maps it): the post goes to 127.0.0.1 with the host's name, and
  // the session cookie it sets is handed to the browser for that host.
  const call = hostCall(`${origin}/auth/signin`, { origin });
  const response = await page.request.post(call.url, {
    headers: call.headers,
    form: { email, password, callbackUrl: "/" },
    maxRedirects: 0,
  });
  expect(response.status(), `signing in as ${email} on ${origin}`).toBe(302);
  const { hostname } = new URL(origin);
  const cookies = response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => {
      const [pair = "", ...attributes] = header.value.split(";").map((part) => part.trim());
      const at = pair.indexOf("=");
      const flags = attributes.map((attribute) => attribute.toLowerCase());
      const sameSite = flags.find((flag) => flag.startsWith("samesite="))?.slice("samesite=".length);
      return {
        name: pair.slice(0, at),
        value: pair.slice(at + 1),
        domain: hostname,
        path: "/",
        httpOnly: flags.includes("httponly"),
        sameSite:
          sameSite === "strict" ? ("Strict" as const) : sameSite === "none" ? ("None" as const) : ("Lax" as const),
      };
    });
  expect(cookies.length, `the session cookie for ${email}`).toBeGreaterThan(0);
  await page.context().addCookies(cookies);
  await page.goto(new URL(response.headers().location ?? "/", origin).href);
  await expect(page).toHaveURL(new RegExp(`^${origin.replace(/[.]/g, "\\.")}/(payment/payment-request/all)?$`));
}

/**
 * Follows a section link of the shell the way a person would at the current width: on a
 * wide screen from the bar, on a phone through the Menu (a native disclosure).
 */
export async function openSection(page: Page, name: string) {
  // The whole document first: a page that has just committed may not have parsed its header yet, and
  // isVisible() does not wait (a Menu not yet there would be skipped, not clicked).
  await page.waitForLoadState("domcontentloaded");
  const banner = page.getByRole("banner");
  const menuButton = banner.getByText("Menu", { exact: true });
  if (await menuButton.isVisible()) await menuButton.click();
  await banner.getByRole("navigation", { name: "Account menu" }).getByRole("link", { name, exact: true }).click();
}
