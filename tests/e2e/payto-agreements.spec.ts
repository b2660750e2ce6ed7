import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, expectAccessible, KIWI, signInAs, test } from "./fixtures";

/**
 * PayTo agreements as a payment method (issue 13), with JavaScript and without: set one up
 * with a PayID or a BSB and account number, act on it at the sandbox's stand-in for the
 * payer's banking app (a page of its own in the same browser, as a phone's banking app is),
 * and see the portal follow: active (with JavaScript, without reloading), declined, paused,
 * cancelled through the confirm step. Bad input is answered at the fields.
 */
const OLIVIA = "olivia@coastal.example";

async function startSetUp(page: Page) {
  await page.goto(`${ACME}/payment-methods`);
  const section = page.getByRole("region", { name: "PayTo agreements" });
  await expect(section).toBeVisible();
  await section.getByRole("link", { name: "Set up PayTo" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set up PayTo" })).toBeVisible();
}

async function setUpWithPayId(page: Page, payId: string) {
  await startSetUp(page);
  await page.getByLabel("A PayID (email, mobile, ABN or organisation id)").check();
  await page.getByLabel("Kind of PayID").selectOption("EMAL");
  await page.getByLabel("PayID", { exact: true }).fill(payId);
  await page.getByLabel("Account holder's name").fill("Olivia Nguyen");
  await page.getByLabel(/I authorise .* to debit this account/).check();
  await page.getByRole("button", { name: "Send to my bank" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "PayTo agreement" })).toBeVisible();
}

async function setUpWithBsb(page: Page, bsb: string, account: string) {
  await startSetUp(page);
  await page.getByLabel("A BSB and account number").check();
  await page.getByLabel("BSB", { exact: true }).fill(bsb);
  await page.getByLabel("Account number", { exact: true }).fill(account);
  await page.getByLabel("Account holder's name").fill("Olivia Nguyen");
  await page.getByLabel(/I authorise .* to debit this account/).check();
  await page.getByRole("button", { name: "Send to my bank" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "PayTo agreement" })).toBeVisible();
}

const status = (page: Page) => page.getByTestId("payto-status");

/** Opens the sandbox bank (the payer's banking app) for this agreement in a page of its own. */
async function openBank(page: Page) {
  await expect(status(page)).toHaveText("Waiting for you to approve it in your banking app.");
  const link = page.getByRole("link", { name: /Open the test bank/ });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const bank = await page.context().newPage();
  await bank.goto(new URL(href!, ACME).toString());
  return bank;
}

/** The payer presses a button at the bank and waits for the bank to confirm it ("You approved …"). */
async function bankDoes(bank: Page, action: "approve" | "decline" | "suspend") {
  const button = { approve: "Approve", decline: "Decline", suspend: "Suspend" }[action];
  const done = {
    approve: "You approved the agreement.",
    decline: "You declined the agreement.",
    suspend: "You suspended the agreement.",
  }[action];
  await bank.getByRole("button", { name: button, exact: true }).first().click();
  await expect(bank.getByText(done)).toBeVisible();
}

/** Until the portal page says `text`: by itself with JavaScript, after "Check again" without. */
async function expectStatus(page: Page, jsEnabled: boolean, text: string) {
  if (jsEnabled) {
    // A mark on this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await expect(status(page)).toHaveText(text, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    return;
  }
  await expect(async () => {
    if (await page.getByRole("link", { name: "Check again" }).isVisible()) {
      await page.getByRole("link", { name: "Check again" }).click();
    } else {
      await page.reload();
    }
    await expect(status(page)).toHaveText(text, { timeout: 500 });
  }).toPass({ timeout: 20_000, intervals: [500, 1000] });
}

test.describe("PayTo agreements", () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, ACME, OLIVIA, DEMO_PASSWORD);
  });

  test("PayID: pending, approved at the bank, active; then cancelled through the confirm step", async ({
    page,
    jsEnabled,
  }) => {
    // A long journey (about 20 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    await setUpWithPayId(page, `olivia.${jsEnabled ? "js" : "nojs"}.${Date.now()}@payto.test`);
    await expectAccessible(page);
    const bank = await openBank(page);
    await bankDoes(bank, "approve");
    await bank.close();
    await expectStatus(page, jsEnabled, "Active — you can pay with it.");
    // The history has the approval.
    await expect(page.getByRole("listitem").filter({ hasText: "Active" }).first()).toBeVisible();
    await expectAccessible(page);

    await page.getByRole("link", { name: "Cancel this agreement" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Cancel the PayTo agreement?" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Cancel the agreement" }).click();
    await expect(page).toHaveURL(`${ACME}/payment-methods?notice=payto-cancelled`);
    await expect(page.getByRole("status").filter({ hasText: "The PayTo agreement is cancelled." })).toBeVisible();
    await expectAccessible(page);
  });

  test("the list on /payment-methods follows the bank too: without reloading with JavaScript, on reload without", async ({
    page,
    jsEnabled,
  }) => {
    const payId = `olivia.list.${jsEnabled ? "js" : "nojs"}.${Date.now()}@payto.test`;
    await setUpWithPayId(page, payId);
    const bank = await openBank(page);
    await page.goto(`${ACME}/payment-methods`);
    const item = page.getByRole("listitem").filter({ hasText: payId });
    await expect(item).toContainText("Waiting for you to approve it in your banking app.");
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await bankDoes(bank, "approve");
    await bank.close();
    if (jsEnabled) {
      await expect(item).toContainText("Active — you can pay with it.", { timeout: 20_000 });
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    } else {
      await expect(async () => {
        await page.reload();
        await expect(item).toContainText("Active — you can pay with it.", { timeout: 500 });
      }).toPass({ timeout: 20_000, intervals: [500, 1000] });
    }
    // The pay page offers it by its PayID, a long word that must wrap, not push a phone's page sideways.
    await page.goto(`${ACME}/customer/invoices-and-payments/pay?all=1`);
    await expect(page.getByRole("radio", { name: `PayTo from ${payId}` })).toBeVisible();
    await expectAccessible(page);
  });

  test("BSB and account: declined at the bank shows Declined", async ({ page, jsEnabled }) => {
    await setUpWithBsb(page, "000-000", jsEnabled ? "22334455" : "22334466");
    await expect(page.getByText("BSB 000-000, account •••")).toHaveCount(2);
    const bank = await openBank(page);
    await bankDoes(bank, "decline");
    await bank.close();
    await expectStatus(page, jsEnabled, "Declined in your bank — set up a new one if that was a mistake.");
    await expect(page.getByRole("link", { name: "Cancel this agreement" })).toHaveCount(0);
  });

  test("a PayID the provider refuses is shown as not set up, with why", async ({ page }) => {
    await setUpWithPayId(page, "unavailable@payto.test");
    await expect(status(page)).toHaveText("Your bank could not set it up — check the details and try again.");
    await expect(page.getByText("PayTo is unavailable right now. Try again in a few minutes.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Cancel this agreement" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Open the test bank/ })).toHaveCount(0);
  });

  test("suspended at the bank is shown paused", async ({ page, jsEnabled }) => {
    await setUpWithPayId(page, `paused.${jsEnabled ? "js" : "nojs"}.${Date.now()}@payto.test`);
    const bank = await openBank(page);
    await bankDoes(bank, "approve");
    await bankDoes(bank, "suspend");
    await bank.close();
    await expectStatus(page, false, "Paused in your bank — resume it there to pay with it.");
    await page.goto(`${ACME}/payment-methods`);
    await expect(
      page.getByRole("region", { name: "PayTo agreements" }).getByText("Paused in your bank").first(),
    ).toBeVisible();
  });

  test("bad input is answered at the fields and creates nothing", async ({ page }) => {
    await startSetUp(page);
    await expectAccessible(page);
    await page.getByLabel("A PayID (email, mobile, ABN or organisation id)").check();
    await page.getByLabel("Kind of PayID").selectOption("AUBN");
    await page.getByLabel("PayID", { exact: true }).fill("51 824 753 557");
    await page.getByLabel("Account holder's name").fill("n".repeat(141));
    await page.getByLabel(/I authorise .* to debit this account/).check();
    await page.getByRole("button", { name: "Send to my bank" }).click();
    const payId = page.getByLabel("PayID", { exact: true });
    await expect(payId).toHaveAttribute("aria-invalid", "true");
    await expect(payId).toHaveAccessibleDescription(/That is not a valid ABN/);
    const name = page.getByLabel("Account holder's name");
    await expect(name).toHaveAccessibleDescription(/at most 140 characters/);
    await expectAccessible(page);

    await page.getByLabel("A BSB and account number").check();
    await page.getByLabel("BSB", { exact: true }).fill("12345");
    await page.getByLabel("Account number", { exact: true }).fill("12345678");
    await page.getByLabel("Account holder's name").fill("Olivia Nguyen");
    await page.getByLabel(/I authorise .* to debit this account/).check();
    await page.getByRole("button", { name: "Send to my bank" }).click();
    const bsb = page.getByLabel("BSB", { exact: true });
    await expect(bsb).toHaveAttribute("aria-invalid", "true");
    await expect(bsb).toHaveAccessibleDescription(/A BSB has 6 digits/);
    await expect(page.getByRole("heading", { level: 1, name: "Set up PayTo" })).toBeVisible();
  });

  test("another account's agreement id is a 404", async ({ page }) => {
    const response = await page.goto(`${ACME}/payment-methods/payto/00000000-0000-4000-8000-000000000000`);
    expect(response?.status()).toBe(404);
    const bad = await page.goto(`${ACME}/payment-methods/payto/not-an-id/cancel`);
    expect(bad?.status()).toBe(404);
  });
});

test("kiwi (New Zealand: no PayTo) shows no PayTo section and has no set-up page", async ({ page }) => {
  await signInAs(page, KIWI, "aroha@orchards.example", DEMO_PASSWORD);
  await page.goto(`${KIWI}/payment-methods`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "PayTo agreements" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Set up PayTo" })).toHaveCount(0);
  const response = await page.goto(`${KIWI}/payment-methods/payto/new`);
  expect(response?.status()).toBe(404);
});
