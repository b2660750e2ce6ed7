import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { getDb, setDatabaseForTesting } from "~/services/platform/database.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { createSession } from "~/services/auth/session.server";
import { checkLinkToken, rememberLinkInBrowser } from "~/services/links/link-tokens.server";
import { renderReceiptMail } from "~/services/payments/receipts.server";
import { RECEIPT_LINK_DAYS, signReceiptLink } from "~/services/payments/receipt-links.server";
import type { ReceiptPageData } from "~/lib/receipt";
import { redactLinkPath } from "~/lib/link-paths";
import { openSeededPglite } from "../../../tests/support/test-db";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import { headers as receiptHeaders, loader } from "./customer.receipt.$token";
import { loader as completeLoader } from "../_customer+/payment.complete.$slug";
import { loader as rootLoader } from "../../root";

/**
 * A receipt from its email (issue 31; decision 076): the email carries a signed link that opens
 * that one receipt with no session and no cookie; a part payment's receipt (email and page) says
 * what is still owing and how to pay the rest; a token that does not check out is the one "This
 * link isn't valid" page.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
let fx: ReturnType<typeof paymentRequestFixtures>;
let scope: { businessId: string; accountId: string; contactId: string };
let kiwiBusiness: string;
let session: string;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = paymentRequestFixtures(handle);
  scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
  kiwiBusiness = (
    await handle.db
      .selectFrom("hosts")
      .select("business_id")
      .where("hostname", "=", "kiwi.localhost")
      .executeTakeFirstOrThrow()
  ).business_id;
  session = (
    await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
      businessId: scope.businessId,
      contactId: scope.contactId,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});
afterEach(() => setClockForTesting(undefined));

/** A succeeded card payment of part of a stated-amount request, as settling records it. */
async function partPayment(input: { paidCents: number; linkTokenId?: string; requestId: string }) {
  const reference = `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;
  const payment = await handle.db
    .insertInto("payments")
    .values({
      business_id: scope.businessId,
      account_id: scope.accountId,
      request_guid: randomUUID(),
      request_hash: "d".repeat(64),
      reference,
      method: "card",
      status: "succeeded",
      currency: "AUD",
      amount_cents: input.paidCents,
      subtotal_cents: input.paidCents,
      merchant_fee_cents: 0,
      late_fee_cents: 0,
      discount_cents: 0,
      card_brand: "visa",
      card_last4: "1111",
      note: "",
      created_by: scope.contactId,
      purpose: "request",
      payment_request_id: input.requestId,
      link_token_id: input.linkTokenId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await handle.db
    .updateTable("payment_requests")
    .set((eb) => ({ paid_cents: eb("paid_cents", "+", input.paidCents) }))
    .where("id", "=", input.requestId)
    .execute();
  return { id: payment.id, reference };
}

type Answer = { status: number; headers: Headers; data: ReceiptPageData & { reason?: string } };

async function open(token: string, init: { host?: string; cookie?: string } = {}): Promise<Answer> {
  const host = init.host ?? HOST;
  const request = new Request(`http://${host}/customer/receipt/${token}`, {
    headers: { host, ...(init.cookie ? { cookie: init.cookie } : {}) },
  });
  try {
    return {
      status: 200,
      headers: new Headers(),
      data: (await loader({ request, params: { token }, context: {} })) as never,
    };
  } catch (thrown) {
    const wrapped = thrown as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (wrapped?.type === "DataWithResponseInit") {
      return {
        status: wrapped.init?.status ?? 200,
        headers: new Headers(wrapped.init?.headers),
        data: wrapped.data as never,
      };
    }
    if (thrown instanceof Response) return { status: thrown.status, headers: thrown.headers, data: {} as never };
    throw thrown;
  }
}

/** The receipt email as it is sent, and the token of its receipt link. */
async function receiptMail(paymentId: string) {
  const mail = await renderReceiptMail(await getDb(), scope.businessId, paymentId);
  if (!mail) throw new Error("a receipt should be rendered");
  const token = /\/customer\/receipt\/([A-Za-z0-9_.-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error("the receipt email should carry its signed link");
  return { mail, token };
}

describe("the receipt email's signed link", () => {
  it("opens that receipt alone, with no session and no cookie, and says what is still owing on the request", async () => {
    const request = await fx.request(scope, { amountCents: 10_000, allowPartPayment: true });
    const link = await fx.link(scope, request.id);
    const payment = await partPayment({ requestId: request.id, paidCents: 4_000, linkTokenId: link.id });
    const { mail, token } = await receiptMail(payment.id);

    // The email: the signed link (never the signed-in receipt's), what is owing and how to pay it.
    expect(mail.text).toContain(`/customer/receipt/${token}`);
    expect(mail.text).not.toContain("/payment/complete/");
    expect(mail.html).toContain(`/customer/receipt/${token}`);
    expect(mail.text).toContain(`Still owing on payment request ${request.reference}: $60.00`);
    expect(mail.text).toContain("To pay the rest, open the link in the email you paid from again.");
    expect(mail.html).toContain(`Still owing on payment request ${request.reference}: $60.00`);
    // The request link's token is stored hashed: the receipt cannot carry it, and does not.
    expect(mail.text).not.toContain(link.token);

    const page = await open(token);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      viaLink: true,
      fromEmail: true,
      receipt: {
        reference: payment.reference,
        forRequest: { reference: request.reference },
        total: "$40.00",
        owing: { amount: "$60.00", on: "request", reference: request.reference, href: null },
      },
    });
    expect(receiptHeaders({} as never)).toMatchObject({ "Cache-Control": "private, no-store" });
    // The shell shows the brand only, even to a browser signed in: no way into the account.
    const root = (await rootLoader({
      request: new Request(`${ORIGIN}/customer/receipt/${token}`, { headers: { host: HOST, cookie: session } }),
      params: {},
      context: {},
    })) as { user: unknown };
    expect(root.user).toBeNull();
    // Logs keep six characters of it.
    expect(redactLinkPath(`/customer/receipt/${token}`)).toBe(`/customer/receipt/${token.slice(0, 6)}…`);
  });

  it("leads the browser that paid from the link back to it; the email's link does too in that browser", async () => {
    const request = await fx.request(scope, { amountCents: 10_000, allowPartPayment: true });
    const link = await fx.link(scope, request.id);
    const check = await checkLinkToken(scope.businessId, "payment-request", link.token);
    if (check.status !== "valid") throw new Error("the link should be valid");
    const payment = await partPayment({ requestId: request.id, paidCents: 2_500, linkTokenId: link.id });
    const browser = new Request(`${ORIGIN}/customer/payment-request/${link.token}`, { headers: { host: HOST } });
    const cookie = (await rememberLinkInBrowser(browser, check.link, link.token)).split(";")[0]!;
    const back = { amount: "$75.00", on: "request", href: `/customer/payment-request/${link.token}` };

    const complete = (await completeLoader({
      request: new Request(`${ORIGIN}/payment/complete/${payment.reference}`, { headers: { host: HOST, cookie } }),
      params: { slug: payment.reference },
      context: {},
    })) as ReceiptPageData;
    expect(complete).toMatchObject({ viaLink: true, receipt: { owing: back } });

    const { token } = await receiptMail(payment.id);
    expect((await open(token, { cookie })).data.receipt.owing).toMatchObject(back);
    // A browser that kept another link's token has no way back to this one.
    const other = await fx.link(scope, request.id);
    const otherCheck = await checkLinkToken(scope.businessId, "payment-request", other.token);
    if (otherCheck.status !== "valid") throw new Error("the link should be valid");
    const otherCookie = (await rememberLinkInBrowser(browser, otherCheck.link, other.token)).split(";")[0]!;
    expect((await open(token, { cookie: otherCookie })).data.receipt.owing).toMatchObject({ href: null });
  });

  it("sends a signed-in payer to the request's pay page, in the email and on the page", async () => {
    const request = await fx.request(scope, { amountCents: 9_000, allowPartPayment: true });
    const payment = await partPayment({ requestId: request.id, paidCents: 3_000 });
    const { mail } = await receiptMail(payment.id);
    expect(mail.text).toContain(`Still owing on payment request ${request.reference}: $60.00`);
    expect(mail.text).toMatch(
      new RegExp(`Pay the rest: https?://[^\\s]+/payment/payment-request/${request.reference}`),
    );
    expect(mail.html).toMatch(new RegExp(`href="https?://[^"]+/payment/payment-request/${request.reference}"`));
    const complete = (await completeLoader({
      request: new Request(`${ORIGIN}/payment/complete/${payment.reference}`, {
        headers: { host: HOST, cookie: session },
      }),
      params: { slug: payment.reference },
      context: {},
    })) as ReceiptPageData;
    expect(complete.receipt.owing).toEqual({
      amount: "$60.00",
      on: "request",
      reference: request.reference,
      href: `/payment/payment-request/${request.reference}`,
    });
  });

  it("says nothing is owing when the payment paid the rest", async () => {
    const request = await fx.request(scope, { amountCents: 5_000 });
    const payment = await partPayment({ requestId: request.id, paidCents: 5_000 });
    const { mail, token } = await receiptMail(payment.id);
    expect(mail.text).not.toContain("Still owing");
    expect((await open(token)).data.receipt.owing).toBeNull();
  });

  it("is 'This link isn't valid' (404) when tampered, expired, another host's, too long or malformed", async () => {
    const request = await fx.request(scope, { amountCents: 10_000, allowPartPayment: true });
    const payment = await partPayment({ requestId: request.id, paidCents: 1_000 });
    const clock = fixedClock(new Date());
    setClockForTesting(clock);
    const { token } = await receiptMail(payment.id);
    expect((await open(token)).status).toBe(200);

    const invalid = async (candidate: string, host?: string) => {
      const answer = await open(candidate, { host, cookie: session });
      expect(answer.status, candidate.slice(0, 40)).toBe(404);
      expect(answer.data).toEqual({ reason: "link-invalid" });
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
    };
    // Tampered: the MAC's last character changed; another payment's id under this MAC.
    await invalid(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"));
    const otherPayment = await partPayment({ requestId: request.id, paidCents: 1_000 });
    const otherId = signReceiptLink(scope.businessId, otherPayment.id).split(".")[0]!;
    await invalid(`${otherId}.${token.split(".").slice(1).join(".")}`);
    // Another host: kiwi's business cannot open acme's receipt, nor acme kiwi's.
    await invalid(token, "kiwi.localhost");
    await invalid(signReceiptLink(kiwiBusiness, payment.id));
    // A token for a payment id no business has.
    await invalid(signReceiptLink(scope.businessId, randomUUID()));
    // Too long and malformed: refused before any work.
    await invalid("x".repeat(10_000));
    await invalid(`${token}${"A".repeat(100)}`);
    await invalid("not-a-token");
    await invalid(`${token}/../..`);
    // Expired: the portal's clock moved past its days.
    clock.advanceDays(RECEIPT_LINK_DAYS);
    await invalid(token);
  });

  it("no longer opens once its payer may not act for the account (decision 031's rule for every link)", async () => {
    const payer = await fx.contact(scope);
    const request = await fx.request(scope, { amountCents: 10_000, allowPartPayment: true });
    const payment = await partPayment({ requestId: request.id, paidCents: 1_000 });
    await handle.db
      .updateTable("payments")
      .set({ created_by: payer.scope.contactId })
      .where("id", "=", payment.id)
      .execute();
    const token = signReceiptLink(scope.businessId, payment.id);
    expect((await open(token)).status).toBe(200);
    await payer.unlink();
    expect((await open(token)).status).toBe(404);
    await payer.relink();
    expect((await open(token)).status).toBe(200);
  });
});
