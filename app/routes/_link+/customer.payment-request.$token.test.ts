import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { revokeLinkTokens } from "~/services/links/link-tokens.server";
import { getPaymentRequest } from "~/services/requests/queries.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import { action, loader } from "./customer.payment-request.$token";
import { loader as invoiceLoader } from "./customer.payment-request.$token_.invoice.$invoiceId";
import { action as signedInAction, loader as signedInLoader } from "../_customer+/payment.payment-request.$slug";
import { loader as receiptLoader } from "../_customer+/payment.complete.$slug";
import { loader as rootLoader } from "../../root";

/**
 * Paying a payment request from its emailed link (issue 14; decision 031), through the route's
 * loader and action with real Requests: what a link shows, what a token that does not check out
 * gets, the states that take no money, part and full payments, two tabs, bad amounts, the
 * request's invoices under the link, the signed-in page and the receipt's link session.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1);
const CARD = {
  cardNumber: "4111111111111111",
  cardHolderName: "Pat Payer",
  expiryMonth: "12",
  expiryYear: nextYear,
  cvn: "123",
};

let handle: DatabaseHandle;
let fx: ReturnType<typeof paymentRequestFixtures>;
/** Olivia's account ACME-1000; the link is sent to Olivia. */
let scope: { businessId: string; accountId: string; contactId: string };
/** Another account's contact at the same business (aroha is kiwi's; sam sees ACME-1000 too). */
let other: { businessId: string; accountId: string; contactId: string };
const cookies: Record<string, string> = {};

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = paymentRequestFixtures(handle);
  scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
  const otherAccount = await handle.db
    .selectFrom("accounts")
    .select("id")
    .where("business_id", "=", scope.businessId)
    .where("number", "=", "ACME-2000")
    .executeTakeFirstOrThrow();
  // A contact of another account only: made here, so nothing else depends on it.
  const stranger = await handle.db
    .insertInto("contacts")
    .values({
      business_id: scope.businessId,
      email: `stranger-${randomUUID().slice(0, 8)}@elsewhere.example`,
      first_name: "Sid",
      last_name: "Stranger",
      position: "Buyer",
      verified_at: new Date(),
      permissions: ["accessCustomerPortal"],
      password_hash: null,
      external_subject: null,
      disabled_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto("account_contacts")
    .values({ business_id: scope.businessId, account_id: otherAccount.id, contact_id: stranger.id, role: "contact" })
    .execute();
  other = { businessId: scope.businessId, accountId: otherAccount.id, contactId: stranger.id };
  for (const [who, contactId] of [
    ["olivia", scope.contactId],
    ["stranger", stranger.id],
  ] as const) {
    const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
    cookies[who] = (
      await createSession(request, { businessId: scope.businessId, contactId, authMethod: "credentials" })
    ).split(";")[0]!;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;

/** Runs a loader or action; a thrown Response or `data(...)` is an answer too. */
async function run(handler: unknown, request: Request, params: Record<string, string> = {}) {
  try {
    return answer(await (handler as Handler)({ request, params, context: {} }));
  } catch (thrown) {
    return answer(thrown);
  }
}

type Answer = {
  status: number;
  location: string | null;
  headers: Headers;
  data: Record<string, unknown> & { reason?: string; kind?: string };
};
function answer(result: unknown): Answer {
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("location"), headers: result.headers, data: {} };
  }
  const wrapped = result as { type?: string; data?: Record<string, unknown>; init?: ResponseInit | null };
  if (wrapped && wrapped.type === "DataWithResponseInit") {
    return {
      status: wrapped.init?.status ?? 200,
      location: null,
      headers: new Headers(wrapped.init?.headers),
      data: wrapped.data as Answer["data"],
    };
  }
  return { status: 200, location: null, headers: new Headers(), data: result as Answer["data"] };
}

const get = (path: string, headers: Record<string, string> = {}, host = HOST) =>
  new Request(`http://${host}${path}`, { headers: { host, ...headers } });
const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { host: HOST, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });

const requestRow = (id: string) =>
  handle.db.selectFrom("payment_requests").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const paymentsOf = (id: string) =>
  handle.db.selectFrom("payments").selectAll().where("payment_request_id", "=", id).execute();

/** A quote for the form as typed, then a pay of exactly the quoted total. */
async function pay(token: string, form: Record<string, string>, extra: Record<string, string> = {}) {
  const path = `/customer/payment-request/${token}`;
  const quote = await run(action, post(path, { ...form, method: "new", cardPrefix: "41111111", intent: "quote" }), {
    token,
  });
  const total = (quote.data.breakdown as { totalCents: number } | null)?.totalCents;
  return run(
    action,
    post(
      path,
      {
        ...form,
        ...CARD,
        method: "new",
        intent: "pay",
        requestGuid: randomUUID(),
        expectedAmount: String(total ?? ""),
      },
      extra,
    ),
    { token },
  );
}

describe("opening a payment request's link", () => {
  it("shows the request, its invoices and the pay form with no session, counts the opening and marks it opened", async () => {
    const invoices = await fx.invoices(scope, [12_000, 8_050]);
    const request = await fx.request(scope, { invoices });
    const { id: linkId, token } = await fx.link(scope, request.id);
    const page = await run(loader, get(`/customer/payment-request/${token}`), { token });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      kind: "open",
      request: { reference: request.reference, owing: "$200.50", remaining: "200.50", partPayment: null },
      methods: { cards: [], agreements: [], promise: false, saveCard: false },
      method: { kind: "new" },
      signInHref: `/payment/payment-request/${request.reference}`,
    });
    const listed = page.data.invoices as { number: string; href: string }[];
    expect(listed.map((i) => i.number)).toEqual(invoices.map((i) => i.number));
    expect(listed[0]!.href).toBe(`/customer/payment-request/${token}/invoice/${invoices[0]!.id}`);
    const link = await handle.db
      .selectFrom("link_tokens")
      .selectAll()
      .where("id", "=", linkId)
      .executeTakeFirstOrThrow();
    expect(link.open_count).toBe(1);
    expect((await requestRow(request.id)).opened_at).not.toBeNull();
    // Opening spends nothing: the same link opens again.
    expect((await run(loader, get(`/customer/payment-request/${token}`), { token })).status).toBe(200);
  });

  it("answers every token that does not check out with one 'link isn't valid' 404, and nothing moves", async () => {
    const request = await fx.request(scope, { amountCents: 5_000 });
    const { token } = await fx.link(scope, request.id);
    const invoiceLink = await fx.link(scope, request.id, { purpose: "invoice" });
    const tampered = `${token.slice(0, 20)}${token[20] === "A" ? "B" : "A"}${token.slice(21)}`;
    const bad = [
      token.slice(0, 58), // truncated
      `${token}x`, // too long
      tampered,
      randomBytes(45).toString("base64url").slice(0, 59), // guessed
      invoiceLink.token, // another purpose
      "not-a-token",
      "%3Cscript%3E",
      "' OR 1=1 --",
      "ÿ".repeat(59),
    ];
    for (const candidate of bad) {
      const answer = await run(loader, get(`/customer/payment-request/${encodeURIComponent(candidate)}`), {
        token: candidate,
      });
      expect([answer.status, answer.data.reason], candidate).toEqual([404, "link-invalid"]);
      expect(answer.headers.get("referrer-policy")).toBe("strict-origin");
      const posted = await run(action, post(`/customer/payment-request/x`, { intent: "pay", amount: "50" }), {
        token: candidate,
      });
      expect([posted.status, posted.data.reason]).toEqual([404, "link-invalid"]);
    }
    // The real token on another business's host is not found either.
    const kiwi = await run(loader, get(`/customer/payment-request/${token}`, {}, "kiwi.localhost"), { token });
    expect([kiwi.status, kiwi.data.reason]).toEqual([404, "link-invalid"]);
    expect(await paymentsOf(request.id)).toHaveLength(0);
    expect((await requestRow(request.id)).opened_at).toBeNull();
  });

  it("says plainly when the request is paid, expired, cancelled or replaced by a newer link, with whom to ask", async () => {
    const expiredRequest = await fx.request(scope, { amountCents: 1_000, expiresAt: new Date(Date.now() - 1_000) });
    const expired = await fx.link(scope, expiredRequest.id, { expiresAt: new Date(Date.now() - 1_000) });
    const cancelledRequest = await fx.request(scope, { amountCents: 1_000, status: "cancelled" });
    const cancelled = await fx.link(scope, cancelledRequest.id);
    await revokeLinkTokens(handle.db, {
      businessId: scope.businessId,
      purpose: "payment-request",
      subjectId: cancelledRequest.id,
    });
    const paidRequest = await fx.request(scope, { amountCents: 1_000, status: "paid" });
    const paid = await fx.link(scope, paidRequest.id);
    const resentRequest = await fx.request(scope, { amountCents: 1_000 });
    const replaced = await fx.link(scope, resentRequest.id);
    await revokeLinkTokens(handle.db, {
      businessId: scope.businessId,
      purpose: "payment-request",
      subjectId: resentRequest.id,
    });
    const newer = await fx.link(scope, resentRequest.id);
    for (const [token, reason] of [
      [expired.token, "expired"],
      [cancelled.token, "cancelled"],
      [paid.token, "paid"],
      [replaced.token, "replaced"],
    ] as const) {
      const page = await run(loader, get(`/customer/payment-request/${token}`), { token });
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({
        kind: "closed",
        reason,
        contact: { email: "accounts@acme.example" },
      });
      expect(page.data).not.toHaveProperty("requestGuid");
      // And nothing can be paid there.
      const attempt = await pay(token, { amount: "10.00" });
      expect(attempt.status).toBe(409);
      expect(attempt.data.message).toBe("request.error.closed");
    }
    expect((await run(loader, get(`/customer/payment-request/${newer.token}`), { token: newer.token })).data.kind).toBe(
      "open",
    );
    const none = await handle.db
      .selectFrom("payments")
      .select("id")
      .where("payment_request_id", "in", [expiredRequest.id, cancelledRequest.id, paidRequest.id, resentRequest.id])
      .execute();
    expect(none).toHaveLength(0);
  });
});

describe("a request with something owing that cannot be paid now", () => {
  it("is not 'paid' while an invoice it asked for is on hold: it says to ask the business", async () => {
    const [a, b] = await fx.invoices(scope, [3_000, 4_000]);
    const request = await fx.request(scope, { invoices: [a!, b!], allowPartPayment: true });
    const { token } = await fx.link(scope, request.id);
    const path = `/customer/payment-request/${token}`;
    await handle.db.updateTable("invoices").set({ status: 5 }).where("id", "=", b!.id).execute();
    const page = await run(loader, get(path), { token });
    expect(page.data).toMatchObject({ kind: "open", request: { owing: "$30.00" } });
    expect((await pay(token, { amount: "30.00" })).status).toBe(302);

    const after = await run(loader, get(path), { token });
    expect(after.data).toMatchObject({ kind: "closed", reason: "onHold", reference: request.reference });
    // The engine agrees: nothing is paid of the held invoice, and the request is not paid.
    expect((await requestRow(request.id)).status).toBe("sent");
    const view = (await getPaymentRequest(scope.businessId, request.id))!;
    expect(view).toMatchObject({ state: "part-paid", remainingCents: 4_000 });
    const attempt = await pay(token, { amount: "1.00" });
    expect([attempt.status, attempt.data.message]).toEqual([409, "request.error.closed"]);

    // Taken off hold, the rest can be paid from the same link.
    await handle.db.updateTable("invoices").set({ status: 1 }).where("id", "=", b!.id).execute();
    expect((await run(loader, get(path), { token })).data).toMatchObject({
      kind: "open",
      request: { owing: "$40.00" },
    });
  });

  it("is not 'paid' while payments still being processed hold all of it: it says so, and opens again if they fail", async () => {
    const request = await fx.request(scope, { amountCents: 10_000 });
    const { token } = await fx.link(scope, request.id);
    const path = `/customer/payment-request/${token}`;
    const held = await handle.db
      .insertInto("payments")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        request_guid: randomUUID(),
        request_hash: "a".repeat(64),
        reference: `PAY-${randomUUID().slice(0, 10).toUpperCase()}`,
        method: "payto",
        status: "submitted",
        currency: "AUD",
        amount_cents: 10_000,
        subtotal_cents: 10_000,
        merchant_fee_cents: 0,
        late_fee_cents: 0,
        discount_cents: 0,
        note: "",
        created_by: scope.contactId,
        purpose: "request",
        payment_request_id: request.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const page = await run(loader, get(path), { token });
    expect(page.data).toMatchObject({ kind: "closed", reason: "processing" });
    expect((await getPaymentRequest(scope.businessId, request.id))!.state).not.toBe("paid");
    const attempt = await pay(token, { amount: "100.00" });
    expect([attempt.status, attempt.data.message]).toEqual([409, "request.error.closed"]);

    await handle.db.updateTable("payments").set({ status: "failed" }).where("id", "=", held.id).execute();
    expect((await run(loader, get(path), { token })).data).toMatchObject({
      kind: "open",
      request: { owing: "$100.00" },
    });
  });

  it("reads as paid when its invoices were paid some other way", async () => {
    const [invoice] = await fx.invoices(scope, [2_500]);
    const request = await fx.request(scope, { invoices: [invoice!] });
    const { token } = await fx.link(scope, request.id);
    await handle.db
      .updateTable("invoices")
      .set({ balance_cents: 0, status: 2 })
      .where("id", "=", invoice!.id)
      .execute();
    const page = await run(loader, get(`/customer/payment-request/${token}`), { token });
    expect(page.data).toMatchObject({ kind: "closed", reason: "paid" });
  });
});

describe("a link whose contact has left the account", () => {
  it("is withdrawn once its contact is removed from the account or disabled: loader, invoices and action alike", async () => {
    const payer = await fx.contact(scope);
    const invoices = await fx.invoices(scope, [7_000]);
    const request = await fx.request(scope, { invoices });
    const paidRequest = await fx.request(scope, { amountCents: 1_000, status: "paid" });
    const { token } = await fx.link(payer.scope, request.id);
    const paidLink = await fx.link(payer.scope, paidRequest.id);
    const path = `/customer/payment-request/${token}`;
    expect((await run(loader, get(path), { token })).data.kind).toBe("open");

    const withdrawn = async () => {
      const page = await run(loader, get(path), { token });
      expect(page.status).toBe(200);
      // The reason, the reference and whom to ask: nothing owing, no invoices, no form.
      expect(page.data).toEqual({
        kind: "closed",
        reason: "withdrawn",
        reference: request.reference,
        businessName: expect.any(String),
        contact: { email: "accounts@acme.example", phone: expect.anything() },
      });
      // Withdrawn before anything about the request (its being paid, say).
      const other = await run(loader, get(`/customer/payment-request/${paidLink.token}`), { token: paidLink.token });
      expect(other.data).toMatchObject({ kind: "closed", reason: "withdrawn" });
      const invoice = await run(invoiceLoader, get(`${path}/invoice/${invoices[0]!.id}`), {
        token,
        invoiceId: invoices[0]!.id,
      });
      expect([invoice.status, invoice.location]).toEqual([302, path]);
      const attempt = await pay(token, {});
      expect([attempt.status, attempt.data.message]).toEqual([409, "request.error.closed"]);
      expect(await paymentsOf(request.id)).toHaveLength(0);
    };

    await payer.unlink();
    await withdrawn();
    await payer.relink();
    await payer.disable();
    await withdrawn();
    // Back on the account and enabled: the same link works again.
    await payer.enable();
    expect((await run(loader, get(path), { token })).data.kind).toBe("open");
    expect((await pay(token, {})).status).toBe(302);
    expect(await paymentsOf(request.id)).toHaveLength(1);
  });
});

describe("paying from the link", () => {
  it("pays in part (at least the minimum), then the rest; the link's contact pays, the browser may see the receipt", async () => {
    const invoices = await fx.invoices(scope, [30_000, 20_000]);
    const request = await fx.request(scope, { invoices, allowPartPayment: true, minPartPaymentCents: 10_000 });
    const { id: linkId, token } = await fx.link(scope, request.id);
    const page = await run(loader, get(`/customer/payment-request/${token}`), { token });
    expect(page.data).toMatchObject({ request: { partPayment: { min: "$100.00" } } });

    const part = await pay(token, { amount: "120.00" });
    expect(part.status).toBe(302);
    expect(part.location).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    expect(part.headers.get("referrer-policy")).toBe("strict-origin");
    const cookie = part.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^portal_link=/);
    let row = await requestRow(request.id);
    expect([row.status, Number(row.paid_cents)]).toEqual(["sent", 12_000]);
    const [first] = await paymentsOf(request.id);
    expect(first).toMatchObject({ created_by: scope.contactId, link_token_id: linkId, status: "succeeded" });
    // The earliest-due invoice takes the part-payment first.
    const allocations = await handle.db
      .selectFrom("payment_allocations")
      .select(["invoice_id", "amount_cents"])
      .where("payment_id", "=", first!.id)
      .execute();
    expect(allocations.map((a) => Number(a.amount_cents))).toEqual([12_000]);

    // The receipt: this browser, no session.
    const reference = part.location!.split("/").pop()!;
    const receipt = await run(receiptLoader, get(`/payment/complete/${reference}`, { cookie: cookie.split(";")[0]! }), {
      slug: reference,
    });
    expect(receipt.status).toBe(200);
    expect(receipt.data).toMatchObject({
      viaLink: true,
      receipt: { reference, forRequest: { reference: request.reference, description: "Materials for job 42" } },
    });
    // What is still owing, and the way back to this link to pay it (decision 076).
    expect(receipt.data.receipt).toMatchObject({
      owing: { amount: "$380.00", on: "request", href: `/customer/payment-request/${token}` },
    });
    // Another browser, signed out: sign in. Signed in as another account's contact: not found.
    expect((await run(receiptLoader, get(`/payment/complete/${reference}`), { slug: reference })).status).toBe(302);
    expect(
      (
        await run(receiptLoader, get(`/payment/complete/${reference}`, { cookie: cookies.stranger! }), {
          slug: reference,
        })
      ).status,
    ).toBe(404);

    // What is left, now below the minimum, is taken in one go.
    const rest = await pay(token, { amount: "380.00" });
    expect(rest.status).toBe(302);
    row = await requestRow(request.id);
    expect([row.status, Number(row.paid_cents)]).toEqual(["paid", 50_000]);
    const after = await run(loader, get(`/customer/payment-request/${token}`), { token });
    expect(after.data).toMatchObject({ kind: "closed", reason: "paid" });
  });

  it("takes a stated-amount request in full when it allows no part-payment, as credit on the account", async () => {
    const request = await fx.request(scope, { amountCents: 7_525 });
    const { token } = await fx.link(scope, request.id);
    const page = await run(loader, get(`/customer/payment-request/${token}`), { token });
    expect(page.data).toMatchObject({ request: { partPayment: null, owing: "$75.25" } });
    // A typed amount is ignored: there is no field, the whole request is paid.
    const paid = await pay(token, { amount: "1.00" });
    expect(paid.status).toBe(302);
    const [payment] = await paymentsOf(request.id);
    expect(payment).toMatchObject({ purpose: "request", subtotal_cents: 7_525 });
    expect((await requestRow(request.id)).status).toBe("paid");
  });

  it("refuses amounts below the minimum, above what is owing, malformed or hostile, and charges nothing", async () => {
    const request = await fx.request(scope, {
      amountCents: 50_000,
      allowPartPayment: true,
      minPartPaymentCents: 5_000,
    });
    const { token } = await fx.link(scope, request.id);
    const cases: [string, string, string | null][] = [
      ["49.99", "requestPage.error.amount.belowMinimum", "request.error.belowMinimum"],
      ["500.01", "requestPage.error.amount.aboveRemaining", "request.error.aboveRemaining"],
      ["0", "pay.error.amount.zero", null],
      ["-5", "pay.error.amount.negative", null],
      ["12.345", "pay.error.amount.decimals", null],
      ["1e3", "pay.error.amount.format", null],
      ["<script>alert(1)</script>", "pay.error.amount.format", null],
      ["' OR 1=1 --", "pay.error.amount.format", null],
      ["９９", "pay.error.amount.format", null],
      ["9".repeat(40), "pay.error.amount.tooLarge", null],
    ];
    for (const [typed, fieldError, message] of cases) {
      const answer = await run(
        action,
        post(`/customer/payment-request/${token}`, {
          ...CARD,
          amount: typed,
          method: "new",
          intent: "pay",
          requestGuid: randomUUID(),
          expectedAmount: "100",
        }),
        { token },
      );
      expect(answer.status, typed).toBe(400);
      expect((answer.data.errors as Record<string, string>).amount, typed).toBe(fieldError);
      if (message)
        expect(answer.data).toMatchObject({ message, messageParams: { min: "$50.00", remaining: "$500.00" } });
      // What was typed comes back to be corrected; the card number and CVN never do.
      expect(JSON.stringify(answer.data)).not.toContain("4111111111111111");
    }
    // A saved card of the account, or a save box, is not on offer by link.
    const savedCard = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", scope.accountId)
      .executeTakeFirstOrThrow();
    const withSaved = await run(
      action,
      post(`/customer/payment-request/${token}`, {
        amount: "100.00",
        method: `card:${savedCard.id}`,
        intent: "pay",
        requestGuid: randomUUID(),
        expectedAmount: "10000",
      }),
      { token },
    );
    expect(withSaved.status).toBe(400);
    // A link payer is no contact with portal access: the account's saved methods are not theirs to use (decision 056).
    expect((withSaved.data.errors as Record<string, string>).method).toBe("pay.error.savedNeedsAccess");
    const cardsBefore = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", scope.accountId)
      .execute();
    expect((await pay(token, { amount: "60.00", saveCard: "on" })).status).toBe(302);
    const cardsAfter = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", scope.accountId)
      .execute();
    expect(cardsAfter).toHaveLength(cardsBefore.length);
    expect(await paymentsOf(request.id)).toHaveLength(1);
  });

  it("two tabs: the second is told what is left, or that the request is paid", async () => {
    const request = await fx.request(scope, { amountCents: 40_000, allowPartPayment: true });
    const { token } = await fx.link(scope, request.id);
    // Both tabs open the page, then each pays with its own requestGuid.
    const tabs = await Promise.all([0, 1].map(() => run(loader, get(`/customer/payment-request/${token}`), { token })));
    expect(tabs[0]!.data.requestGuid).not.toBe(tabs[1]!.data.requestGuid);
    expect((await pay(token, { amount: "300.00" })).status).toBe(302);
    const second = await pay(token, { amount: "300.00" });
    expect(second.status).toBe(400);
    expect(second.data).toMatchObject({
      message: "request.error.aboveRemaining",
      messageParams: { remaining: "$100.00" },
    });

    const full = await fx.request(scope, { amountCents: 9_900 });
    const fullLink = await fx.link(scope, full.id);
    expect((await pay(fullLink.token, {})).status).toBe(302);
    const again = await pay(fullLink.token, {});
    expect([again.status, again.data.message]).toEqual([409, "request.error.closed"]);
    expect(await paymentsOf(full.id)).toHaveLength(1);
  });

  it("a repeated submission (same requestGuid) answers the first payment, charged once", async () => {
    const request = await fx.request(scope, { amountCents: 2_500 });
    const { token } = await fx.link(scope, request.id);
    const path = `/customer/payment-request/${token}`;
    const quote = await run(action, post(path, { method: "new", cardPrefix: "41111111", intent: "quote" }), { token });
    const form = {
      ...CARD,
      method: "new",
      intent: "pay",
      requestGuid: randomUUID(),
      expectedAmount: String((quote.data.breakdown as { totalCents: number }).totalCents),
    };
    const first = await run(action, post(path, form), { token });
    const repeat = await run(action, post(path, form), { token });
    expect(first.status).toBe(302);
    expect(repeat.location).toBe(first.location);
    expect(repeat.headers.get("set-cookie")).toMatch(/^portal_link=/);
    expect(await paymentsOf(request.id)).toHaveLength(1);
  });

  it("refuses a cross-site POST before anything else", async () => {
    const request = await fx.request(scope, { amountCents: 2_000 });
    const { token } = await fx.link(scope, request.id);
    const answer = await run(
      action,
      post(
        `/customer/payment-request/${token}`,
        { ...CARD, method: "new", intent: "pay", requestGuid: randomUUID() },
        {
          origin: "http://evil.example",
        },
      ),
      { token },
    );
    expect(answer.status).toBe(403);
    expect(await paymentsOf(request.id)).toHaveLength(0);
  });

  it("works as a link for a browser signed in as another account's contact, and shows nothing of that login", async () => {
    const request = await fx.request(scope, { amountCents: 3_000 });
    const { token } = await fx.link(scope, request.id);
    const path = `/customer/payment-request/${token}`;
    const page = await run(loader, get(path, { cookie: cookies.stranger! }), { token });
    expect(page.data.kind).toBe("open");
    const root = await run(rootLoader, get(path, { cookie: cookies.stranger! }));
    expect(root.data).toMatchObject({ user: null, accounts: { items: [] } });
    const paid = await pay(token, {}, { cookie: cookies.stranger! });
    expect(paid.status).toBe(302);
    // The link's contact paid, on the request's account.
    const [payment] = await paymentsOf(request.id);
    expect(payment).toMatchObject({ created_by: scope.contactId, account_id: scope.accountId });
  });
});

describe("a request's invoices through its link", () => {
  it("shows the request's own invoices only: another account's or one the request does not cover is not found", async () => {
    const [covered, notCovered] = await fx.invoices(scope, [1_500, 1_600]);
    const [foreign] = await fx.invoices(other, [1_700]);
    const request = await fx.request(scope, { invoices: [covered!] });
    const { token } = await fx.link(scope, request.id);
    const view = (invoiceId: string) =>
      run(invoiceLoader, get(`/customer/payment-request/${token}/invoice/${invoiceId}`), { token, invoiceId });
    const shown = await view(covered!.id);
    expect(shown.status).toBe(200);
    expect(shown.data).toMatchObject({ kind: "invoice", invoice: { number: covered!.number, balance: "$15.00" } });
    for (const invoiceId of [notCovered!.id, foreign!.id, randomUUID(), "../../etc/passwd"]) {
      const answer = await view(invoiceId);
      expect([answer.status, answer.data.reason], invoiceId).toEqual([404, "no-access"]);
    }
    const guessed = await run(
      invoiceLoader,
      get(`/customer/payment-request/${"A".repeat(59)}/invoice/${covered!.id}`),
      { token: "A".repeat(59), invoiceId: covered!.id },
    );
    expect([guessed.status, guessed.data.reason]).toEqual([404, "link-invalid"]);
  });
});

describe("the same request signed in (/payment/payment-request/<reference>)", () => {
  it("offers a contact of the account its saved cards; anyone else gets 'Page not found'; signed out, sign in", async () => {
    const request = await fx.request(scope, { amountCents: 4_200 });
    const path = `/payment/payment-request/${request.reference}`;
    const page = await run(signedInLoader, get(path, { cookie: cookies.olivia! }), { slug: request.reference });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ kind: "open", signInHref: null, methods: { saveCard: true, promise: false } });
    expect((page.data.methods as { cards: unknown[] }).cards.length).toBeGreaterThan(0);
    const stranger = await run(signedInLoader, get(path, { cookie: cookies.stranger! }), { slug: request.reference });
    expect(stranger.status).toBe(404);
    const strangerPost = await run(
      signedInAction,
      post(
        path,
        { ...CARD, method: "new", intent: "pay", requestGuid: randomUUID(), expectedAmount: "4200" },
        {
          cookie: cookies.stranger!,
        },
      ),
      { slug: request.reference },
    );
    expect(strangerPost.status).toBe(404);
    const signedOut = await run(signedInLoader, get(path), { slug: request.reference });
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toContain(`callbackUrl=${encodeURIComponent(path)}`);
    for (const slug of ["PR-NOPE0000", "not a reference", randomUUID()]) {
      expect(
        (await run(signedInLoader, get(`/payment/payment-request/x`, { cookie: cookies.olivia! }), { slug })).status,
      ).toBe(404);
    }

    // Paid with a saved card of the account.
    const savedCard = (page.data.methods as { cards: { id: string }[] }).cards[0]!.id;
    const quote = await run(
      signedInAction,
      post(path, { method: `card:${savedCard}`, intent: "quote" }, { cookie: cookies.olivia! }),
      { slug: request.reference },
    );
    const paid = await run(
      signedInAction,
      post(
        path,
        {
          method: `card:${savedCard}`,
          intent: "pay",
          requestGuid: randomUUID(),
          expectedAmount: String((quote.data.breakdown as { totalCents: number }).totalCents),
        },
        { cookie: cookies.olivia! },
      ),
      { slug: request.reference },
    );
    expect(paid.status).toBe(302);
    const [payment] = await paymentsOf(request.id);
    expect(payment).toMatchObject({ card_id: savedCard, link_token_id: null, created_by: scope.contactId });
    expect((await requestRow(request.id)).status).toBe("paid");
  });
});

describe("'Sign in to use a saved card' from the link (issue 31; decision 077)", () => {
  it("comes back to the request's signed-in page with the part payment typed, and charges nothing", async () => {
    const request = await fx.request(scope, {
      amountCents: 40_000,
      allowPartPayment: true,
      minPartPaymentCents: 10_000,
    });
    const { token } = await fx.link(scope, request.id);
    const path = `/customer/payment-request/${token}`;
    const signedInPath = `/payment/payment-request/${request.reference}`;
    const signIn = (amount: string) =>
      run(action, post(path, { ...CARD, method: "new", amount, intent: "signIn" }), { token });
    const typed = await signIn("150.00");
    expect(typed.status).toBe(302);
    expect(typed.location).toBe(`${signedInPath}?amount=15000`);
    // Below the minimum, all of it, more than that, malformed or hostile: the page as it opens.
    for (const amount of ["50.00", "400.00", "400.01", "1e4", "-150", "150.001", "'; drop table payments; --"]) {
      expect((await signIn(amount)).location, amount).toBe(signedInPath);
    }
    // Signed out, the signed-in page sends to sign-in and back to the same address, amount and all.
    const signedOut = await run(signedInLoader, get(typed.location!), { slug: request.reference });
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toContain(`callbackUrl=${encodeURIComponent(`${signedInPath}?amount=15000`)}`);
    // Signed in: the amount field holds what was typed, and the total is for that amount.
    const page = await run(signedInLoader, get(typed.location!, { cookie: cookies.olivia! }), {
      slug: request.reference,
    });
    expect(page.data).toMatchObject({ kind: "open", request: { amount: "150.00", remaining: "400.00" } });
    expect((page.data.breakdown as { subTotal: string }).subTotal).toBe("$150.00");
    for (const query of ["?amount=5000", "?amount=abc", "?amount=40001", "?amount=015000", "?amount=1.5"]) {
      const other = await run(signedInLoader, get(`${signedInPath}${query}`, { cookie: cookies.olivia! }), {
        slug: request.reference,
      });
      expect(other.data, query).toMatchObject({ request: { amount: "400.00" } });
    }
    expect(await paymentsOf(request.id)).toEqual([]);
  });

  it("a request that takes no part payment goes to its signed-in page as it is", async () => {
    const request = await fx.request(scope, { amountCents: 9_900 });
    const { token } = await fx.link(scope, request.id);
    const answered = await run(
      action,
      post(`/customer/payment-request/${token}`, { amount: "10.00", intent: "signIn" }),
      { token },
    );
    expect(answered.location).toBe(`/payment/payment-request/${request.reference}`);
  });
});
