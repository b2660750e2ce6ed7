import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { waitForMailVia } from "../support/mailbox";
import { e2eEmail } from "../support/e2e-users";
import { ACME, expect, expectAccessible, hostCall, MAILBOX, signInAs, test } from "./fixtures";

/**
 * Invoices and paying them (issue 3), with JavaScript and without. The payer has an
 * account of its own with invoices in every status (tests/support/e2e-seed.ts); Acme's fee
 * rules are the demo seed's (Visa 1.2% surcharge, 2% + $5.00 late fee, 1% early discount).
 */
const payer = () => e2eEmail("payer", test.info().project.name);
const nextYear = String(new Date().getUTCFullYear() + 1);

async function openInvoices(page: Page) {
  await signInAs(page, ACME, payer(), DEMO_PASSWORD);
  await page.getByRole("link", { name: "Invoices and payments" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoices and payments");
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
    await openInvoices(page);
    const invoices = page.getByRole("region", { name: "Invoices" });
    await expect(invoices).toContainText("Overdue");
    await expect(invoices).toContainText("Broken promise");
    await expectAccessible(page);

    const boxes = page.getByRole("checkbox", { name: /^Pay invoice / });
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await boxes.nth(2).check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expectAccessible(page);
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
      await page.getByRole("button", { name: "Update total" }).click();
      await expect(page.getByRole("textbox", { name: /^Amount for / }).nth(1)).toHaveAccessibleDescription(message);
    }
    await page
      .getByRole("textbox", { name: /^Amount for / })
      .nth(1)
      .fill("10.50");

    // A declined card: the message, with the amounts kept and the card number not.
    await fillNewCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByText("Card surcharge")).toBeVisible();
    await fillNewCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("alert")).toContainText("declined by its bank");
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
    await expect(receipt).toContainText("visa •••• 1111");
    await expect(page.getByRole("list", { name: "Invoices" }).getByRole("listitem")).toHaveCount(3);
    await expectAccessible(page);
    const reference = page.url().split("/").pop()!;
    const mail = await waitForMailVia(MAILBOX, payer(), { since, subject: new RegExp(reference) });
    expect(mail.text).toContain("Total charged:");
    expect(mail.text).not.toContain("4111 1111");
    // The link is built from the host's configured base URL (decision 024), not always http.
    expect(mail.links).toContain(`${ACME}/payment/complete/${reference}`);

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
    await page.getByRole("button", { name: "Update total" }).click();
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
      // A tampered total is refused, with a new guid, and charges nothing.
      const tampered = await page.request.post(call.url, {
        headers: call.headers,
        form: { ...form, expectedAmount: "1" },
        maxRedirects: 0,
      });
      expect(tampered.status()).toBe(409);
      expect(await tampered.text()).toContain("The total is now");
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
    await page.getByRole("button", { name: "Update total" }).click();
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
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(breakdown).not.toContainText("Early-payment discount");
    await expectAccessible(page);
  });
});
