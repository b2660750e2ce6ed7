import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { checkLinkToken, rememberLinkInBrowser } from "~/services/links/link-tokens.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import { loader } from "./payment.complete.$slug";

/**
 * A rejected PayTo payment's receipt offers to pay the same thing again (issue 14): the same
 * invoices, the payment request's own page, or the account's ad-hoc page; a browser that paid
 * from an emailed link is told to use the link in its email (the receipt never holds a token).
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
let fx: ReturnType<typeof paymentRequestFixtures>;
let scope: { businessId: string; accountId: string; contactId: string };
let cookie: string;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = paymentRequestFixtures(handle);
  scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
  const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
  cookie = (
    await createSession(request, {
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

/** A PayTo payment the payer's bank rejected. */
async function rejected(input: {
  purpose: "invoices" | "request" | "adhoc";
  requestId?: string;
  invoiceId?: string;
  linkTokenId?: string;
}) {
  const reference = `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;
  const payment = await handle.db
    .insertInto("payments")
    .values({
      business_id: scope.businessId,
      account_id: scope.accountId,
      request_guid: randomUUID(),
      request_hash: "c".repeat(64),
      reference,
      method: "payto",
      status: "failed",
      failure_code: "declined",
      currency: "AUD",
      amount_cents: 2_000,
      subtotal_cents: 2_000,
      merchant_fee_cents: 0,
      late_fee_cents: 0,
      discount_cents: 0,
      note: "",
      created_by: scope.contactId,
      purpose: input.purpose,
      payment_request_id: input.requestId ?? null,
      link_token_id: input.linkTokenId ?? null,
      payer_reference: input.purpose === "adhoc" ? "Deposit" : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (input.invoiceId) {
    await handle.db
      .insertInto("payment_allocations")
      .values({
        payment_id: payment.id,
        invoice_id: input.invoiceId,
        business_id: scope.businessId,
        amount_cents: 2_000,
        discount_cents: 0,
        late_fee_cents: 0,
        balance_before_cents: 2_000,
      })
      .execute();
  }
  return reference;
}

async function receipt(reference: string, headers: Record<string, string>) {
  const data = (await loader({
    request: new Request(`${ORIGIN}/payment/complete/${reference}`, { headers: { host: HOST, ...headers } }),
    params: { slug: reference },
    context: {},
  })) as { viaLink: boolean; receipt: { payAgain: { kind: string; href: string | null } } };
  return data;
}

describe("a rejected PayTo payment's 'pay again'", () => {
  it("goes back to what it paid for: the invoices, the request's page, the account's ad-hoc page", async () => {
    const [invoice] = await fx.invoices(scope, [2_000]);
    const invoices = await rejected({ purpose: "invoices", invoiceId: invoice!.id });
    expect((await receipt(invoices, { cookie })).receipt.payAgain).toEqual({
      kind: "invoices",
      href: `/customer/invoices-and-payments/pay?invoice=${invoice!.id}`,
    });

    // A request of invoices (its payments' purpose is "invoices") and of a stated amount alike.
    const [asked] = await fx.invoices(scope, [2_000]);
    const ofInvoices = await fx.request(scope, { invoices: [asked!] });
    const ofAmount = await fx.request(scope, { amountCents: 2_000 });
    for (const [request, purpose, invoiceId] of [
      [ofInvoices, "invoices", asked!.id],
      [ofAmount, "request", undefined],
    ] as const) {
      const reference = await rejected({ purpose, requestId: request.id, invoiceId });
      expect((await receipt(reference, { cookie })).receipt.payAgain).toEqual({
        kind: "request",
        href: `/payment/payment-request/${request.reference}`,
      });
    }

    const adhoc = await rejected({ purpose: "adhoc" });
    expect((await receipt(adhoc, { cookie })).receipt.payAgain).toEqual({
      kind: "adhoc",
      href: `/payment/adhoc/${scope.accountId}`,
    });
  });

  it("sends a browser that paid from an emailed link back to its email, with no token on the page", async () => {
    const request = await fx.request(scope, { amountCents: 2_000 });
    const { token } = await fx.link(scope, request.id);
    const check = await checkLinkToken(scope.businessId, "payment-request", token);
    if (check.status !== "valid") throw new Error("the link should be valid");
    const reference = await rejected({ purpose: "request", requestId: request.id, linkTokenId: check.link.id });
    const browser = new Request(`${ORIGIN}/customer/payment-request/${token}`, { headers: { host: HOST } });
    const linkCookie = (await rememberLinkInBrowser(browser, check.link)).split(";")[0]!;
    const page = await receipt(reference, { cookie: linkCookie });
    expect(page.viaLink).toBe(true);
    expect(page.receipt.payAgain).toEqual({ kind: "request", href: null });
    expect(JSON.stringify(page)).not.toContain(token.slice(6));
  });
});
