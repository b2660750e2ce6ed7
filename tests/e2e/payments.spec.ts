import type { Page, Route } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { keepFirstPage } from "../support/pdf-pictures";
import { waitForMailVia } from "../support/mailbox";
import { e2eEmail } from "../support/e2e-users";
import {
  ACME,
  expect,
  expectAccessible,
  hostCall,
  MAILBOX,
  openSection,
  signInAs,
  test,
  waitForHydration,
  holdModules,
} from "./fixtures";

/**
 * Invoices and paying them (issue 3), with JavaScript and without. The payer has an
 * account of its own with invoices in every status (tests/support/e2e-seed.ts); Acme's fee
 * rules are the demo seed's (Visa 1.2% surcharge, 2% + $5.00 late fee, 1% early discount).
 */
const payer = () => e2eEmail("payer", test.info().project.name);
const nextYear = String(new Date().getUTCFullYear() + 1);

async function openInvoices(page: Page) {
  await signInAs(page, ACME, payer(), DEMO_PASSWORD);
  await openSection(page, "Invoices and payments");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoices and payments");
}

async function openPayPage(page: Page, invoices = 1) {
  const boxes = page.getByRole("checkbox", { name: /^Pay invoice / });
  for (let i = 0; i < invoices; i++) await boxes.nth(i).check();
  await page.getByRole("button", { name: "Pay selected invoices" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
}

/**
 * "Update total" and wait for its answer, a new form (new requestGuid). With JavaScript the
 * live total may already show what is expected, so waiting for that alone would let the
 * next step type into a form that the answer then replaces.
 */
async function updateTotal(page: Page) {
  const guid = page.locator('input[name="requestGuid"]');
  const before = await guid.inputValue();
  await page.getByRole("button", { name: "Update total" }).click();
  await expect(guid).not.toHaveValue(before);
}

/** Several invoices' amounts are folded under one line ("Amounts for 3 invoices: …"): open it. */
async function showAmounts(page: Page) {
  const amounts = page.locator("details", { has: page.locator('input[name^="amount-"]') });
  if (!(await amounts.evaluate((details) => (details as HTMLDetailsElement).open))) {
    await amounts.locator("summary").click();
  }
  await expect(page.getByRole("textbox", { name: /^Amount for / }).first()).toBeVisible();
}

/** The pay page's breakdown: the server's figures, by their labels. */
function breakdownOf(page: Page) {
  const section = page.locator("section[aria-labelledby=breakdown-title]");
  return {
    section,
    subtotal: section.locator('dt:text-is("Invoices") + dd'),
    total: section.locator('dt:text-is("Total") + dd'),
  };
}

async function fillNewCard(page: Page, number: string) {
  await page.getByLabel("A new card").check();
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Name on card").fill("Pat Payer");
  await page.getByLabel("Month (MM)").fill("12");
  await page.getByLabel("Year (YY or YYYY)").fill(nextYear);
  await page.getByLabel("Security code (CVN)").fill("123");
}

test.describe("invoices and payments", () => {
  // One payer account per project: its journeys take turns, so two never pick the same invoice.
  test.describe.configure({ mode: "default" });

  test("pay three invoices, one in part: bad amounts, late fees, a decline, the surcharge, then a receipt and its email", async ({
    page,
  }) => {
    // A long journey (about 20 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    await openInvoices(page);
    const invoices = page.getByRole("region", { name: "Invoices" });
    await expect(invoices).toContainText("Overdue");
    await expect(invoices).toContainText("Broken Promise");
    await expectAccessible(page);

    const boxes = page.getByRole("checkbox", { name: /^Pay invoice / });
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await boxes.nth(2).check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expectAccessible(page);
    await expect(page.getByText("3 invoices · Total to pay")).toBeVisible();
    await showAmounts(page);
    const amounts = page.getByRole("textbox", { name: /^Amount for / });
    await expect(amounts).toHaveCount(3);
    // The invoices are overdue: Acme's late fee is in the breakdown before anything is paid.
    await expect(page.locator("section[aria-labelledby=breakdown-title]")).toContainText("Late fees");

    // Amounts that are not exact, negative, zero or above the balance: explained, nothing charged.
    // Each case's message differs from the one before, so each expectation waits for its own answer.
    for (const [typed, message] of [
      ["10.005", /at most two decimal places/],
      ["1e3", /amount like 125.50/],
      ["99999999", /no more than the balance/],
      ["-1", /isn't negative/],
      ["1,000,000.50", /no more than the balance/],
      ["0", /above zero/],
      ["", /amount like 125.50/],
    ] as const) {
      await amounts.nth(1).fill(typed);
      await updateTotal(page);
      await expect(page.getByRole("textbox", { name: /^Amount for / }).nth(1)).toHaveAccessibleDescription(message);
    }
    await page
      .getByRole("textbox", { name: /^Amount for / })
      .nth(1)
      .fill("10.50");

    // A declined card: the message, with the amounts kept and the card number not.
    await fillNewCard(page, "4000 0000 0000 0002");
    await updateTotal(page);
    await expect(page.getByText("Card surcharge")).toBeVisible();
    await fillNewCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("alert")).toContainText("Your card was declined. Nothing was charged.");
    await expect(page.getByRole("textbox", { name: /^Amount for / }).nth(1)).toHaveValue("10.50");
    await expect(page.getByLabel("Card number")).toHaveValue("");

    // Another card: the total (with its surcharge) is shown, then charged.
    await fillNewCard(page, "4111 1111 1111 1111");
    const since = Date.now();
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    const receipt = page.getByRole("main");
    await expect(receipt).toContainText("Card surcharge");
    await expect(receipt).toContainText("Visa •••• 1111");
    await expect(page.getByRole("list", { name: "Invoices" }).getByRole("listitem")).toHaveCount(3);
    await expectAccessible(page);
    const reference = page.url().split("/").pop()!;
    const mail = await waitForMailVia(MAILBOX, payer(), { since, subject: new RegExp(reference) });
    expect(mail.text).toContain("Total charged:");
    expect(mail.text).not.toContain("4111 1111");
    // The receipt to file (issue 34): the email carries its PDF, and the page downloads the same file.
    expect(mail.attachments.map((file) => [file.filename, file.contentType])).toEqual([
      [`Acme-Plumbing-Supplies-Receipt-${reference}.pdf`, "application/pdf"],
    ]);
    expect(Buffer.from(mail.attachments[0]!.base64, "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download PDF" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`Acme-Plumbing-Supplies-Receipt-${reference}.pdf`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    const saved = test.info().outputPath(file.suggestedFilename());
    await file.saveAs(saved);
    await keepFirstPage(test.info(), saved, "acme-receipt");
    // The link is built from the host's configured base URL (decision 024), not always http.
    expect(mail.links.some((link) => link.startsWith(`${ACME}/customer/receipt/`))).toBe(true);

    // The payment is listed with what it paid; the receipt belongs to this account only.
    await page.getByRole("link", { name: "Back to invoices" }).click();
    await expect(page.getByRole("list", { name: "Recent payments" })).toContainText(reference);
    const other = await page
      .context()
      .browser()!
      .newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    try {
      const otherPage = await other.newPage();
      await signInAs(otherPage, ACME, e2eEmail("other", test.info().project.name), DEMO_PASSWORD);
      const response = await otherPage.goto(`${ACME}/payment/complete/${reference}`);
      expect(response?.status()).toBe(404);
    } finally {
      await other.close();
    }
  });

  test("a reloaded payment POST charges once; a promise to pay moves the invoice to Promise", async ({
    page,
    jsEnabled,
  }) => {
    await openInvoices(page);
    await page
      .getByRole("checkbox", { name: /^Pay invoice / })
      .first()
      .check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    await fillNewCard(page, "5555 5555 5555 4444");
    await updateTotal(page);
    await expect(page.getByText("Card surcharge")).toBeVisible();
    await fillNewCard(page, "5555 5555 5555 4444");
    // Submit the same form twice, as a double click or a reload of the POST would.
    const form = page.locator("form", { has: page.getByRole("button", { name: /^Pay \$/ }) });
    const body = await form
      .evaluate((element) => {
        const data = new FormData(element as HTMLFormElement);
        data.set("intent", "pay");
        return new URLSearchParams(data as unknown as Record<string, string>).toString();
      })
      .catch(() => null);
    if (body && jsEnabled) {
      // Two identical POSTs at once, with this browser's session, straight to the server.
      const cookie = (await page.context().cookies(ACME)).map((c) => `${c.name}=${c.value}`).join("; ");
      const call = hostCall(page.url(), { "content-type": "application/x-www-form-urlencoded", origin: ACME, cookie });
      const form = Object.fromEntries(new URLSearchParams(body));
      // A total the payer never saw charges nothing: the card is held and the real total is to be
      // confirmed (decision 071).
      const tampered = await page.request.post(call.url, {
        headers: call.headers,
        form: { ...form, expectedAmount: "1" },
        maxRedirects: 0,
      });
      expect(tampered.status()).toBe(200);
      expect(await tampered.text()).toContain("Check and confirm");
      const post = () => page.request.post(call.url, { headers: call.headers, form, maxRedirects: 0 });
      const [first, second] = await Promise.all([post(), post()]);
      expect(first.status()).toBe(302);
      expect(second.status()).toBe(302);
      expect(first.headers().location).toBe(second.headers().location);
    } else {
      await page.getByRole("button", { name: /^Pay \$/ }).click();
      await expect(page).toHaveURL(/\/payment\/complete\//);
      // Reloading the receipt is a GET: nothing is charged again.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    }

    await page.goto(`${ACME}/customer/invoices-and-payments/invoices`);
    await page
      .getByRole("checkbox", { name: /^Pay invoice / })
      .first()
      .check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    await page.getByLabel("I promise to pay on a date instead").check();
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Promise date (only for a promise to pay)").fill(date);
    await updateTotal(page);
    await page.getByRole("button", { name: "Promise to pay" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Promise to pay recorded");
    await expectAccessible(page);
  });

  test("a session that ends in the middle of paying: sign in again, back on the pay page, nothing charged", async ({
    page,
  }) => {
    await openInvoices(page);
    await page
      .getByRole("checkbox", { name: /^Pay invoice / })
      .first()
      .check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    const payUrl = page.url();
    await fillNewCard(page, "4111 1111 1111 1111");
    await page.context().clearCookies();
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?/);
    await page.getByLabel("Email").fill(payer());
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(payUrl);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expect(page.getByRole("textbox", { name: /^Amount for / })).toHaveCount(1);
    await expect(page.getByLabel("Card number")).toHaveValue("");
  });

  test("an invoice paid well before it is due earns the early-payment discount; part of it does not", async ({
    page,
  }) => {
    await openInvoices(page);
    await page.getByLabel("Sort").selectOption("due-desc");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/sort=due-desc/);
    await page
      .getByRole("checkbox", { name: /^Pay invoice / })
      .first()
      .check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    const breakdown = page.locator("section[aria-labelledby=breakdown-title]");
    await expect(breakdown).toContainText("Early-payment discount");
    await expect(breakdown).not.toContainText("Late fees");
    await page.getByRole("textbox", { name: /^Amount for / }).fill("1.00");
    await updateTotal(page);
    await expect(breakdown).not.toContainText("Early-payment discount");
    await expectAccessible(page);
  });

  test("only the chosen method's fields show, and at 360 px nothing runs sideways or overlaps", async ({
    page,
    jsEnabled,
  }) => {
    await openInvoices(page);
    // At 360 px the shell's links are behind its Menu button: the invoices page is opened first.
    await page.setViewportSize({ width: 360, height: 800 });
    await openPayPage(page);
    const cardFields = [
      page.getByLabel("Card number"),
      page.getByLabel("Month (MM)"),
      page.getByLabel("Security code (CVN)"),
    ];
    const promiseDate = page.getByLabel("Promise date (only for a promise to pay)");

    await page.getByLabel("A new card").check();
    for (const field of cardFields) await expect(field).toBeVisible();
    await expect(promiseDate).toBeHidden();
    // Month and year side by side, on one line, the month ending before the year begins.
    const month = (await page.getByLabel("Month (MM)").boundingBox())!;
    const year = (await page.getByLabel("Year (YY or YYYY)").boundingBox())!;
    expect(month.x + month.width).toBeLessThanOrEqual(year.x);
    expect(Math.abs(month.y - year.y)).toBeLessThan(1);
    expect(year.x + year.width).toBeLessThanOrEqual(360);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0], "the pay page scrolls sideways at 360 px").toBeLessThanOrEqual(widths[1]!);

    await page.getByLabel("I promise to pay on a date instead").check();
    await expect(promiseDate).toBeVisible();
    for (const field of cardFields) await expect(field).toBeHidden();
    await page.getByLabel("A new card").check();
    await expect(promiseDate).toBeHidden();
    await expect(page.getByLabel("Card number")).toBeVisible();

    // The total follows a changed amount: by itself with JavaScript, with "Update total" without.
    const breakdown = breakdownOf(page);
    await page.getByRole("textbox", { name: /^Amount for / }).fill("1.00");
    if (!jsEnabled) {
      await expect(breakdown.subtotal).not.toHaveText("$1.00");
      await updateTotal(page);
    }
    await expect(breakdown.subtotal).toHaveText("$1.00");
    await expectAccessible(page);
  });

  test("an amount typed and a card chosen before the page's scripts have run: once they have, the total follows them", async ({
    page,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "without JavaScript the total follows on Update total (the test above)");
    await openInvoices(page);
    // The pay page's modules are held back: what the payer does meanwhile is the HTML form's alone.
    const release = await holdModules(page);
    await openPayPage(page);
    const breakdown = breakdownOf(page);
    await expect(breakdown.subtotal).not.toHaveText("$1.00");
    await page.getByLabel("A new card").check();
    await page.getByRole("textbox", { name: /^Amount for / }).fill("1.00");
    await expect(breakdown.subtotal).not.toHaveText("$1.00");
    release();
    await waitForHydration(page);
    // No key press or tap after hydration: the form adopts what its fields hold.
    await expect(breakdown.subtotal).toHaveText("$1.00");
    // And Pay says that total: the payer pays what they see.
    const total = (await breakdown.total.innerText()).trim();
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toHaveAccessibleName(new RegExp(`^Pay \\${total}`));
  });

  test("on a 360 × 740 phone the total and Pay are in the first screen, and a field focused by Tab is never under the bar", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    // olivia@coastal.example (demo seed) has several invoices owing: "pay everything owing".
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    await page.goto(`${ACME}/customer/invoices-and-payments/pay?all=1`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    const lead = page.getByText(/^\d+ invoices · Total to pay /);
    const pay = page.getByRole("button", { name: /^Pay \$/ });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    for (const [what, locator] of [
      ["the total", lead.locator("strong")],
      ["the Pay button", pay],
    ] as const) {
      const box = (await locator.boundingBox())!;
      expect(box.y, `${what} starts above the first screen`).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height, `${what} is below the first screen`).toBeLessThanOrEqual(740);
      expect(box.x + box.width, `${what} runs off the side`).toBeLessThanOrEqual(360);
    }
    // The total at the top is the one the button charges, and the one in the breakdown.
    const total = (await lead.locator("strong").textContent())!;
    await expect(pay).toHaveText(`Pay ${total}`);
    await expect(breakdownOf(page).total).toHaveText(total);

    // Tab to an amount that sits behind the sticky bar: the browser brings it up above the bar.
    await showAmounts(page);
    const amounts = page.getByRole("textbox", { name: /^Amount for / });
    const count = await amounts.count();
    expect(count).toBeGreaterThan(1);
    await amounts.first().focus();
    for (let i = 1; i < count - 1; i++) await page.keyboard.press("Tab");
    await expect(amounts.nth(count - 2)).toBeFocused();
    // The last amount scrolled to the foot of the screen, behind the bar: inside the viewport, so
    // without scroll-padding the browser would see nothing to scroll when Tab reaches it.
    const behind = (await amounts.last().boundingBox())!;
    await page.evaluate((by) => window.scrollBy(0, by), behind.y + behind.height - 735);
    await page.keyboard.press("Tab");
    await expect(amounts.last()).toBeFocused();
    const field = (await amounts.last().boundingBox())!;
    const bar = (await pay.locator("xpath=..").boundingBox())!;
    expect(bar.y + bar.height, "the bar is not at the foot of the screen").toBeLessThanOrEqual(740);
    expect(field.y).toBeGreaterThanOrEqual(0);
    expect(field.y + field.height, "the focused amount is under the sticky bar").toBeLessThanOrEqual(bar.y);
    await expectAccessible(page);
  });

  test("with JavaScript the total follows the form by itself, the latest answer wins, and Pay charges the total shown", async ({
    page,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "live totals need JavaScript; without it 'Update total' does this (the tests above)");
    await openInvoices(page);
    await openPayPage(page);
    // When the invoices page was not hydrated yet, its form loaded the pay page as a new document: typing before
    // React has attached the form's handlers is the no-JS path, which quotes nothing (a busy machine showed it).
    await waitForHydration(page);
    const breakdown = breakdownOf(page);
    const amount = page.getByRole("textbox", { name: /^Amount for / });
    const guid = page.locator('input[name="requestGuid"]');
    const rendered = await guid.inputValue();
    // Single fetch reloads route data with GET ….data; a quote must not reload this page's
    // (a new requestGuid would replace the form the customer is typing in).
    const reloads: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (request.method() === "GET" && url.pathname.endsWith("/pay.data")) reloads.push(url.search);
    });

    // Hold the first quote in the network, so that a second change overtakes it.
    let release: (route: Route) => void;
    const held = new Promise<Route>((resolve) => (release = resolve));
    let holding = true;
    await page.route(/\/customer\/invoices-and-payments\/pay/, async (route) => {
      const request = route.request();
      if (holding && request.method() === "POST" && (request.postData() ?? "").includes("intent=quote")) {
        holding = false;
        release(route);
        return;
      }
      await route.continue();
    });
    await amount.fill("1.00");
    const first = await held;
    expect(first.request().postData()).toContain("1.00");
    const firstFailed = page.waitForEvent("requestfailed", (request) => request === first.request());
    await amount.fill("2.00");
    await expect(breakdown.subtotal).toHaveText("$2.00");
    // The overtaken quote was abandoned by the page: its answer can never land.
    await firstFailed;
    await first.continue().catch(() => undefined);
    await expect(breakdown.subtotal).toHaveText("$2.00");
    // A quick run of changes: one total, for the last of them.
    for (const typed of ["2", "25", "2.5", "2.50"]) await amount.fill(typed);
    await expect(breakdown.subtotal).toHaveText("$2.50");
    await expect(amount).toHaveValue("2.50");
    await expect(guid).toHaveValue(rendered);
    const live = await breakdown.total.textContent();
    // `_routes` names route ids; the pay page's is routes/_link+/customer.invoices-and-payments+/pay (decision 064).
    for (const search of reloads) {
      expect(
        new URLSearchParams(search).get("_routes") ?? "every route",
        "a quote reloaded the pay page's data",
      ).not.toMatch(/customer\.invoices-and-payments\+\/pay|every route/);
    }
    // The live total is the server's: a full "Update total" round trip (a new form) shows the same.
    await updateTotal(page);
    await expect(breakdown.subtotal).toHaveText("$2.50");
    await expect(breakdown.total).toHaveText(live!);

    // A card brand with a surcharge: the total follows the card number too.
    await fillNewCard(page, "4111 1111 1111 1111");
    await expect(page.getByText("Card surcharge")).toBeVisible();
    const pay = page.getByRole("button", { name: /^Pay \$/ });
    await expect(pay).toBeEnabled();
    const shown = (await breakdown.total.textContent())!;
    expect(shown).not.toBe(live);
    await expect(pay).toHaveText(`Pay ${shown}`);
    await expect(page.getByRole("status").filter({ hasText: "Total updated" })).toHaveText(`Total updated: ${shown}`);
    await pay.click();
    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    await expect(page.locator('dt:text-is("Total charged") + dd')).toHaveText(shown);
  });

  test("a contact who may not manage payment methods pays without a save-card box, and a crafted saveCard saves nothing", async ({
    page,
  }) => {
    // sam@coastal.example (demo seed) may use the customer-style pay page but lacks accessCustomerPortal.
    await signInAs(page, ACME, "sam@coastal.example", DEMO_PASSWORD);
    await page.goto(`${ACME}/customer/invoices-and-payments/invoices`);
    await openPayPage(page);
    const savedCards = page.getByRole("radio", { name: /•••• 1111/ });
    await expect(savedCards).toHaveCount(0);
    await page.getByLabel("A new card").check();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: /Save this card/ })).toHaveCount(0);

    const amount = page.getByRole("textbox", { name: /^Amount for / });
    await amount.fill("1.00");
    await fillNewCard(page, "4111 1111 1111 1111");
    await updateTotal(page);
    await expect(page.getByText("Card surcharge")).toBeVisible();
    // The POST the page would send, plus the box it does not show.
    const form = {
      intent: "pay",
      requestGuid: await page.locator('input[name="requestGuid"]').inputValue(),
      expectedAmount: await page.locator('input[name="expectedAmount"]').inputValue(),
      [(await amount.getAttribute("name"))!]: "1.00",
      method: "new",
      cardNumber: "4111 1111 1111 1111",
      cardHolderName: "Sam Taylor",
      expiryMonth: "12",
      expiryYear: nextYear,
      cvn: "123",
      saveCard: "on",
    };
    const cookie = (await page.context().cookies(ACME)).map((c) => `${c.name}=${c.value}`).join("; ");
    const call = hostCall(page.url(), { "content-type": "application/x-www-form-urlencoded", origin: ACME, cookie });
    const response = await page.request.post(call.url, { headers: call.headers, form, maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    await page.goto(`${ACME}${response.headers().location}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");

    // Paid, and no card kept on the account.
    await page.goto(`${ACME}/customer/invoices-and-payments/invoices`);
    await openPayPage(page);
    await expect(page.getByLabel("A new card")).toBeVisible();
    await expect(savedCards).toHaveCount(0);
  });

  test("the invoices page ships no script, reports no error and counts its rows", async ({ page }) => {
    await signInAs(page, ACME, payer(), DEMO_PASSWORD);
    // This page's own errors only (a shared fixture for every page may come later).
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning")
        problems.push(`${message.type()}: ${message.text()}`);
    });
    // Read-only since decision 052: its filter, its "pay selected" form and its pager need no script.
    const response = await page.goto(`${ACME}/customer/invoices-and-payments/invoices?status=all`);
    expect(await response!.text()).not.toMatch(/<script\b/i);
    await page.waitForLoadState("load");
    await expect(page.locator("script")).toHaveCount(0);
    expect(problems).toEqual([]);
    // The demo ledger has 24 invoices in every status (db/seed/demo.ts); 20 to a page.
    await expect(page.getByText(/^Showing 1–20 of 24 invoices\./)).toBeVisible();
  });
});
