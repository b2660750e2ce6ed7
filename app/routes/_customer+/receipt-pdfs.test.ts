import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { getDb, setDatabaseForTesting } from "~/services/platform/database.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { createSession } from "~/services/auth/session.server";
import { queueReceipt, renderReceiptMail } from "~/services/payments/receipts.server";
import { deliverOutboxMessage, registerAttachmentMaker } from "~/services/platform/mail-outbox.server";
import { makeReceiptPdf, RECEIPT_PDF } from "~/services/documents/receipt-attachment.server";
import type { ReceiptPageData } from "~/lib/receipt";
import { openSeededPglite } from "../../../tests/support/test-db";
import { pdfOf, statusOf } from "../../../tests/support/route-answers";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import { readPdf, rolesOf } from "../../../tests/support/pdf-reader";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { loader as receiptPage } from "./payment.complete.$slug";
import { loader as receiptPdf } from "./payment.complete.$slug_.pdf";
import { loader as linkReceiptPdf } from "../_link+/customer.receipt.$token_.pdf";

/**
 * A receipt as a PDF (issue 34): what the receipt page says, in a tagged file named for the business
 * and the payment, with exactly the page's access (signed in, or the receipt email's link); and the
 * same file attached to the receipt email, made when the email is sent.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
let fx: ReturnType<typeof paymentRequestFixtures>;
let scope: { businessId: string; accountId: string; contactId: string };
let cookie = "";
let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = paymentRequestFixtures(handle);
  scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
  cookie = await sessionOf(scope);
});
afterEach(() => {
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
  await catcher.close();
});

async function sessionOf(actor: { businessId: string; contactId: string }) {
  return (
    await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
      businessId: actor.businessId,
      contactId: actor.contactId,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
}

/** A card payment of two invoices with a surcharge, as settling records it. */
async function cardPayment(status: "succeeded" | "failed" = "succeeded") {
  const invoices = await fx.invoices(scope, [12_000, 8_050]);
  const reference = `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;
  const payment = await handle.db
    .insertInto("payments")
    .values({
      business_id: scope.businessId,
      account_id: scope.accountId,
      request_guid: randomUUID(),
      request_hash: "e".repeat(64),
      reference,
      method: "card",
      status,
      currency: "AUD",
      amount_cents: 20_351,
      subtotal_cents: 20_050,
      merchant_fee_cents: 301,
      late_fee_cents: 0,
      discount_cents: 0,
      card_brand: "visa",
      card_last4: "1111",
      note: "Paid from the site office",
      created_by: scope.contactId,
      purpose: "invoices",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto("payment_allocations")
    .values(
      invoices.map((invoice, index) => ({
        business_id: scope.businessId,
        payment_id: payment.id,
        invoice_id: invoice.id,
        amount_cents: index === 0 ? 12_000 : 8_050,
        balance_before_cents: index === 0 ? 12_000 : 8_050,
      })),
    )
    .execute();
  return { id: payment.id, reference, invoices };
}

async function run(handler: unknown, path: string, params: Record<string, string>, withCookie: string | null) {
  const request = new Request(`${ORIGIN}${path}`, {
    headers: { host: HOST, ...(withCookie ? { cookie: withCookie } : {}) },
  });
  try {
    return (await (handler as (args: object) => Promise<unknown>)({ request, params, context: {} })) as unknown;
  } catch (thrown) {
    return thrown;
  }
}

/** Every figure and word of the receipt page that a filed receipt must carry. */
function expectThePage(text: string, page: ReceiptPageData) {
  const { receipt } = page;
  for (const value of [
    receipt.reference,
    receipt.date,
    receipt.method!,
    receipt.subTotal,
    receipt.surcharge!,
    receipt.total,
    receipt.note,
    ...receipt.invoices.flatMap((invoice) => [invoice.number, invoice.amount]),
    `${page.account!.name} (${page.account!.number})`,
  ]) {
    expect(text).toContain(value);
  }
}

describe("the receipt PDF", () => {
  it("says what the receipt page says, masked as the page masks it, in a tagged file named for the payment", async () => {
    const payment = await cardPayment();
    const params = { slug: payment.reference };
    const page = (await run(receiptPage, `/payment/complete/${payment.reference}`, params, cookie)) as ReceiptPageData;
    expect(page.receipt.method).toBe("Visa •••• 1111");
    const { response, pdf } = await pdfOf(
      await run(receiptPdf, `/payment/complete/${payment.reference}/pdf`, params, cookie),
    );
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `attachment; filename="Acme-Plumbing-Supplies-Receipt-${payment.reference}.pdf"`,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const text = pdf.text.replace(/\s+/g, " ");
    expectThePage(text, page);
    expect(text).toContain("Acme Plumbing Supplies received this payment. Thank you.");
    expect(text).toContain("Card surcharge $3.01");
    expect(text).toContain("Total charged $203.51");
    expect(text).not.toMatch(/4111|\b1111 1111\b/);
    expect(pdf.title).toBe(`Receipt ${payment.reference}`);
    expect(pdf.lang).toBe("en-AU");
    expect(pdf.fontsEmbedded).toBe(true);
    const roles = pdf.trees.flatMap(rolesOf);
    expect(roles).toEqual(expect.arrayContaining(["Document", "H1", "H2", "P", "Table", "TR", "TH", "TD"]));
    expect(new Set(pdf.headerScopes)).toEqual(new Set(["/Row", "/Column"]));
  });

  it("has the page's access: another account's contact and a stranger get nothing, and a payment not taken has no file", async () => {
    const payment = await cardPayment();
    const path = `/payment/complete/${payment.reference}/pdf`;
    const params = { slug: payment.reference };
    // A contact of the same business on an account of their own.
    const account = await handle.db
      .insertInto("accounts")
      .values({ business_id: scope.businessId, name: "Another Builder", number: `OTHER-${randomUUID().slice(0, 8)}` })
      .returning("id")
      .executeTakeFirstOrThrow();
    const other = await fx.contact({ businessId: scope.businessId, accountId: account.id });
    expect(statusOf(await run(receiptPdf, path, params, await sessionOf(other.scope)))).toBe(404);
    // Signed out: to sign in, no file.
    const signedOut = (await run(receiptPdf, path, params, null)) as Response;
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/auth\/signin/);
    // An unknown reference, and a payment that was declined.
    expect(
      statusOf(await run(receiptPdf, "/payment/complete/PAY-0000000000/pdf", { slug: "PAY-0000000000" }, cookie)),
    ).toBe(404);
    const declined = await cardPayment("failed");
    expect(
      statusOf(
        await run(receiptPdf, `/payment/complete/${declined.reference}/pdf`, { slug: declined.reference }, cookie),
      ),
    ).toBe(404);
  });

  it("opens from the receipt email's link as its page does, and a tampered token gets nothing", async () => {
    const payment = await cardPayment();
    const mail = await renderReceiptMail(await getDb(), scope.businessId, payment.id);
    const token = /\/customer\/receipt\/([A-Za-z0-9_.-]+)/.exec(mail!.text)![1]!;
    const { pdf } = await pdfOf(await run(linkReceiptPdf, `/customer/receipt/${token}/pdf`, { token }, null));
    expect(pdf.text).toContain(payment.reference);
    // The link is never written into the file.
    expect(pdf.text).not.toContain(token);
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect(statusOf(await run(linkReceiptPdf, `/customer/receipt/${tampered}/pdf`, { token: tampered }, null))).toBe(
      404,
    );
  });
});

describe("the receipt email's PDF", () => {
  it("is attached when the email is sent, the same receipt, named for the payment", async () => {
    process.env.SMTP_URL = catcher.smtpUrl;
    resetEnvForTesting();
    registerAttachmentMaker(RECEIPT_PDF, makeReceiptPdf);
    const payment = await cardPayment();
    const queued = await handle.db.transaction().execute((tx) => queueReceipt(tx, scope.businessId, payment.id));
    const after = catcher.messages.length;
    expect((await deliverOutboxMessage(queued.id)).outcome).toBe("sent");
    const mail = await catcher.waitForMail("olivia@coastal.example", { after, subject: new RegExp(payment.reference) });
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment!.filename).toBe(`Acme-Plumbing-Supplies-Receipt-${payment.reference}.pdf`);
    expect(attachment!.contentType).toBe("application/pdf");
    const pdf = await readPdf(new Uint8Array(Buffer.from(attachment!.base64, "base64")));
    const text = pdf.text.replace(/\s+/g, " ");
    expect(text).toContain(`Receipt ${payment.reference}`);
    expect(text).toContain("Total charged $203.51");
    expect(text).toContain(payment.invoices[0]!.number);
    // What the email's text says, the file says.
    expect(mail.text).toContain("Total charged: $203.51");
  });

  it("goes without its PDF, never late, when the file cannot be made", async () => {
    process.env.SMTP_URL = catcher.smtpUrl;
    resetEnvForTesting();
    registerAttachmentMaker(RECEIPT_PDF, async () => {
      throw new Error("a broken logo");
    });
    try {
      const payment = await cardPayment();
      const queued = await handle.db.transaction().execute((tx) => queueReceipt(tx, scope.businessId, payment.id));
      const after = catcher.messages.length;
      expect((await deliverOutboxMessage(queued.id)).outcome).toBe("sent");
      const mail = await catcher.waitForMail("olivia@coastal.example", {
        after,
        subject: new RegExp(payment.reference),
      });
      expect(mail.attachments).toEqual([]);
      expect(mail.text).toContain(payment.reference);
    } finally {
      registerAttachmentMaker(RECEIPT_PDF, makeReceiptPdf);
    }
  });
});
