import type { Page } from "@playwright/test";
import { formatMoney } from "../../app/lib/format";
import { DEMO_PASSWORD, demoLedger } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { waitForMailVia } from "../support/mailbox";
import { ACME, expect, expectAccessible, MAILBOX, openSection, PHONE, signInAs, test } from "./fixtures";

/**
 * Each account's own PayID (issue 13), with JavaScript and without: shown on the dashboard and
 * on a payable invoice, copied with a button only where JavaScript runs, and money sent to it
 * from the sandbox's bank page pays the account's oldest invoice. The contact "payid" has an
 * account of its own with the demo ledger (tests/support/e2e-seed.ts), so no other journey
 * pays those invoices.
 */
const contact = () => e2eEmail("payid", test.info().project.name);
const accountNumber = () => `E2E-PAYID-${test.info().project.name}`.toUpperCase();
const payIdOf = () => `${accountNumber().toLowerCase()}@pay.acme.example`;
const money = (cents: number) => formatMoney(cents, { currency: "AUD" });

/** The oldest invoice the money goes to: payable statuses, by due date then number (as seeded today). */
function oldestPayable() {
  const { invoices } = demoLedger(accountNumber(), new Date());
  const payable = invoices
    .filter((invoice) => [1, 3, 7, 8].includes(invoice.status) && invoice.balance_cents > 0)
    .sort((a, b) => a.due_date.localeCompare(b.due_date) || a.number.localeCompare(b.number));
  return payable[0]!;
}

const panelOf = (page: Page) => page.getByRole("region", { name: "Pay from your bank with PayID" });

test.describe("the account's own PayID", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("the dashboard shows the PayID; the Copy button is there only with JavaScript", async ({ page, jsEnabled }) => {
    await signInAs(page, ACME, contact(), DEMO_PASSWORD);
    const panel = panelOf(page);
    await expect(panel).toContainText(payIdOf());
    await expect(panel).toContainText("Your bank will show the name: Acme Plumbing Supplies");
    await expect(panel).toContainText("In your banking app choose Pay someone → PayID");
    const copy = panel.getByRole("button", { name: "Copy PayID" });
    if (jsEnabled) {
      await copy.click();
      await expect(panel.getByRole("status")).toHaveText("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payIdOf());
      // A browser that refuses the clipboard: the person is told how to copy it themselves.
      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException("Denied", "NotAllowedError"));
      });
      await copy.click();
      await expect(panel.getByRole("status")).toHaveText(/did not allow copying\. Select the PayID above/);
      // A very long PayID wraps inside the panel on a phone instead of scrolling the page sideways.
      await page.setViewportSize(PHONE);
      const width = await page.evaluate(() => {
        document.querySelector('[data-testid="payid"]')!.textContent = `${"a".repeat(64)}@${"b".repeat(60)}.example`;
        return document.documentElement.scrollWidth;
      });
      expect(width).toBeLessThanOrEqual(PHONE.width);
      await page.reload();
    } else {
      await expect(copy).toHaveCount(0);
    }
    await expectAccessible(page);
  });

  test("money sent to the PayID from a bank pays the oldest invoice and shows on the statement", async ({ page }) => {
    const oldest = oldestPayable();
    const paid = 12_34;
    await signInAs(page, ACME, contact(), DEMO_PASSWORD);
    await openSection(page, "Invoices and payments");
    await page.getByRole("link", { name: oldest.number, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(oldest.number);
    const invoiceUrl = page.url();
    const balance = page.locator('dt:text-is("Balance owing") + dd');
    await expect(balance).toHaveText(money(oldest.balance_cents));
    await expect(panelOf(page)).toContainText(payIdOf());
    await expect(panelOf(page)).toContainText(`put ${oldest.number} in the description`);
    await expectAccessible(page);

    // The payer's own bank (the sandbox's stand-in), not the portal.
    const since = Date.now();
    await page.goto(`${ACME}/sandbox/payto-bank`);
    const send = page.locator("section", { has: page.getByRole("heading", { name: "Pay to a PayID" }) });
    await send.getByLabel("PayID").fill(payIdOf());
    await send.getByLabel("Amount (AUD)").fill("12.34");
    await send.getByLabel("Your name").fill("Hillside Payer");
    await send.getByRole("button", { name: "Send money" }).click();
    await expect(page.locator("#payId-error, #amount-error, #payerName-error")).toHaveCount(0);

    // The provider's webhook arrives when it arrives: reload until the balance has fallen.
    await page.goto(invoiceUrl);
    await expect(async () => {
      await page.reload();
      await expect(balance).toHaveText(money(oldest.balance_cents - paid), { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole("list", { name: "Payments on this invoice" })).toContainText(money(paid));

    await openSection(page, "Statements");
    const line = page.getByRole("row", { name: new RegExp(`PayID payment to ${payIdOf().replace(/\./g, "\\.")}`) });
    await expect(line).toContainText(money(paid));
    await expectAccessible(page);

    const mail = await waitForMailVia(MAILBOX, contact(), { since, subject: /Payment received by Acme/ });
    expect(mail.text).toContain(`${oldest.number}: ${money(paid)}`);
    // In the brand, like every other email (decision 081): the PNG logo on the host and the statement button.
    expect(mail.html).toMatch(/<img [^>]*src="[^"]*\/brands\/acme\/email-logo\.png"/);
    expect(mail.html).toContain("See your statement");
  });
});
