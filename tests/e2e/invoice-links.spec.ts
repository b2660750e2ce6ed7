import { ACME, MAILBOX, PHONE, expect, test } from "./fixtures";
import { waitForMailVia } from "../support/mailbox";
import { DEMO_API_KEYS } from "../../db/seed/demo";

/**
 * A single-invoice link (issue 31; decision 074), with JavaScript and without: the business emails it
 * through the back-office API, the contact opens it signed out on a 360 px phone and sees that invoice
 * with the amount the email stated; once revoked, the same link says only that it no longer works.
 */
const INVOICE = "ACME-1000-INV-024";
const CONTACT = "olivia@coastal.example";
const headers = { authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`, "content-type": "application/json" };

test("an emailed invoice link opens that invoice signed out, until it is revoked", async ({
  browser,
  hostRequest,
  jsEnabled,
}) => {
  const since = Date.now();
  const made = await hostRequest.post(`${ACME}/api/back-office/invoice-links`, {
    headers,
    data: { invoice: INVOICE, recipients: [CONTACT] },
  });
  expect(made.status()).toBe(201);
  const mail = await waitForMailVia(MAILBOX, CONTACT, { since, subject: new RegExp(INVOICE) });
  const owing = /(\$[\d,]+\.\d{2}) due [A-Z][a-z]{2} \d{1,2}, \d{4}$/.exec(mail.subject)![1]!;
  const link = mail.links.find((href) => href.includes("/customer/invoices-and-payments/"))!;
  expect(link).toMatch(/\/customer\/invoices-and-payments\/[A-Za-z0-9_-]{59}$/);

  const phone = await browser.newContext({ javaScriptEnabled: jsEnabled, viewport: PHONE });
  try {
    const payer = await phone.newPage();
    const opened = await payer.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()["referrer-policy"]).toBe("strict-origin");
    await expect(payer.getByRole("main")).toContainText(INVOICE);
    await expect(payer.getByRole("main")).toContainText(owing);
    await expect(payer.getByRole("heading", { name: "Pay this invoice" })).toBeVisible();

    const revoked = await hostRequest.post(`${ACME}/api/back-office/invoice-links/revoke`, {
      headers,
      data: { invoice: INVOICE, contact: CONTACT },
    });
    expect(revoked.status()).toBe(200);
    expect(((await revoked.json()) as { revoked: number }).revoked).toBe(1);
    await payer.goto(link);
    await expect(payer.getByRole("heading", { level: 1 })).toHaveText("This link no longer works");
    await expect(payer.getByRole("main")).not.toContainText(owing);
  } finally {
    await phone.close();
  }
});
