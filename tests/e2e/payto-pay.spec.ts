import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { waitForMailVia } from "../support/mailbox";
import { e2eEmail } from "../support/e2e-users";
import { ACME, expect, expectAccessible, MAILBOX, openSection, PHONE, signInAs, test } from "./fixtures";

/**
 * Paying invoices by PayTo (issue 13; decision 029), with JavaScript and without. The payer has
 * an account of its own with the demo ledger (role "paytopay", tests/support/e2e-seed.ts), so
 * no other spec pays its invoices. Agreements are set up through the portal's own screens with
 * the sandbox's test PayIDs (decision 027), which the sandbox bank answers by itself; the
 * sandbox settles a payment SANDBOX_PAYTO_SETTLE_MS (1.5 s here) after accepting it.
 */
const payer = () => e2eEmail("paytopay", test.info().project.name);

/** Sets up a PayTo agreement with a test PayID and waits until the portal says what the bank did. */
async function setUpAgreement(page: Page, payId: string, jsEnabled: boolean, expected: string | RegExp) {
  await page.goto(`${ACME}/payment-methods`);
  await page.getByRole("region", { name: "PayTo agreements" }).getByRole("link", { name: "Set up PayTo" }).click();
  await page.getByLabel("A PayID (email, mobile, ABN or organisation id)").check();
  await page.getByLabel("Kind of PayID").selectOption("EMAL");
  await page.getByLabel("PayID", { exact: true }).fill(payId);
  await page.getByLabel("Account holder's name").fill("Pat Payer");
  await page.getByLabel(/I authorise .* to debit this account/).check();
  await page.getByRole("button", { name: "Send to my bank" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "PayTo agreement" })).toBeVisible();
  await untilText(page, page.getByTestId("payto-status"), expected, jsEnabled);
}

/** Waits for `text`: by itself with JavaScript (no reload), after "Check again" (or a reload) without. */
async function untilText(
  page: Page,
  target: ReturnType<Page["getByTestId"]>,
  text: string | RegExp,
  jsEnabled: boolean,
) {
  if (jsEnabled) {
    // A mark on this document: a reload would lose it, so the change came by revalidation.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await expect(target).toContainText(text, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    return;
  }
  await expect(async () => {
    const again = page.getByRole("link", { name: "Check again" });
    if (await again.isVisible()) await again.click();
    else await page.reload();
    await expect(target).toContainText(text, { timeout: 500 });
  }).toPass({ timeout: 20_000, intervals: [500, 1000] });
}

async function openPayPage(page: Page, invoices: number, viaMenu = true) {
  if (viaMenu) await openSection(page, "Invoices and payments");
  else await page.goto(`${ACME}/customer/invoices-and-payments/invoices`);
  const boxes = page.getByRole("checkbox", { name: /^Pay invoice / });
  for (let i = 0; i < invoices; i++) await boxes.nth(i).check();
  await page.getByRole("button", { name: "Pay selected invoices" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
}

/** "Update total" and wait for its answer: a new form (new requestGuid), so Pay is never swallowed by a pending quote. */
async function updateTotal(page: Page) {
  const guid = page.locator('input[name="requestGuid"]');
  const before = await guid.inputValue();
  await page.getByRole("button", { name: "Update total" }).click();
  await expect(guid).not.toHaveValue(before);
}

/** The pay page's figures, by their labels. */
const breakdown = (page: Page) => page.locator("section[aria-labelledby=breakdown-title]");

/** The receipt's state: the live region under the heading. */
const receiptState = (page: Page) => page.getByTestId("payto-receipt-state");

test.describe("paying by PayTo", () => {
  // One account per project: its journeys take turns, so two never pick the same invoice.
  test.describe.configure({ mode: "default" });

  test.beforeEach(async ({ page }) => {
    await signInAs(page, ACME, payer(), DEMO_PASSWORD);
  });

  test("from the pay page with two invoices: Set up PayTo, approve at the bank, back to the same invoices and amounts with the agreement chosen, pay, paid, the receipt email", async ({
    page,
    jsEnabled,
  }) => {
    // A long journey (about 25 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    // Before any agreement: the pay page offers to set one up, as a button of its form (decision 077).
    await openPayPage(page, 2);
    const amounts = page.getByRole("textbox", { name: /^Amount for / });
    // Two invoices' amounts fold under one line: open it and pay $1.00 less of the first.
    await page.getByText("Change", { exact: true }).click();
    await expect(amounts).toHaveCount(2);
    const names = await amounts.evaluateAll((inputs) => inputs.map((input) => input.getAttribute("name")));
    const firstFull = await amounts.nth(0).inputValue();
    const secondFull = await amounts.nth(1).inputValue();
    const part = ((Math.round(Number(firstFull) * 100) - 100) / 100).toFixed(2);
    await amounts.nth(0).fill(part);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Set up PayTo" }).click();

    // The set-up page; the bank waits for the payer (a PayID the sandbox does not answer by itself).
    await expect(page.getByRole("heading", { level: 1, name: "Set up PayTo" })).toBeVisible();
    expect(new URL(page.url()).searchParams.get("returnTo")).toMatch(
      /^\/customer\/invoices-and-payments\/pay\?invoice=/,
    );
    const payId = `round.${test.info().project.name}.${Date.now()}@payto.test`;
    await page.getByLabel("A PayID (email, mobile, ABN or organisation id)").check();
    await page.getByLabel("Kind of PayID").selectOption("EMAL");
    await page.getByLabel("PayID", { exact: true }).fill(payId);
    await page.getByLabel("Account holder's name").fill("Pat Payer");
    await page.getByLabel(/I authorise .* to debit this account/).check();
    await page.getByRole("button", { name: "Send to my bank" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "PayTo agreement" })).toBeVisible();
    await untilText(page, page.getByTestId("payto-status"), "Waiting for you to approve it", jsEnabled);
    // While it waits, the way back is there (to pay another way), not yet with the agreement.
    await expect(page.getByRole("link", { name: "Back to your payment" })).toHaveCount(1);

    // The payer approves it in their banking app (the sandbox bank, a page of its own).
    const href = await page.getByRole("link", { name: /Open the test bank/ }).getAttribute("href");
    const bank = await page.context().newPage();
    await bank.goto(new URL(href!, ACME).toString());
    await bank.getByRole("button", { name: "Approve", exact: true }).first().click();
    await expect(bank.getByText("You approved the agreement.")).toBeVisible();
    await bank.close();
    await untilText(page, page.getByTestId("payto-status"), "Active", jsEnabled);
    const back = page.getByRole("link", { name: "Back to your payment" });
    await expect(back).toBeVisible();
    await expectAccessible(page);
    await back.click();

    // The same two invoices, the amount typed, and the new agreement chosen: one tap to pay.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expect(amounts).toHaveCount(2);
    expect(await amounts.evaluateAll((inputs) => inputs.map((input) => input.getAttribute("name")))).toEqual(names);
    await expect(amounts.nth(0)).toHaveValue(part);
    await expect(amounts.nth(1)).toHaveValue(secondFull);
    await expect(page.getByRole("radio", { name: `PayTo from ${payId}` })).toBeChecked();
    // No surcharge for PayTo (spec §9).
    await expect(breakdown(page)).not.toContainText("Card surcharge");
    await expectAccessible(page);
    const total = (await breakdown(page).locator('dt:text-is("Total") + dd').textContent())!.trim();
    const since = Date.now();
    await page.getByRole("button", { name: /^Pay \$/ }).click();

    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    const reference = page.url().split("/").pop()!;
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment pending");
    await expect(receiptState(page)).toContainText("Pending — your bank is processing this PayTo payment");
    await expect(page.getByText(total).first()).toBeVisible();
    await expect(page.getByRole("list", { name: "Invoices" }).getByRole("listitem")).toHaveCount(2);
    await expectAccessible(page);

    await untilText(page, receiptState(page), "Your bank has paid it", jsEnabled);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paid");
    await expect(page.getByRole("link", { name: "Check again" })).toHaveCount(0);
    await expectAccessible(page);

    const mail = await waitForMailVia(MAILBOX, payer(), { since, subject: new RegExp(reference), timeoutMs: 20_000 });
    expect(mail.text).toContain("Paid with: PayTo");
    expect(mail.text).toContain(total);
  });

  test("a payment the bank rejects for want of funds: said in words, and the invoices can be paid again", async ({
    page,
    jsEnabled,
  }) => {
    await setUpAgreement(page, "nofunds@payto.test", jsEnabled, "Active");
    await openPayPage(page, 1);
    const invoiceAmount = await page.getByRole("textbox", { name: /^Amount for / }).inputValue();
    await page.getByRole("radio", { name: "PayTo from nofunds@payto.test" }).check();
    await updateTotal(page);
    // On a phone the total and Pay stay in the first screen with PayTo chosen.
    await page.setViewportSize(PHONE);
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeInViewport();
    await expect(page.getByRole("radio", { name: "PayTo from nofunds@payto.test" })).toBeChecked();
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment pending");

    await untilText(page, receiptState(page), "Your bank rejected this payment", jsEnabled);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment rejected");
    await expect(receiptState(page)).toHaveText(
      "Your bank rejected this payment: not enough money in the account. The invoices can be paid again.",
    );
    await expectAccessible(page);

    // The reservation is released: the same invoice, its whole balance, payable again.
    await page.getByRole("link", { name: "Pay these invoices" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expect(page.getByRole("textbox", { name: /^Amount for / })).toHaveValue(invoiceAmount);
  });

  test("paused and pending agreements are listed but cannot be chosen", async ({ page, jsEnabled }) => {
    // Any other PayID waits for the payer at the sandbox bank: pending.
    const waiting = `waiting.${test.info().project.name}@payto.test`;
    await setUpAgreement(page, waiting, jsEnabled, "Waiting for you to approve it");
    // The sandbox's payer pauses suspend@payto.test a few seconds after approving it: on a busy
    // machine the pause may come before this page has shown "Active", so either will do here.
    await setUpAgreement(page, "suspend@payto.test", jsEnabled, /Active|Paused/);
    // The agreement page stops asking once it is active: reload until the bank's pause shows.
    await untilText(page, page.getByTestId("payto-status"), "Paused", false);
    await openPayPage(page, 1);
    await expect(page.getByText("PayTo from suspend@payto.test: paused, so it can't be used")).toBeVisible();
    await expect(page.getByRole("radio", { name: /suspend@payto\.test/ })).toHaveCount(0);
    await expect(page.getByText(`PayTo from ${waiting}: waiting for approval in your banking app`)).toBeVisible();
    await expect(page.getByRole("radio", { name: new RegExp(waiting.replace(/\./g, "\\.")) })).toHaveCount(0);
    await expectAccessible(page);
  });
});

test("a contact without portal access gets no set-up link for PayTo, only who can set it up", async ({ page }) => {
  // sam@coastal.example (demo seed) may pay on the customer-style page but lacks accessCustomerPortal.
  await signInAs(page, ACME, "sam@coastal.example", DEMO_PASSWORD);
  // Sam has several accounts: straight to the invoices of the one selected.
  await openPayPage(page, 1, false);
  await expect(page.getByRole("link", { name: "Set up PayTo" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Set up PayTo" })).toHaveCount(0);
  // Other journeys may have left the account an active agreement; without one, the sentence says who can.
  if ((await page.getByRole("radio", { name: /^PayTo from / }).count()) === 0) {
    await expect(page.getByText(/a contact with portal access needs to set up a PayTo agreement/)).toBeVisible();
  }
  await expectAccessible(page);
});
