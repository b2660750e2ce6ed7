import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { loadPayable, previewPayment } from "~/services/payments/payable.server";
import { setPayToProviderForTesting, webhookSecret } from "~/services/payments/payto/index.server";
import { createSandboxPayTo, type SandboxPayTo } from "~/services/payments/payto/sandbox-provider.server";
import { formatMoney } from "~/lib/format";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as route from "./payment";

/**
 * POST /api/payTo/payment (decision 029): the spec's payload, recomputed by the server; every
 * answer a JSON value `{ ok, … }`, never a thrown 500; nothing written unless all agrees.
 */
let handle: DatabaseHandle;
let bank: SandboxPayTo;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
let businessId: string;
let oliviaId: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  bank = createSandboxPayTo({
    secret: webhookSecret(),
    db: async () => handle.db,
    delayMs: 0,
    deliver: async () => 200,
  });
  setPayToProviderForTesting(bank);
  for (const [who, email, host] of [
    ["olivia", "olivia@coastal.example", "acme.localhost"],
    // Unverified (email not confirmed): no portal access although joined to ACME-1000 with the permission.
    ["unverified", "new@coastal.example", "acme.localhost"],
    // Verified, without accessCustomerPortal: a customer-style contact of ACME-1001.
    ["sam", "sam@coastal.example", "acme.localhost"],
    ["aroha", "aroha@orchards.example", "kiwi.localhost"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    if (who === "olivia") {
      businessId = contact.business_id;
      oliviaId = contact.id;
    }
    const request = new Request(`http://${host}/`, { headers: { host } });
    cookies[who] = (
      await createSession(request, {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
  for (const number of ["ACME-1000", "ACME-1001", "ACME-2000", "KF-500"]) {
    ids[number] = (
      await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(async () => {
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function call(body: unknown, options: { who?: string; method?: string; raw?: string; type?: string } = {}) {
  const who = options.who === undefined ? "olivia" : options.who;
  const host = who === "aroha" ? "kiwi.localhost" : "acme.localhost";
  const headers: Record<string, string> = { host, "content-type": options.type ?? "application/json" };
  if (who) headers.cookie = cookies[who]!;
  const method = options.method ?? "POST";
  const request = new Request(`http://${host}/api/payTo/payment`, {
    method,
    headers,
    body: method === "GET" ? undefined : (options.raw ?? JSON.stringify(body)),
  });
  // Never a thrown answer: whatever comes back is a Response with a JSON value.
  const response = method === "GET" ? route.loader() : await route.action({ request, params: {}, context: {} });
  const text = await response.text();
  return {
    status: response.status,
    body: JSON.parse(text) as Record<string, unknown> & { errors?: Record<string, string> },
  };
}

/** An agreement at the sandbox bank, approved (and suspended, if asked), with the portal's row. */
async function agreement(accountId: string, status: "ACTIVE" | "SUSPENDED" = "ACTIVE") {
  return (await agreementAtBank(accountId, status)).id;
}

async function agreementAtBank(accountId: string, status: "ACTIVE" | "SUSPENDED") {
  const guid = randomUUID();
  const created = await bank.createAgreement({
    idempotencyKey: `${businessId}:${guid}`,
    merchant: businessId,
    hostname: "acme.localhost",
    debtor: {
      partyType: "PERS",
      partyName: "Olivia",
      ultimatePartyName: "",
      kind: "alias",
      aliasType: "EMAL",
      aliasValue: "approve@payto.test",
    },
    maxAmountCents: 1_000_000,
    description: "Acme",
  });
  if (!created.ok) throw new Error(created.refusal);
  let step = await bank.payerApproves(created.value.agreementId);
  if (step.ok && status === "SUSPENDED") step = await bank.payerSuspends(created.value.agreementId);
  if (!step.ok) throw new Error(step.message);
  const row = await handle.db
    .insertInto("payto_agreements")
    .values({
      business_id: businessId,
      account_id: accountId,
      request_guid: guid,
      request_hash: createHash("sha256").update(guid).digest("hex"),
      status: step.agreement.status,
      provider_agreement_id: step.agreement.agreementId,
      provider_version: step.agreement.version,
      party_name: "Olivia",
      alias_type: "EMAL",
      alias_value: "approve@payto.test",
      max_amount_cents: 1_000_000,
      created_by: oliviaId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, providerId: step.agreement.agreementId };
}

const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** A correct payload for paying `amounts` of the account's invoices, with the server's own figures. */
async function payload(agreementId: string, count = 2, accountId = ids["ACME-1000"]!, business = businessId) {
  const actor = { businessId: business, accountId, contactId: oliviaId, clientIp: "127.0.0.1" };
  const invoices = (await loadPayable(actor, "all"))
    .filter((i) => i.availableCents === i.balanceCents && i.availableCents > 1_000)
    .slice(0, count);
  const amounts = Object.fromEntries(invoices.map((i, n) => [i.id, n === 0 ? i.availableCents : 1_000]));
  const b = await previewPayment(actor, invoices, amounts, { kind: "payto" }, today);
  return {
    accountID: accountId,
    savePaymentMethod: false,
    merchantFeeComponent: dollars(b.merchantFeeComponent),
    totalLateFee: dollars(b.totalLateFee),
    totalDiscount: dollars(b.totalDiscount),
    amount: dollars(b.amount),
    subTotal: dollars(b.subTotal),
    applyFee: false,
    applyLateFee: b.totalLateFee > 0,
    promiseDate: null,
    paymentNote: "for March",
    isPartPay: b.orders.some((o) => o.partPayAmount > 0),
    PaymentTokenGuid: agreementId,
    requestGuid: randomUUID(),
    orders: b.orders.map((o) => ({
      orderId: o.orderId,
      balanceTotal: dollars(o.balanceTotal),
      partPayAmount: dollars(o.partPayAmount),
      paymentAmount: dollars(o.paymentAmount),
      discount: dollars(o.discount),
      merchantFee: 0,
      lateFee: dollars(o.lateFee),
    })),
  };
}

const written = async () =>
  Promise.all(
    (["payments", "payment_allocations", "sandbox_payto_payments", "statement_lines"] as const).map(async (table) =>
      Number(
        (
          await handle.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  );

describe("POST /api/payTo/payment", () => {
  it("pays by PayTo: 200 { ok: true, payment } submitted; a repeat of the requestGuid answers the first result", async () => {
    const body = await payload(await agreement(ids["ACME-1000"]!));
    const first = await call(body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ok: true,
      payment: { status: "submitted", method: "payto", amount: body.amount, merchantFeeComponent: "0.00" },
    });
    const before = await written();
    const repeat = await call(body);
    expect(repeat.body).toEqual(first.body);
    expect(await written()).toEqual(before);
  });

  it("takes amounts as JSON numbers too, exactly", async () => {
    const body = await payload(await agreement(ids["ACME-1000"]!), 1);
    const numeric = {
      ...body,
      amount: Number(body.amount),
      subTotal: Number(body.subTotal),
      orders: body.orders.map((o) => ({ ...o, paymentAmount: Number(o.paymentAmount) })),
    };
    const answer = await call(numeric);
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
  });

  it.each([
    ["malformed JSON", { raw: "{ not json" }, 422, "malformed"],
    ["not an object", { raw: "[1,2]" }, 422, "malformed"],
    ["oversized", { raw: JSON.stringify({ paymentNote: "x".repeat(40_000) }) }, 413, "too_large"],
    ["control characters", { raw: JSON.stringify({ paymentNote: "a\u0000b" }) }, 422, "malformed"],
    ["an unknown content type", { raw: "<xml/>", type: "application/xml" }, 422, "malformed"],
    ["GET", { method: "GET" }, 405, "method_not_allowed"],
  ])("%s → %s, a value", async (_name, options, status, reason) => {
    const before = await written();
    const answer = await call(undefined, options);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ ok: false, reason });
    expect(typeof answer.body.message).toBe("string");
    expect(await written()).toEqual(before);
  });

  it("a contact without portal access may not pay under the account's agreement: 404 as a value, nothing written, the bank never asked (decision 056)", async () => {
    const acme1000 = await agreement(ids["ACME-1000"]!);
    const acme1001 = await agreement(ids["ACME-1001"]!);
    const before = await written();
    for (const [who, body] of [
      ["unverified", await payload(acme1000)],
      ["sam", await payload(acme1001, 1, ids["ACME-1001"]!)],
    ] as const) {
      const answer = await call(body, { who });
      expect(answer, who).toMatchObject({ status: 404, body: { ok: false, reason: "not_found" } });
      expect(typeof answer.body.message).toBe("string");
      // No payments, allocations or statement lines, and no payment at the sandbox bank.
      expect(await written(), who).toEqual(before);
      expect(
        await handle.db
          .selectFrom("payments")
          .select("id")
          .where("request_guid", "=", body.requestGuid)
          .executeTakeFirst(),
        who,
      ).toBeUndefined();
    }
    // The same agreement still pays for a verified contact with portal access.
    const paid = await call(await payload(acme1000, 1));
    expect(paid).toMatchObject({ status: 200, body: { ok: true, payment: { method: "payto" } } });
  });

  it("signed out → 401 as a value", async () => {
    const answer = await call(await payload(randomUUID()), { who: "" });
    expect(answer).toMatchObject({ status: 401, body: { ok: false, reason: "signed_out" } });
  });

  it("names every bad or missing field: 422 { ok: false, reason: 'invalid', errors }, nothing written", async () => {
    const good = await payload(await agreement(ids["ACME-1000"]!));
    const before = await written();
    const cases: [string, Record<string, unknown>, string][] = [
      ["missing amount", { ...good, amount: undefined }, "amount"],
      ["missing orders", { ...good, orders: undefined }, "orders"],
      ["no orders", { ...good, orders: [] }, "orders"],
      ["51 orders", { ...good, orders: Array.from({ length: 51 }, () => good.orders[0]) }, "orders"],
      ["an invoice twice", { ...good, orders: [good.orders[0], good.orders[0]] }, "orders"],
      ["three decimals", { ...good, amount: "10.005" }, "amount"],
      ["a float's noise", { ...good, amount: 0.1 + 0.2 }, "amount"],
      ["an exponent", { ...good, subTotal: "1e3" }, "subTotal"],
      ["negative", { ...good, totalDiscount: "-1.00" }, "totalDiscount"],
      ["full-width digits", { ...good, amount: "１２.００" }, "amount"],
      ["huge", { ...good, amount: "1000000000000" }, "amount"],
      ["HTML in an id", { ...good, PaymentTokenGuid: "<img src=x onerror=alert(1)>" }, "PaymentTokenGuid"],
      ["SQL in an id", { ...good, requestGuid: "1'; DROP TABLE payments; --" }, "requestGuid"],
      ["SQL in an order id", { ...good, orders: [{ ...good.orders[0], orderId: "' OR 1=1 --" }] }, "orders[0].orderId"],
      ["an object for money", { ...good, amount: { $gt: 0 } }, "amount"],
      ["not a boolean", { ...good, isPartPay: "maybe" }, "isPartPay"],
      [
        "a merchant fee on an order",
        { ...good, orders: [{ ...good.orders[0], merchantFee: "1.00" }] },
        "orders[0].merchantFee",
      ],
      ["a merchant fee", { ...good, merchantFeeComponent: "0.50" }, "merchantFeeComponent"],
      ["a promise date", { ...good, promiseDate: "2030-01-01" }, "promiseDate"],
      ["a long note", { ...good, paymentNote: "n".repeat(501) }, "paymentNote"],
    ];
    for (const [name, body, field] of cases) {
      const answer = await call(body);
      expect(answer.status, name).toBe(422);
      expect(answer.body, name).toMatchObject({ ok: false, reason: "invalid" });
      expect(Object.keys(answer.body.errors ?? {}), name).toContain(field);
    }
    expect(await written()).toEqual(before);
  });

  it("refuses tampered figures with the server's own: 422 figures_differ, nothing written", async () => {
    const good = await payload(await agreement(ids["ACME-1000"]!));
    const before = await written();
    const plusCent = (value: string) => dollars(Math.round(Number(value) * 100) + 1);
    const cases: [string, Record<string, unknown>, string][] = [
      ["amount", { ...good, amount: plusCent(good.amount) }, "amount"],
      ["subTotal", { ...good, subTotal: "0.01" }, "subTotal"],
      ["late fee", { ...good, totalLateFee: plusCent(good.totalLateFee) }, "totalLateFee"],
      ["discount", { ...good, totalDiscount: plusCent(good.totalDiscount) }, "totalDiscount"],
      ["isPartPay", { ...good, isPartPay: !good.isPartPay }, "isPartPay"],
      [
        "an order's balance",
        { ...good, orders: [{ ...good.orders[0], balanceTotal: "1.00" }, good.orders[1]] },
        "orders[0].balanceTotal",
      ],
    ];
    for (const [name, body, field] of cases) {
      const answer = await call(body);
      expect(answer.status, name).toBe(422);
      expect(answer.body, name).toMatchObject({ ok: false, reason: "figures_differ" });
      expect(Object.keys(answer.body.errors ?? {}), name).toContain(field);
    }
    const tooMuch = await call({
      ...good,
      orders: [{ ...good.orders[0], paymentAmount: "99999999.00" }, good.orders[1]],
    });
    expect(tooMuch).toMatchObject({ status: 422, body: { ok: false, reason: "invalid" } });
    expect(await written()).toEqual(before);
  });

  it("a payment the provider refuses (the payer ended the agreement in their bank): 422 rejected, with the failed payment's reference", async () => {
    const { id, providerId } = await agreementAtBank(ids["ACME-1000"]!, "ACTIVE");
    expect((await bank.payerCancels(providerId)).ok).toBe(true);
    const body = await payload(id, 1);
    const answer = await call(body);
    expect(answer).toMatchObject({
      status: 422,
      body: { ok: false, reason: "rejected", refusal: "agreement_not_active", payment: { status: "failed" } },
    });
    expect(answer.body.message).toContain("no longer active");
    const row = await handle.db
      .selectFrom("payments")
      .select(["status", "failure_code"])
      .where("request_guid", "=", body.requestGuid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", failure_code: "agreement_not_active" });
    // The same requestGuid again: the first result, nothing new.
    expect((await call(body)).body).toEqual(answer.body);
  });

  it("another account's or business's ids → 404 as a value; a suspended agreement → 422; nothing written", async () => {
    const mine = await payload(await agreement(ids["ACME-1000"]!));
    const theirs = await payload(await agreement(ids["ACME-2000"]!), 1, ids["ACME-2000"]!);
    const before = await written();
    const notFound = [
      ["another account's agreement", { ...mine, PaymentTokenGuid: theirs.PaymentTokenGuid }],
      ["another account's invoice", { ...mine, orders: [...mine.orders.slice(0, 1), ...theirs.orders] }],
      ["a made-up agreement", { ...mine, PaymentTokenGuid: randomUUID() }],
      ["another business's account", { ...mine, accountID: ids["KF-500"] }],
    ] as const;
    for (const [name, body] of notFound) {
      const answer = await call(body);
      expect(answer.status, name).toBe(404);
      expect(answer.body, name).toMatchObject({ ok: false, reason: "not_found" });
    }
    // Signed in at another business: its own host, so Acme's ids are simply not there.
    expect((await call(mine, { who: "aroha" })).status).toBe(404);
    const suspended = await call({ ...mine, PaymentTokenGuid: await agreement(ids["ACME-1000"]!, "SUSPENDED") });
    expect(suspended).toMatchObject({ status: 422, body: { ok: false, reason: "agreement_not_active" } });
    expect(await written()).toEqual(before);
  });

  it("over the PayTo limit: 422 over_limit naming the limit that applies (here the agreement's), in the business's currency", async () => {
    // A business that bills in NZD offering PayTo (Kiwi, treated here as Australian, since PayTo
    // is offered only there) up to NZ$10,000; this agreement allows NZ$15.
    const kiwi = (
      await handle.db
        .selectFrom("accounts")
        .select("business_id")
        .where("id", "=", ids["KF-500"]!)
        .executeTakeFirstOrThrow()
    ).business_id;
    const { country } = await handle.db
      .selectFrom("businesses")
      .select("country")
      .where("id", "=", kiwi)
      .executeTakeFirstOrThrow();
    await handle.db.updateTable("businesses").set({ country: "AU" }).where("id", "=", kiwi).execute();
    await handle.db
      .insertInto("payto_settings")
      .values({ business_id: kiwi, enabled: true, max_payment_cents: 1_000_000 })
      .onConflict((oc) => oc.column("business_id").doUpdateSet({ enabled: true, max_payment_cents: 1_000_000 }))
      .execute();
    const guid = randomUUID();
    const created = await bank.createAgreement({
      idempotencyKey: `${kiwi}:${guid}`,
      merchant: kiwi,
      hostname: "kiwi.localhost",
      debtor: {
        partyType: "PERS",
        partyName: "Aroha",
        ultimatePartyName: "",
        kind: "alias",
        aliasType: "EMAL",
        aliasValue: "approve@payto.test",
      },
      maxAmountCents: 1_500,
      description: "Kiwi",
    });
    if (!created.ok) throw new Error(created.refusal);
    const approved = await bank.payerApproves(created.value.agreementId);
    if (!approved.ok) throw new Error(approved.message);
    const agreementId = (
      await handle.db
        .insertInto("payto_agreements")
        .values({
          business_id: kiwi,
          account_id: ids["KF-500"]!,
          request_guid: guid,
          request_hash: createHash("sha256").update(guid).digest("hex"),
          status: "ACTIVE",
          provider_agreement_id: approved.agreement.agreementId,
          provider_version: approved.agreement.version,
          party_name: "Aroha",
          alias_type: "EMAL",
          alias_value: "approve@payto.test",
          max_amount_cents: 1_500,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const body = await payload(agreementId, 2, ids["KF-500"]!, kiwi);
    expect(Number(body.amount)).toBeGreaterThan(15);
    const before = await written();
    const answer = await call(body, { who: "aroha" }).finally(() =>
      handle.db.updateTable("businesses").set({ country }).where("id", "=", kiwi).execute(),
    );
    expect(answer).toMatchObject({ status: 422, body: { ok: false, reason: "over_limit" } });
    expect(answer.body.message).toContain(formatMoney(1_500, { currency: "NZD" }));
    expect(answer.body.message).not.toContain(formatMoney(1_000_000, { currency: "AUD" }));
    expect(await written()).toEqual(before);
  });
});
