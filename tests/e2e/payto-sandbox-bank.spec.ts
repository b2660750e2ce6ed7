import { ACME, expect, expectAccessible, PHONE, test } from "./fixtures";

/**
 * The PayTo sandbox's stand-in for the payer's bank (decision 027): reachable without a portal
 * session, plainly not the portal, and safe with bad input. Journeys that create agreements
 * through the portal (approve, decline, pay) live with the portal's PayTo specs.
 */
const BANK = `${ACME}/sandbox/payto-bank`;

test.describe("sandbox bank page", () => {
  test.use({ viewport: PHONE });

  test("opens without signing in, marked as the payer's bank and not the portal", async ({ page }) => {
    const response = await page.goto(BANK);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Sandbox bank");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sandbox Bank");
    await expect(
      page.getByText("this page stands in for the payer's banking app; it is not part of the portal"),
    ).toBeVisible();
    // None of the portal's shell: no brand logo, no business name, no portal menu.
    await expect(page.locator("header img")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText("Acme Plumbing Supplies");
    await expectAccessible(page);
  });

  test("an unknown payer shows an empty list with a clear message", async ({ page }) => {
    await page.goto(BANK);
    await page.getByLabel("PayID or BSB and account number").fill("Nobody-E2E@Example.com");
    await page.getByRole("button", { name: "Open" }).click();
    await expect(page).toHaveURL(/payer=Nobody-E2E%40Example\.com/);
    await expect(page.getByRole("heading", { name: "Payment agreements for nobody-e2e@example.com" })).toBeVisible();
    await expect(page.getByText("This bank has no payment agreements for nobody-e2e@example.com.")).toBeVisible();
    await expect(page.getByRole("listitem")).toHaveCount(0);
    await expectAccessible(page);

    await page.getByLabel("PayID or BSB and account number").fill("000-000 10000001");
    await page.getByRole("button", { name: "Open" }).click();
    await expect(
      page.getByText("This bank has no payment agreements for BSB 000-000, account 10000001."),
    ).toBeVisible();
  });

  test("a PayID that is not one is refused, tied to its field, and never rendered as HTML", async ({ page }) => {
    const hostile = `<img src=x onerror="window.__bankXss=1">`;
    await page.goto(BANK);
    await page.getByLabel("PayID or BSB and account number").fill(hostile);
    await page.getByRole("button", { name: "Open" }).click();
    const field = page.getByLabel("PayID or BSB and account number");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(/Enter a PayID \(like name@example\.com\) or a BSB/);
    await expect(field).toHaveValue(hostile);
    await expect(page.locator("img")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __bankXss?: number }).__bankXss)).toBeUndefined();
    await expectAccessible(page);
  });

  test("an agreement this bank does not hold is said so", async ({ page }) => {
    const response = await page.goto(`${BANK}?agreement=agr_sbx_no_such_thing`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("alert")).toHaveText(/There is no such agreement at this bank/);
    await expectAccessible(page);
  });

  test("paying a PayID with bad details sends nothing and says what to fix", async ({ page }) => {
    await page.goto(BANK);
    await page.getByLabel("PayID", { exact: true }).fill("nobody@acme.payto.test");
    await page.getByLabel("Amount (AUD)").fill("12.345");
    await page.getByRole("button", { name: "Send money" }).click();
    await expect(page.getByText("Nothing was sent. Correct the details below.")).toBeVisible();
    await expect(page.getByLabel("Amount (AUD)")).toHaveAccessibleDescription("Use at most two decimal places");
    await expect(page.getByLabel("Your name")).toHaveAccessibleDescription("Enter the name the business will see.");
    await expectAccessible(page);

    // Well-formed, but no business has this PayID.
    await page.getByLabel("Amount (AUD)").fill("12.34");
    await page.getByLabel("Your name").fill("Pat Payer");
    await page.getByRole("button", { name: "Send money" }).click();
    await expect(page.getByLabel("PayID", { exact: true })).toHaveAccessibleDescription(
      "No business has registered this PayID.",
    );
    await expect(page.getByLabel("PayID", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page);
  });

  test("a payer's step on an unknown agreement, or a cross-site POST, changes nothing", async ({ hostRequest }) => {
    const unknown = await hostRequest.post(BANK, {
      headers: { origin: ACME },
      form: { intent: "approve", agreementId: "agr_sbx_no_such_thing" },
    });
    expect(unknown.status()).toBe(404);
    const junk = await hostRequest.post(BANK, { headers: { origin: ACME }, form: { intent: "rob-the-bank" } });
    expect(junk.status()).toBe(400);
    const crossSite = await hostRequest.post(BANK, {
      headers: { origin: "http://evil.example" },
      form: { intent: "send", payId: "x@acme.payto.test", amount: "1", payerName: "Mallory" },
    });
    expect(crossSite.status()).toBe(403);
  });
});
