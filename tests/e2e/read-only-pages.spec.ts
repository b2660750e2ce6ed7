import { randomUUID } from "node:crypto";
import type { Locator, Page, Response } from "@playwright/test";
import { DEMO_API_KEYS, DEMO_PASSWORD } from "../../db/seed/demo";
import { DEMO_AGREEMENT_TOKEN } from "../../db/seed/agreements";
import { DEMO_TRADE_REFERENCE_TOKEN } from "../../db/seed/credit";
import { DEMO_RESPONSE_TOKENS } from "../../db/seed/responses";
import { DEMO_SCHEDULE_REFERENCE, DEMO_SCHEDULE_TOKEN } from "../../db/seed/schedules";
import { waitForMailVia } from "../support/mailbox";
import { e2eEmail, e2eLinkToken } from "../support/e2e-users";
import { ACME, expect, MAILBOX, signInAs, test, waitForHydration, holdModules, type HostRequest } from "./fixtures";

/**
 * Zero JavaScript where nothing is interactive (issue 19; decisions 049 and 052), with JavaScript on
 * and off in the browser. A read-only page — statement, the invoices list, an invoice, a request's invoice (print) view,
 * receipt, legal pages, a payment link once paid, expired or cancelled — is served with no
 * `<script>` at all, and still works: its links are ordinary document navigations, the shell's
 * sign-out signs out, the server refuses the dead session at its URL, and it prints without the
 * shell. An interactive page keeps its scripts and hydrates; the tabs that have script still
 * hear a sign-out at once, and a zero-JS tab is refused on its next request.
 */
const project = () => test.info().project.name;
const OLIVIA = "olivia@coastal.example";
const linkPayer = () => e2eEmail("linkpayer", project());
const linkAccount = () => `E2E-LINKPAYER-${project()}`.toUpperCase();
const nextYear = String(new Date().getUTCFullYear() + 1);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The one script a page without React may ask for (decision 084): the small shared conveniences. */
const ENHANCE_SCRIPT =
  /^<script src="\/enhance\.js\?v=[0-9a-f]{12}" defer=""( nonce="[^"]+")?( data-session="(in|out)")?><\/script>$/;

/**
 * The page as served carries no client runtime: no module script or preload, no inline script, and
 * no script at all unless it is `enhanced` — then exactly one, the shared `enhance.js` (decision
 * 084) — in the raw body and in the DOM the browser built from it.
 */
async function expectNoScript(page: Page, response: Response | null, { enhanced = false } = {}) {
  expect(response, `no response for ${page.url()}`).not.toBeNull();
  expect(response!.status(), page.url()).toBe(200);
  const body = await response!.text();
  expect(body, `the document of ${page.url()}`).toMatch(/<\/main>/);
  const scripts = body.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? [];
  if (enhanced) {
    expect(scripts, `the scripts of ${page.url()}`).toHaveLength(1);
    expect(scripts[0], `the script of ${page.url()}`).toMatch(ENHANCE_SCRIPT);
  } else {
    expect(body, `the document of ${page.url()} has a script`).not.toMatch(/<script\b/i);
  }
  expect(body, `the document of ${page.url()} preloads a module`).not.toMatch(/rel="modulepreload"/i);
  // The DOM of that same document, once the browser has read all of it.
  await expect(page).toHaveURL(response!.url());
  await page.waitForLoadState("load");
  await expect(page.locator("script")).toHaveCount(enhanced ? 1 : 0);
  await expect(page.locator('script[type="module"]')).toHaveCount(0);
  await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
}

async function openStatic(page: Page, url: string, options: { enhanced?: boolean } = {}) {
  const response = await page.goto(url);
  await expectNoScript(page, response, options);
}

/**
 * An interactive page keeps the client runtime: its scripts are in the document and, with
 * JavaScript on, React hydrates it (the suite's page fixture fails on any hydration warning).
 * Decision 087: the modules wait in a `<template>` (inert: the preload scanner does not read it) and
 * are asked for only after the first paint.
 */
async function expectScriptsAndHydration(page: Page, jsEnabled: boolean) {
  // The scripts come last in the body: wait for the document to be read that far.
  await expect(page.locator("template#page-scripts"), `scripts on ${page.url()}`).toBeAttached();
  // Decision 085: each module is first asked for at low priority (Remix's own preloads of the same
  // files come after and are skipped), and the first paint waits for the footer, which is there.
  const waiting = await page.locator("template#page-scripts").evaluate((template) => {
    const links = [...(template as HTMLTemplateElement).content.querySelectorAll('link[rel="modulepreload"]')];
    const first = new Map<string, string | null>();
    for (const link of links) {
      const href = link.getAttribute("href")!;
      if (!first.has(href)) first.set(href, link.getAttribute("fetchpriority"));
    }
    const messages = (template as HTMLTemplateElement).content.querySelector("link#page-messages");
    return {
      priorities: [...first.values()],
      modules: (template as HTMLTemplateElement).content.querySelectorAll('script[type="module"]').length,
      messages: messages && {
        rel: messages.getAttribute("rel"),
        as: messages.getAttribute("as"),
        href: messages.getAttribute("href"),
        fetchpriority: messages.getAttribute("fetchpriority"),
        crossorigin: messages.getAttribute("crossorigin"),
      },
    };
  });
  expect(waiting.priorities.length, `module preloads on ${page.url()}`).toBeGreaterThan(0);
  expect(new Set(waiting.priorities), `the first preload of each module on ${page.url()}`).toEqual(new Set(["low"]));
  expect(waiting.modules, `Remix's module script on ${page.url()}`).toBe(1);
  const expectLink = page.locator('head link[rel="expect"][blocking="render"]');
  await expect(expectLink).toHaveAttribute("href", "#page-end");
  await expect(page.locator("footer#page-end")).toHaveCount(1);
  // Decision 086: the page's dictionary, JSON at its versioned address, asked for with the modules.
  expect(waiting.messages, `the dictionary's preload on ${page.url()}`).toEqual({
    rel: "preload",
    as: "fetch",
    href: expect.stringMatching(/^\/i18n\/(en-AU|ID)\.json\?v=[0-9a-f]{12}$/),
    fetchpriority: "low",
    crossorigin: "anonymous",
  });
  if (!jsEnabled) {
    // Without JavaScript nothing leaves the template: no module is asked for.
    await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
    await expect(page.locator('script[type="module"]')).toHaveCount(0);
    return;
  }
  await waitForHydration(page);
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const modules = resources.filter((entry) => new URL(entry.name).pathname.startsWith("/build/"));
    return {
      firstPaint: paint ? paint.startTime : null,
      firstModule: Math.min(...modules.map((entry) => entry.startTime)),
      modules: modules.length,
      preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
      preloadHrefs: new Set(
        [...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute("href")),
      ).size,
      // Hydration's own fetch of the dictionary was answered by its preload: one request, not two.
      dictionary: resources
        .filter((entry) => new URL(entry.name).pathname.startsWith("/i18n/"))
        .map((entry) => entry.initiatorType),
    };
  });
  expect(timing.firstPaint, `the first paint of ${page.url()}`).not.toBeNull();
  expect(timing.modules, `modules fetched on ${page.url()}`).toBeGreaterThan(0);
  expect(timing.firstModule, `the first module request on ${page.url()}, after the first paint`).toBeGreaterThanOrEqual(
    timing.firstPaint!,
  );
  expect(timing.preloads, `each module preloaded once on ${page.url()}`).toBe(timing.preloadHrefs);
  expect(timing.dictionary, `the dictionary's requests on ${page.url()}`).toEqual(["link"]);
}

/**
 * Follows a link and proves the browser asked for a new document at `path` (no client-side
 * route change: a zero-JS page has no router), and unless the server sends it elsewhere
 * (`redirected`), landed there.
 */
async function followAsDocument(page: Page, link: Locator, path: string, { redirected = false } = {}) {
  const [navigation] = await Promise.all([
    page.waitForRequest(
      (request) =>
        request.isNavigationRequest() &&
        request.frame() === page.mainFrame() &&
        new URL(request.url()).pathname === path,
    ),
    link.click(),
  ]);
  expect(navigation.resourceType()).toBe("document");
  if (!redirected) await expect(page).toHaveURL(new RegExp(`${escape(path)}(\\?.*)?$`));
  return navigation;
}

/** In print: the page's own content shows, the shell's header, menus, navigation and footer do not. */
async function expectPrintsWithoutShell(page: Page, content: Locator) {
  await page.emulateMedia({ media: "print" });
  try {
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(content).toBeVisible();
    // Every header, footer and nav: the shell's bar, its menus and footer, and a list's pager.
    const shell = page.locator("header, footer, nav, a[href='#main']");
    expect(await shell.count()).toBeGreaterThan(0);
    for (const element of await shell.all()) await expect(element).toBeHidden();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
    await expect(page.getByRole("link", { name: "Privacy policy" })).toBeHidden();
  } finally {
    await page.emulateMedia({ media: "screen" });
  }
  await expect(page.getByRole("contentinfo")).toBeVisible();
}

/** The shell's sign-out (on a wide screen, in the bar), then the page's URL sends the visitor to sign in. */
async function signOutAndExpectRefused(page: Page, url: string) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${ACME}/auth/signin`);
  const path = new URL(url).pathname;
  await page.goto(url);
  await expect(page).toHaveURL(new RegExp(`/auth/signin\\?callbackUrl=${escape(encodeURIComponent(path))}`));
}

async function createRequest(hostRequest: HostRequest, body: Record<string, unknown>) {
  const response = await hostRequest.post(`${ACME}/api/back-office/payment-requests`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data: { account: linkAccount(), recipients: [linkPayer()], send: true, ...body },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { request: { reference: string; id: string } }).request;
}

async function linkFromMail(reference: string, since: number) {
  const mail = await waitForMailVia(MAILBOX, linkPayer(), { since, subject: new RegExp(reference) });
  const link = mail.links.find((l) => l.includes("/customer/payment-request/"));
  expect(link, "the email carries the link").toBeTruthy();
  return link!;
}

async function fillCard(page: Page) {
  await page.getByLabel("Card number").fill("4111 1111 1111 1111");
  await page.getByLabel("Name on card").fill("Pat Payer");
  await page.getByLabel("Month (MM)").fill("12");
  await page.getByLabel("Year (YY or YYYY)").fill(nextYear);
  await page.getByLabel("Security code (CVN)").fill("123");
}

test.describe("read-only pages ship no JavaScript and still work", () => {
  test("pages that only answer, accept or confirm ship no React: emailed links none at all, signed-in pages the shared file", async ({
    page,
  }) => {
    // Signed out: the credit application's start, the trade reference's own page, the heartbeat,
    // the sandbox bank, and emailed links to answer or accept (decision 084). Other journeys may
    // have answered a demo link meanwhile: every state of these pages is script-free.
    for (const path of [
      "/credit",
      "/credit-trade-reference",
      "/heartbeat",
      "/sandbox/payto-bank",
      `/agreements/acceptance/${DEMO_AGREEMENT_TOKEN}`,
      `/credit-trade-reference/${DEMO_TRADE_REFERENCE_TOKEN}`,
      `/response/${DEMO_RESPONSE_TOKENS.dispute}`,
    ]) {
      await openStatic(page, `${ACME}${path}`);
    }
    // A schedule's proposal by link and by its reference, signed in: while it is open (its heading names the
    // schedule) the shared file for the Menu's keys and the session across tabs; once closed (accepted by
    // another journey, say) it only says so, with no script at all.
    const link = await page.goto(`${ACME}/payment-schedule/acceptance/${DEMO_SCHEDULE_TOKEN}`);
    const openByLink = /^Payment schedule PS-/.test(await page.getByRole("heading", { level: 1 }).innerText());
    await expectNoScript(page, link, { enhanced: openByLink });

    await signInAs(page, ACME, OLIVIA, DEMO_PASSWORD);
    const signedIn = await page.goto(`${ACME}/payment-schedule/acceptance/${DEMO_SCHEDULE_REFERENCE}`);
    const open = /^Payment schedule PS-/.test(await page.getByRole("heading", { level: 1 }).innerText());
    await expectNoScript(page, signedIn, { enhanced: open });
    if (open) await expect(page.locator("script")).toHaveAttribute("data-session", "in");
  });

  test("statement, invoices and an invoice: no script, document links and forms, print without the shell, sign-out and the dead session refused", async ({
    page,
    jsEnabled,
  }) => {
    await signInAs(page, ACME, OLIVIA, DEMO_PASSWORD);
    // The landing page (the dashboard) has no React either, only the shared conveniences (decision 084).
    await openStatic(page, `${ACME}/`, { enhanced: true });

    // The statement: read-only, with its filter a plain GET form and its pages plain links.
    await openStatic(page, `${ACME}/statements`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statement");
    const lines = page.getByRole("region", { name: "Statement lines" });
    await expect(lines.getByRole("row").nth(1)).toBeVisible();
    await page.getByLabel("Type").selectOption("payment");
    const [filtered] = await Promise.all([
      page.waitForResponse((response) => response.request().isNavigationRequest()),
      page.getByRole("button", { name: "Show" }).click(),
    ]);
    await expect(page).toHaveURL(/\/statements\?(.*&)?type=payment/);
    await expectNoScript(page, filtered);
    await expectPrintsWithoutShell(page, lines);

    // The statement's links are documents: the shell's "Invoices and payments", read-only too.
    const toInvoices = await followAsDocument(
      page,
      page.getByRole("banner").getByRole("link", { name: "Invoices and payments", exact: true }),
      "/customer/invoices-and-payments/invoices",
    );
    await expectNoScript(page, await toInvoices.response());
    const invoiceList = page.getByRole("region", { name: "Invoices" });
    const invoiceHref = await invoiceList
      .getByRole("link", { name: /-INV-\d{3}$/ })
      .first()
      .getAttribute("href");
    expect(invoiceHref).toMatch(/^\/customer\/invoices-and-payments\/invoice\//);
    const invoiceUrl = `${ACME}${invoiceHref}`;

    // Its "pay selected" form is a plain GET form: the pay page opens as a document, with the
    // chosen invoice, and is interactive (scripts, hydrated).
    const box = invoiceList.getByRole("checkbox", { name: /^Pay invoice / }).first();
    const chosen = (await box.getAttribute("aria-label"))!.replace(/^Pay invoice /, "");
    await box.check();
    await followAsDocument(
      page,
      page.getByRole("button", { name: "Pay selected invoices" }),
      "/customer/invoices-and-payments/pay",
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expect(page.getByRole("main")).toContainText(chosen);
    await expectScriptsAndHydration(page, jsEnabled);

    // One invoice, opened as a document: read-only, printable.
    await openStatic(page, invoiceUrl);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Invoice /);
    await expectPrintsWithoutShell(page, page.getByRole("main"));

    // From the invoice to the privacy policy (a document, and read-only too), and back.
    await followAsDocument(page, page.getByRole("link", { name: "Privacy policy" }), "/privacy-policy");
    await expectNoScript(page, await page.reload());
    await page.goto(invoiceUrl);

    // Sign-out from the zero-JS invoice, then both read-only pages refuse the dead session.
    await signOutAndExpectRefused(page, invoiceUrl);
    await page.goto(`${ACME}/statements`);
    await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=%2Fstatements/);
  });

  test("a reload of an interactive page comes back where it was, before its modules arrive and once hydrated", async ({
    page,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "the position is the page's script's to keep");
    await page.setViewportSize({ width: 360, height: 740 });
    await signInAs(page, ACME, OLIVIA, DEMO_PASSWORD);
    const pay = `${ACME}/customer/invoices-and-payments/pay?all=1`;
    await page.goto(pay);
    await expectScriptsAndHydration(page, jsEnabled);
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(200);
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(200);
    // The reloaded document's modules are held back until its position has been read: the browser's
    // own restoring (the router hands it back on leaving) or the document's inline script (decision
    // 087) puts it there, not the router.
    const release = await holdModules(page);
    await page.reload({ waitUntil: "domcontentloaded" });
    await expect(page.locator("template#page-scripts")).toBeAttached();
    expect(await page.evaluate(() => window.scrollY)).toBe(200);
    release();
    await waitForHydration(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(200);
  });

  test("legal pages, signed out: no script, and their links are documents", async ({ page }) => {
    await openStatic(page, `${ACME}/privacy-policy`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy policy");
    await followAsDocument(page, page.getByRole("link", { name: "Terms and conditions" }), "/terms-and-conditions");
    await expectNoScript(page, await page.reload());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms and conditions");
    await expectPrintsWithoutShell(page, page.getByRole("main"));
  });

  test("a payment link: open it has scripts; its invoice view, the receipt, and paid, expired and cancelled have none", async ({
    page,
    hostRequest,
    jsEnabled,
  }) => {
    // Expired (seeded): says so, with no script; its links are documents.
    await openStatic(page, `${ACME}/customer/payment-request/${e2eLinkToken("expired", project())}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This request has expired");
    await followAsDocument(page, page.getByRole("link", { name: "Terms and conditions" }), "/terms-and-conditions");

    // Cancelled: its invoice (print) view first, while the request is open.
    let since = Date.now();
    const invoice = `${linkAccount()}-INV-021`;
    const cancelled = await createRequest(hostRequest, { invoices: [invoice], description: "Read-only e2e" });
    const cancelledLink = await linkFromMail(cancelled.reference, since);
    await page.goto(cancelledLink);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Acme Plumbing Supplies asks you to pay \$/);
    await expect(page.getByText(`Payment request ${cancelled.reference} · Read-only e2e`)).toBeVisible();
    // The open request is interactive (its pay form): scripts, hydrated.
    await expectScriptsAndHydration(page, jsEnabled);
    const view = page.getByRole("link", { name: `View or print ${invoice}` });
    const viewHref = await view.getAttribute("href");
    await openStatic(page, `${ACME}${viewHref}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${invoice}`);
    await expectPrintsWithoutShell(page, page.getByRole("main"));
    await followAsDocument(
      page,
      page.getByRole("link", { name: `Back to payment request ${cancelled.reference}` }),
      new URL(cancelledLink).pathname,
    );
    const cancelledAnswer = await hostRequest.post(`${ACME}/api/back-office/payment-requests/${cancelled.id}/cancel`, {
      headers: {
        authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      data: {},
    });
    expect(cancelledAnswer.status()).toBe(200);
    await openStatic(page, cancelledLink);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This request was cancelled");

    // Paid: pay a request for an amount, then its receipt and the link are read-only.
    since = Date.now();
    const paid = await createRequest(hostRequest, { amountCents: 2_500, description: "Read-only deposit" });
    const paidLink = await linkFromMail(paid.reference, since);
    await page.goto(paidLink);
    await expectScriptsAndHydration(page, jsEnabled);
    await fillCard(page);
    const guid = page.locator('input[name="requestGuid"]');
    const before = await guid.inputValue();
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(guid).not.toHaveValue(before);
    await fillCard(page);
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    const receiptUrl = page.url();
    // The receipt as the link's payer sees it, loaded as a document.
    await openStatic(page, receiptUrl);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    await expectPrintsWithoutShell(page, page.getByRole("main"));
    await openStatic(page, paidLink);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This request has been paid");
    await followAsDocument(page, page.getByRole("link", { name: "Privacy policy" }), "/privacy-policy");

    // The same receipt signed in, in a browser that did not pay by the link (that one may see its
    // receipt with no session at all): read-only in the shell; its link back is a document.
    await page.context().clearCookies();
    await signInAs(page, ACME, linkPayer(), DEMO_PASSWORD);
    await openStatic(page, receiptUrl);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    const backToInvoices = await followAsDocument(
      page,
      page.getByRole("main").getByRole("link", { name: "Back to invoices" }),
      "/customer/invoices-and-payments/invoices",
    );
    await expectNoScript(page, await backToInvoices.response());
    await openStatic(page, receiptUrl);
    await signOutAndExpectRefused(page, receiptUrl);
  });

  test("sign-out from a zero-JS page: tabs with script hear it at once, a zero-JS tab is refused on its next request", async ({
    context,
    jsEnabled,
  }) => {
    // A tab with React (adding a card) and one with only the shared conveniences (the dashboard, decision 084).
    const dashboard = await context.newPage();
    await signInAs(dashboard, ACME, OLIVIA, DEMO_PASSWORD);
    await openStatic(dashboard, `${ACME}/`, { enhanced: true });
    const addCard = await context.newPage();
    await addCard.goto(`${ACME}/payment-methods/cards/new`);
    await expectScriptsAndHydration(addCard, jsEnabled);
    const invoice = await context.newPage();
    await invoice.goto(`${ACME}/customer/invoices-and-payments/invoices`);
    const href = await invoice
      .getByRole("region", { name: "Invoices" })
      .getByRole("link", { name: /-INV-\d{3}$/ })
      .first()
      .getAttribute("href");
    await openStatic(invoice, `${ACME}${href}`);
    const statement = await context.newPage();
    await openStatic(statement, `${ACME}/statements`);

    // Signed out from the statement (no script on it): the sign-in page it lands on (no React, the
    // shared conveniences) tells the other tabs, and with JavaScript both the React tab and the
    // conveniences' tab hear it.
    await statement.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await expect(statement).toHaveURL(`${ACME}/auth/signin`);
    for (const [tab, path] of [
      [dashboard, "%2F"],
      [addCard, "%2Fpayment-methods%2Fcards%2Fnew"],
    ] as const) {
      if (!jsEnabled) await tab.reload();
      await expect(tab).toHaveURL(new RegExp(`/auth/signin\\?callbackUrl=${path}`));
    }
    // The zero-JS invoice tab cannot hear anything; its next request is refused by the server.
    await expect(invoice.getByRole("heading", { level: 1 })).toHaveText(/^Invoice /);
    await followAsDocument(
      invoice,
      invoice.getByRole("banner").getByRole("link", { name: "Statements", exact: true }),
      "/statements",
      { redirected: true },
    );
    await expect(invoice).toHaveURL(/\/auth\/signin\?callbackUrl=%2Fstatements/);
  });
});
