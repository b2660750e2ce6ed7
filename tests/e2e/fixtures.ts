import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type APIResponse, type Page } from "@playwright/test";

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

/**
 * Fails the test on any WCAG 2.2 A/AA violation axe-core can find on the current page.
 *
 * axe runs as a script in the page, which a JavaScript-disabled page cannot do. There,
 * the exact HTML the no-JS browser has is loaded into a scripted page at the same URL
 * (so styles and relative links resolve), with the app's own scripts blocked, and
 * checked: the document under test is still the no-JS one.
 */
export async function expectAccessible(page: Page) {
  const jsOff = test.info().project.use.javaScriptEnabled === false;
  if (!jsOff) {
    expect(await axeSummary(page), `axe violations on ${page.url()}`).toEqual([]);
    return;
  }
  const html = await page.content();
  const url = page.url();
  const browser = page.context().browser();
  if (!browser) throw new Error("expectAccessible needs a browser");
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const copy = await context.newPage();
    await copy.route("**/*", (route) => {
      const request = route.request();
      if (request.url() === url && request.resourceType() === "document") {
        return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      }
      if (request.resourceType() === "script") return route.abort();
      return route.continue();
    });
    await copy.goto(url);
    expect(await axeSummary(copy), `axe violations on ${url} (JavaScript disabled)`).toEqual([]);
  } finally {
    await context.close();
  }
}

async function axeSummary(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
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

/** Signs in with the demo password and waits for the dashboard. */
export async function signInAs(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${origin}/`);
}
