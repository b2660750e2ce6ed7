import type { Page } from "@playwright/test";
import { ACME, HARBOUR, MAILBOX, PHONE, expect, expectAccessible, test } from "./fixtures";
import { waitForMailVia } from "../support/mailbox";
import { HARBOUR_USERS } from "../support/oidc-standin-demo";
import { DEMO_API_KEYS } from "../../db/seed/demo";
import {
  customerStyleAccountName,
  customerStyleAccountNumber,
  customerStyleEmail,
  type CustomerStyleRole,
} from "../support/e2e-customer-style";

/**
 * Ad-hoc payments (issue 14; decision 033), with JavaScript and without: a customer-style
 * contact pays an amount of their choice signed in (bad amounts and references explained, the
 * receipt and its email, the credit and the reference on the statement and in its CSV, read by
 * the account's bookkeeper); a link minted by the back-office API is paid signed out on a
 * 360 px phone; Harbour, which takes no ad-hoc payments, says so.
 */
const PASSWORD = "Portal!2026";
const nextYear = String(new Date().getUTCFullYear() + 1);
const project = () => test.info().project.name;
const who = (role: CustomerStyleRole) => customerStyleEmail(role, project());

async function signIn(page: Page, email: string) {
  await page.goto(`${ACME}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** "Update total" and wait for its answer: a new form (a new requestGuid). */
async function updateTotal(page: Page) {
  const guid = page.locator('input[name="requestGuid"]');
  const before = await guid.inputValue();
  await page.getByRole("button", { name: "Update total" }).click();
  await expect(guid).not.toHaveValue(before);
}

async function fillCard(page: Page, number = "4111 1111 1111 1111") {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Name on card").fill("Casey Payer");
  await page.getByLabel("Month (MM)").fill("12");
  await page.getByLabel("Year (YY or YYYY)").fill(nextYear);
  await page.getByLabel("Security code (CVN)").fill("123");
}

/**
 * Amount, reference and a new card, with the total the server shows for them; then Pay. The
 * card number prices the surcharge: with JavaScript the live total follows it, without it
 * "Update total" asks (and, as on every pay page, the card number is typed again after it).
 */
async function payWithNewCard(page: Page, jsEnabled: boolean, amount: string, reference: string) {
  await page.getByLabel("Amount").fill(amount);
  await page.getByLabel("Your reference").fill(reference);
  await fillCard(page);
  if (jsEnabled) {
    await expect(page.getByText("Card surcharge")).toBeVisible();
  } else {
    await updateTotal(page);
    await expect(page.getByText("Card surcharge")).toBeVisible();
    await fillCard(page);
  }
  await page.getByRole("button", { name: /^Pay \$/ }).click();
}

test.describe("ad-hoc payments", () => {
  test("a customer-style contact pays an amount of their choice: limits, reference, receipt, email and statement", async ({
    page,
    browser,
    hostRequest,
    jsEnabled,
  }) => {
    // A long journey (about 20 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    await signIn(page, who("adhoc"));
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);
    const account = `${customerStyleAccountName("adhoc", project())} (${customerStyleAccountNumber("adhoc", project())})`;
    await page.getByRole("link", { name: `Pay an amount to ${account}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay an amount");
    await expect(page.getByText(`Into ${account}`)).toBeVisible();
    await expect(page.getByLabel("Amount")).toHaveAccessibleDescription(/from \$10\.00 to \$5,000\.00/);
    // A contact without portal access may pay with a new card but not keep it on the account.
    await expect(page.getByLabel(/^Save this card/)).toHaveCount(0);
    await expectAccessible(page);

    // Amounts outside the limits, not exact, or not amounts at all: explained at the field.
    const amount = page.getByLabel("Amount");
    await page.getByLabel("Your reference").fill("Job 42");
    for (const [typed, message] of [
      ["9.99", /at least \$10\.00, the smallest amount Acme Plumbing Supplies takes/],
      ["5000.01", /at most \$5,000\.00/],
      ["10.005", /at most two decimal places/],
      ["1e3", /amount like 125.50/],
      ["0", /above zero/],
    ] as const) {
      await amount.fill(typed);
      await updateTotal(page);
      await expect(page.getByLabel("Amount")).toHaveAccessibleDescription(message);
    }
    // A reference is required; what was typed as an amount is kept.
    await page.getByLabel("Amount").fill("25.50");
    await page.getByLabel("Your reference").fill("");
    await fillCard(page);
    await updateTotal(page);
    await fillCard(page);
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByLabel("Your reference")).toHaveAccessibleDescription(/Enter a reference/);
    await expect(page.getByLabel("Amount")).toHaveValue("25.50");

    // Markup in a reference is only text: it comes back on the receipt, the statement and the CSV as typed.
    // 70-odd characters with one long word: it must wrap on a phone, never widen the page.
    const reference = `Job <b>42</b> & "Lot 7" ${project()} PO-${"9".repeat(40)}`;
    const since = Date.now();
    await payWithNewCard(page, jsEnabled, "25.50", reference);
    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    const receipt = page.getByRole("main");
    await expect(receipt).toContainText("Credited to your account");
    // The credit is a payment on account, not "Invoices" (issue 31).
    await expect(receipt).toContainText("Payment on account");
    await expect(receipt).not.toContainText("Invoices");
    await expect(receipt).toContainText("$25.50");
    await expect(receipt).toContainText(reference);
    await expect(page.locator("main b")).toHaveCount(0);
    await expectAccessible(page);
    const paymentReference = page.url().split("/").pop()!;
    const mail = await waitForMailVia(MAILBOX, who("adhoc"), { since, subject: new RegExp(paymentReference) });
    expect(mail.text).toContain(`Credited to your account: $25.50 (${reference})`);

    // The home lists the receipt.
    await page.goto(`${ACME}/`);
    await expect(page.getByRole("region", { name: "Recent receipts" })).toContainText(paymentReference);

    // The account's bookkeeper (portal access) sees the credit with the payer's reference.
    const books = await browser.newContext({ javaScriptEnabled: jsEnabled });
    try {
      const bookkeeper = await books.newPage();
      await signIn(bookkeeper, who("adhocbook"));
      await expect(bookkeeper).toHaveURL(`${ACME}/`);
      await bookkeeper.goto(`${ACME}/statements`);
      const line = bookkeeper.getByRole("row").filter({ hasText: paymentReference }).filter({ hasText: "Payment:" });
      await expect(line).toContainText(`Payment: ${reference} (card Visa •••• 1111)`);
      const fee = bookkeeper
        .getByRole("row")
        .filter({ hasText: paymentReference })
        .filter({ hasText: "Card surcharge" });
      await expect(fee).toHaveCount(1);
      await expectAccessible(bookkeeper);
      const session = (await books.cookies(ACME)).find((c) => c.name === "portal_session")!;
      const csv = await hostRequest.get(`${ACME}/statements/download`, {
        headers: { cookie: `portal_session=${session.value}` },
      });
      expect(csv.status()).toBe(200);
      // csv-stringify quotes the field (it holds a double quote) and doubles the inner quotes.
      expect(await csv.text()).toContain(`"Payment: ${reference.replace(/"/g, '""')} (card Visa •••• 1111)"`);
    } finally {
      await books.close();
    }
  });

  test("a link from the back-office API is paid signed out on a 360 px phone", async ({
    page,
    browser,
    hostRequest,
    jsEnabled,
  }) => {
    // The business mints and emails the link (POST /api/back-office/adhoc-links, adhoc:write).
    const since = Date.now();
    const minted = await hostRequest.post(`${ACME}/api/back-office/adhoc-links`, {
      headers: { authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`, "content-type": "application/json" },
      data: { account: customerStyleAccountNumber("adhoclink", project()), contact: who("adhoclink") },
    });
    expect(minted.status()).toBe(201);
    const invitation = await waitForMailVia(MAILBOX, who("adhoclink"), { since, subject: /any amount/ });
    const link = invitation.links.find((href) => href.includes("/customer/adhoc/"))!;
    // What a card adds is in the email, with the PayID that adds nothing (decision 075).
    expect(invitation.text).toMatch(/Paying by card adds [^\n]+\. A bank transfer to PayID \S+ adds nothing/);
    expect(link).toMatch(/\/customer\/adhoc\/[A-Za-z0-9_-]{59}$/);

    const phone = await browser.newContext({ javaScriptEnabled: jsEnabled, viewport: PHONE });
    try {
      const payer = await phone.newPage();
      const opened = await payer.goto(link);
      expect(opened?.status()).toBe(200);
      expect(opened?.headers()["referrer-policy"]).toBe("strict-origin");
      expect(opened?.headers()["cache-control"]).toBe("private, no-store");
      await expect(payer.getByRole("heading", { level: 1 })).toHaveText("Pay an amount");
      // Signed out, no portal around it: no menu, no account switcher.
      await expect(payer.getByRole("banner").getByText("Menu", { exact: true })).toHaveCount(0);
      // A new card only: no chooser, no saved card, no saving; the account's PayID is the other way.
      await expect(payer.getByRole("radio")).toHaveCount(0);
      await expect(payer.getByLabel(/^Save this card/)).toHaveCount(0);
      await expect(payer.getByTestId("payid")).toContainText("@pay.acme.example");
      await expect(payer.getByLabel("Amount")).toBeInViewport();
      // No total yet (the amount is the payer's to type): the button is never disabled without a
      // reason; it says "Continue" and why (issue 31).
      const next = payer.getByRole("button", { name: "Continue" });
      await expect(next).toBeEnabled();
      await expect(next).toHaveAccessibleDescription(/Nothing is charged until you confirm/);
      await expectAccessible(payer);

      const paidSince = Date.now();
      await payWithNewCard(payer, jsEnabled, "120.00", `Deposit ${project()}`);
      await expect(payer).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
      await expect(payer.getByRole("heading", { level: 1 })).toHaveText("Payment received");
      await expect(payer.getByRole("main")).toContainText(`Deposit ${project()}`);
      await expect(payer.getByRole("main")).toContainText("Payment on account");
      // Nothing of the portal from a link's receipt.
      await expect(payer.getByRole("link", { name: "Back to invoices" })).toHaveCount(0);
      await expectAccessible(payer);
      const paymentReference = payer.url().split("/").pop()!;
      const mail = await waitForMailVia(MAILBOX, who("adhoclink"), {
        since: paidSince,
        subject: new RegExp(paymentReference),
      });
      expect(mail.text).toContain("Credited to your account: $120.00");

      // "Sign in to use a saved card" with an amount and a reference typed: signed in, back on the
      // account's ad-hoc page with both (decision 077), and nothing charged on the way.
      await payer.goto(link);
      await payer.getByLabel("Amount").fill("42.50");
      await payer.getByLabel("Your reference").fill(`Job 9 ${project()}`);
      await payer.getByRole("button", { name: "Sign in to use a saved card or PayTo agreement" }).click();
      await expect(payer).toHaveURL(/\/auth\/signin\?callbackUrl=/);
      await payer.getByLabel("Email").fill(who("adhoclink"));
      await payer.getByLabel("Password").fill(PASSWORD);
      await payer.getByRole("button", { name: "Sign in" }).click();
      await expect(payer).toHaveURL(/\/payment\/adhoc\/[0-9a-f-]{36}\?amount=4250&reference=/);
      await expect(payer.getByLabel("Amount")).toHaveValue("42.50");
      await expect(payer.getByLabel("Your reference")).toHaveValue(`Job 9 ${project()}`);
    } finally {
      await phone.close();
    }

    // Another browser has no link session: the receipt needs a sign-in there.
    await page.goto(`${ACME}/`);
    // A tampered token: the one page for every link that does not check out.
    const tampered = link.slice(0, -3) + (link.endsWith("AAA") ? "BBB" : "AAA");
    const response = await page.goto(tampered);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");
    await expectAccessible(page);
  });

  test("Harbour takes no ad-hoc payments: its page says so plainly and offers no form", async ({
    page,
    hostRequest,
  }) => {
    const mia = HARBOUR_USERS.find((u) => u.email === "mia@harbour.example")!;
    await page.goto(`${HARBOUR}/auth/signin`);
    await page.getByRole("button", { name: "Continue to sign in" }).click();
    await page.getByLabel("Email").fill(mia.email);
    await page.getByLabel("Password").fill(mia.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(`${HARBOUR}/`);
    const session = (await page.context().cookies(HARBOUR)).find((c) => c.name === "portal_session")!;
    const answer = await hostRequest.get(`${HARBOUR}/api/sample/accounts`, {
      headers: { cookie: `portal_session=${session.value}` },
    });
    const accounts = (await answer.json()) as {
      accountId: string;
    }[];
    await page.goto(`${HARBOUR}/payment/adhoc/${accounts[0]!.accountId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay an amount");
    await expect(page.getByRole("main")).toContainText(
      "Harbour Energy doesn't take payments of an amount you choose here",
    );
    await expect(page.getByLabel("Amount")).toHaveCount(0);
    await expectAccessible(page);
  });
});
