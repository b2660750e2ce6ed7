import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_API_KEYS, DEMO_PASSWORD } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { ACME, expect, expectAccessible, signInAs, test } from "./fixtures";

/**
 * "Set up PayTo" from a payment request's signed-in page is a round trip (issue 31; decision
 * 077), with JavaScript and without: the part payment typed goes along (a button of the pay
 * form), the payer's bank approves the agreement in the sandbox, and "Back to your payment" opens
 * the same request with the amount as typed and the new agreement chosen, so Pay pays at once.
 * Each project has a contact and account of its own ("roundtrip", tests/support/e2e-seed.ts)
 * with no agreement before; the request is made through the back-office API of the running portal.
 */
const project = () => test.info().project.name;
const payer = () => e2eEmail("roundtrip", project());

/** Waits for `text`: by itself with JavaScript (the page asks again), after "Check again" (or a reload) without. */
async function untilText(page: Page, text: string | RegExp, jsEnabled: boolean) {
  const status = page.getByTestId("payto-status");
  if (jsEnabled) {
    await expect(status).toContainText(text, { timeout: 20_000 });
    return;
  }
  await expect(async () => {
    const again = page.getByRole("link", { name: "Check again" });
    if (await again.isVisible()) await again.click();
    else await page.reload();
    await expect(status).toContainText(text, { timeout: 500 });
  }).toPass({ timeout: 20_000, intervals: [500, 1000] });
}

test("a payment request's 'Set up PayTo' with a part payment typed: approved at the bank, back with the amount and the agreement chosen, paid at once", async ({
  page,
  hostRequest,
  jsEnabled,
}) => {
  // A long journey (about 15 s quiet): its limit keeps three times that or more (issue 29).
  test.setTimeout(90_000);
  const created = await hostRequest.post(`${ACME}/api/back-office/payment-requests`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data: {
      account: `E2E-ROUNDTRIP-${project()}`.toUpperCase(),
      recipients: [payer()],
      send: true,
      amountCents: 30_000,
      allowPartPayment: true,
      minPartPaymentCents: 1_000,
      description: "PayTo round trip",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { reference } = ((await created.json()) as { request: { reference: string } }).request;
  const requestPath = `/payment/payment-request/${reference}`;

  await signInAs(page, ACME, payer(), DEMO_PASSWORD);
  await page.goto(`${ACME}${requestPath}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme Plumbing Supplies asks you to pay $300.00");
  await page.getByLabel("Amount to pay").fill("25.00");
  // A card number typed and then left: it never goes along (PCI DSS 3.3.1), nor is anything charged.
  await page.getByLabel("Card number").fill("4111 1111 1111 1111");
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("set-up-payto-offered.png"), fullPage: true });
  await page.getByRole("button", { name: "Set up PayTo" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Set up PayTo" })).toBeVisible();
  const setUpUrl = new URL(page.url());
  expect(setUpUrl.pathname).toBe("/payment-methods/payto/new");
  expect(setUpUrl.searchParams.get("returnTo")).toBe(`${requestPath}?amount=2500`);
  expect(page.url()).not.toContain("4111");
  const payId = `trip.${project()}.${Date.now()}@payto.test`;
  await page.getByLabel("A PayID (email, mobile, ABN or organisation id)").check();
  await page.getByLabel("Kind of PayID").selectOption("EMAL");
  await page.getByLabel("PayID", { exact: true }).fill(payId);
  await page.getByLabel("Account holder's name").fill("Pat Payer");
  await page.getByLabel(/I authorise .* to debit this account/).check();
  await page.getByRole("button", { name: "Send to my bank" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "PayTo agreement" })).toBeVisible();
  await untilText(page, "Waiting for you to approve it", jsEnabled);
  // While the bank waits: back to the payment as it was (to pay another way).
  await expect(page.getByRole("link", { name: "Back to your payment" })).toHaveCount(1);

  // The payer approves it in their banking app (the sandbox bank, a page of its own).
  const href = await page.getByRole("link", { name: /Open the test bank/ }).getAttribute("href");
  const bank = await page.context().newPage();
  await bank.goto(new URL(href!, ACME).toString());
  await bank.getByRole("button", { name: "Approve", exact: true }).first().click();
  await expect(bank.getByText("You approved the agreement.")).toBeVisible();
  await bank.close();
  // A PayID of no special outcome: the sandbox leaves it active (only suspend@ pauses).
  await untilText(page, "Active", jsEnabled);
  await expect(page.getByText("What you typed is as you left it, with this agreement chosen.")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("agreement-active.png"), fullPage: true });
  await page.getByRole("link", { name: "Back to your payment" }).click();

  // The same request, the amount as typed, the new agreement chosen: one tap to pay.
  await expect(page).toHaveURL(new RegExp(`${requestPath}\\?amount=2500&agreement=[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme Plumbing Supplies asks you to pay $300.00");
  await expect(page.getByLabel("Amount to pay")).toHaveValue("25.00");
  await expect(page.getByRole("radio", { name: `PayTo from ${payId}` })).toBeChecked();
  const pay = page.getByRole("button", { name: "Pay $25.00" });
  await expect(pay).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("back-to-the-request.png"), fullPage: true });
  await pay.click();

  await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^(Payment pending|Paid)$/);
  await expect(page.getByText("$25.00").first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("receipt.png"), fullPage: true });
});
