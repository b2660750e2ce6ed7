import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import { setDatabaseForTesting } from "../../platform/database.server";
import type { DatabaseHandle } from "../../platform/db.server";
import { webhookSecret } from "./index.server";
import { findPaymentByReference } from "../invoices.server";
import { getPaymentRequest, listPaymentRequests } from "../../requests/queries.server";
import { sendPaymentRequest } from "../../requests/sending.server";
import { applyIncomingPayment, getAccountPayId, incomingRequestGuid, payIdLocalPart } from "./payids.server";
import { signWebhook } from "./sandbox-provider.server";
import { receiveWebhook } from "./webhook.server";
import type { IncomingPayment } from "./payto-provider.server";

describe("the PayID's local part", () => {
  it("is the account number, lower-case, only letters, digits and hyphens", () => {
    expect(payIdLocalPart("ACME-1000", "0")).toBe("acme-1000");
    expect(payIdLocalPart("AB 12/x_9", "0")).toBe("ab12x9");
    expect(payIdLocalPart("--Ünï-42--", "0")).toBe("n-42");
    expect(payIdLocalPart("<script>", "0")).toBe("script");
  });
  it("is at most 64 characters and never empty", () => {
    expect(payIdLocalPart("A".repeat(100), "0")).toBe("a".repeat(64));
    expect(payIdLocalPart("a".repeat(63) + "-b", "0")).toBe("a".repeat(63));
    expect(payIdLocalPart("////", "8F2C0D1A-0000-4000-8000-000000000000")).toBe("account-8f2c0d1a");
  });
  it("makes one requestGuid per transaction id, shaped as a UUID", () => {
    const guid = incomingRequestGuid("b1", "txn-1");
    expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(incomingRequestGuid("b1", "txn-1")).toBe(guid);
    expect(incomingRequestGuid("b1", "txn-2")).not.toBe(guid);
    expect(incomingRequestGuid("b2", "txn-1")).not.toBe(guid);
  });
});

function payIdSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;
  let accountId: string;
  const payId = "acme-2000@pay.acme.example";

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const account = await handle.db
      .selectFrom("accounts")
      .select(["id", "business_id"])
      .where("number", "=", "ACME-2000")
      .executeTakeFirstOrThrow();
    accountId = account.id;
    acme = account.business_id;
    kiwi = (
      await handle.db
        .selectFrom("accounts")
        .select("business_id")
        .where("number", "=", "KF-500")
        .executeTakeFirstOrThrow()
    ).business_id;
    await handle.db
      .insertInto("payto_payids")
      .values({ business_id: acme, account_id: accountId, payid: payId })
      .execute();
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const incoming = (amountCents: number, overrides: Partial<IncomingPayment> = {}): IncomingPayment => ({
    transactionId: `txn-${randomUUID()}`,
    payId,
    reference: accountId,
    merchant: acme,
    amountCents,
    payerName: "Hillside Renovations Pty Ltd",
    receivedAt: new Date().toISOString(),
    ...overrides,
  });

  /** The account's payable invoices, oldest first, with what other unsettled payments hold of each. */
  const payable = async () => {
    const rows = await handle.db
      .selectFrom("invoices")
      .select(["id", "number", "balance_cents", "status", "due_date"])
      .where("account_id", "=", accountId)
      .where("status", "in", [1, 3, 7, 8])
      .where("balance_cents", ">", 0)
      .orderBy("due_date")
      .orderBy("number")
      .execute();
    const held = await handle.db
      .selectFrom("payment_allocations as a")
      .innerJoin("payments as p", "p.id", "a.payment_id")
      .select(["a.invoice_id", "a.amount_cents"])
      .where("p.account_id", "=", accountId)
      .where("p.status", "in", ["pending", "unknown", "submitted"])
      .execute();
    return rows.map((row) => ({
      ...row,
      available:
        row.balance_cents - held.filter((h) => h.invoice_id === row.id).reduce((sum, h) => sum + h.amount_cents, 0),
    }));
  };

  const invoice = (id: string) =>
    handle.db.selectFrom("invoices").select(["balance_cents", "status"]).where("id", "=", id).executeTakeFirstOrThrow();

  const paymentOf = (businessId: string, transactionId: string) =>
    handle.db
      .selectFrom("payments")
      .selectAll()
      .where("business_id", "=", businessId)
      .where("request_guid", "=", incomingRequestGuid(businessId, transactionId))
      .executeTakeFirst();

  const linesOf = (reference: string) =>
    handle.db
      .selectFrom("statement_lines")
      .select(["type", "description", "debit_cents", "credit_cents"])
      .where("account_id", "=", accountId)
      .where("reference", "=", reference)
      .orderBy("id")
      .execute();

  const count = async (table: "payments" | "payto_incoming_payments" | "statement_lines") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /**
   * Olivia's receipt email with this reference, from the outbox (no SMTP_URL in unit tests): one
   * each for the account's contacts (the demo's host admin shares ACME-2000).
   */
  const receiptFor = (reference: string) => {
    const outbox = path.join(process.env.DATA_DIR!, "outbox");
    const found = fs
      .readdirSync(outbox)
      .map((name) => fs.readFileSync(path.join(outbox, name), "utf8"))
      .filter((text) => text.includes(reference) && text.includes("To: olivia@coastal.example"));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it("pays the oldest invoice in full and the next one in part, with statement lines that net", async () => {
    const [oldest, next] = await payable();
    expect(oldest && next).toBeTruthy();
    const money = incoming(oldest!.available + 1_00);
    expect(await applyIncomingPayment(acme, money)).toBe("applied");

    expect(await invoice(oldest!.id)).toEqual({ balance_cents: oldest!.balance_cents - oldest!.available, status: 2 });
    const nextAfter = await invoice(next!.id);
    expect(nextAfter.balance_cents).toBe(next!.balance_cents - 1_00);

    const payment = (await paymentOf(acme, money.transactionId))!;
    expect(payment).toMatchObject({
      method: "payid",
      status: "succeeded",
      account_id: accountId,
      amount_cents: money.amountCents,
      subtotal_cents: money.amountCents,
      merchant_fee_cents: 0,
      provider_payment_id: money.transactionId,
    });
    expect(payment.reference).toMatch(/^PAYID-[0-9A-F]{12}$/);
    // Its receipt page finds it by that reference (the payments list links it), on this business only.
    expect(await findPaymentByReference(acme, payment.reference)).toMatchObject({
      id: payment.id,
      method: "payid",
      allocations: expect.arrayContaining([expect.objectContaining({ invoiceId: oldest!.id })]),
    });
    expect(await findPaymentByReference(kiwi, payment.reference)).toBeNull();
    const allocations = await handle.db
      .selectFrom("payment_allocations")
      .select(["invoice_id", "amount_cents"])
      .where("payment_id", "=", payment.id)
      .orderBy("amount_cents", "desc")
      .execute();
    expect(allocations).toHaveLength(2);
    expect(new Map(allocations.map((a) => [a.invoice_id, a.amount_cents]))).toEqual(
      new Map([
        [oldest!.id, oldest!.available],
        [next!.id, 1_00],
      ]),
    );
    const lines = await linesOf(payment.reference);
    expect(lines).toEqual([
      { type: "payment", description: `PayID payment to ${payId}`, debit_cents: 0, credit_cents: money.amountCents },
    ]);
    const received = await handle.db
      .selectFrom("payto_incoming_payments")
      .selectAll()
      .where("business_id", "=", acme)
      .where("provider_transaction_id", "=", money.transactionId)
      .executeTakeFirstOrThrow();
    expect(received).toMatchObject({ account_id: accountId, payment_id: payment.id, amount_cents: money.amountCents });
    // The receipt went to the account's contact (Olivia), naming the invoices it paid.
    const receipt = receiptFor(payment.reference);
    expect(receipt).toContain("To: olivia@coastal.example");
    expect(receipt).toContain(oldest!.number);
    expect(receipt).toContain(next!.number);
  });

  it("a part payment lowers only the oldest invoice and leaves it payable", async () => {
    const [oldest, next] = await payable();
    const money = incoming(1_23);
    expect(await applyIncomingPayment(acme, money)).toBe("applied");
    const after = await invoice(oldest!.id);
    expect(after.balance_cents).toBe(oldest!.balance_cents - 1_23);
    expect([1, 3]).toContain(after.status);
    expect(await invoice(next!.id)).toEqual({ balance_cents: next!.balance_cents, status: next!.status });
  });

  it("leaves what a pending card payment reserves alone", async () => {
    const [oldest, next] = await payable();
    // A card payment claimed (invoices reserved) and still waiting for the gateway's answer.
    const reserved = oldest!.available - 50;
    const card = await handle.db
      .insertInto("payments")
      .values({
        business_id: acme,
        account_id: accountId,
        request_guid: randomUUID(),
        request_hash: "0".repeat(64),
        reference: `PAY-${randomUUID().slice(0, 8)}`,
        method: "card",
        status: "pending",
        currency: "AUD",
        amount_cents: reserved,
        subtotal_cents: reserved,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("payment_allocations")
      .values({
        payment_id: card.id,
        invoice_id: oldest!.id,
        business_id: acme,
        amount_cents: reserved,
        balance_before_cents: oldest!.balance_cents,
      })
      .execute();

    const money = incoming(2_00);
    expect(await applyIncomingPayment(acme, money)).toBe("applied");
    // 50 cents were free on the oldest invoice; the other 1.50 went to the next one.
    expect((await invoice(oldest!.id)).balance_cents).toBe(oldest!.balance_cents - 50);
    expect((await invoice(next!.id)).balance_cents).toBe(next!.balance_cents - 1_50);
    // The card payment can still settle: its reservation is intact.
    const [first] = await payable();
    expect(first!.id).toBe(oldest!.id);
    expect(first!.available).toBe(0);
    await handle.db.updateTable("payments").set({ status: "failed" }).where("id", "=", card.id).execute();
  });

  it("money beyond what is owing stays on the account as an unapplied credit", async () => {
    const owing = await payable();
    const total = owing.reduce((sum, row) => sum + row.available, 0);
    expect(total).toBeGreaterThan(0);
    const money = incoming(total + 12_34);
    expect(await applyIncomingPayment(acme, money)).toBe("applied");
    expect(await payable()).toEqual([]);
    for (const row of owing) expect(await invoice(row.id)).toEqual({ balance_cents: 0, status: 2 });
    const payment = (await paymentOf(acme, money.transactionId))!;
    expect(payment.subtotal_cents).toBe(total);
    expect(payment.amount_cents).toBe(total + 12_34);
    const lines = await linesOf(payment.reference);
    expect(lines).toEqual([
      { type: "payment", description: `PayID payment to ${payId}`, debit_cents: 0, credit_cents: total },
      { type: "credit", description: "Unapplied PayID payment", debit_cents: 0, credit_cents: 12_34 },
    ]);
    expect(receiptFor(payment.reference)).toMatch(/Kept on your account as credit: \$12\.34/);

    // Nothing owing at all: the whole amount is credit, nothing is lost.
    const more = incoming(5_00);
    expect(await applyIncomingPayment(acme, more)).toBe("applied");
    const second = (await paymentOf(acme, more.transactionId))!;
    expect(second.subtotal_cents).toBe(0);
    expect(await linesOf(second.reference)).toEqual([
      { type: "credit", description: "Unapplied PayID payment", debit_cents: 0, credit_cents: 5_00 },
    ]);
  });

  it("a transfer that pays a request's invoices leaves the request paid, as every view reads it", async () => {
    // The account's oldest invoice, asked for by a sent request: the transfer pays it first.
    const invoiceRow = await handle.db
      .insertInto("invoices")
      .values({
        business_id: acme,
        account_id: accountId,
        number: `PAYID-REQ-${randomUUID().slice(0, 6)}`,
        issue_date: "2001-01-01",
        due_date: "2001-02-01",
        amount_cents: 80_00,
        balance_cents: 80_00,
        status: 3,
        promise_date: null,
        dispute_reason: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const request = await handle.db
      .insertInto("payment_requests")
      .values({
        business_id: acme,
        account_id: accountId,
        reference: `PR-${randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`,
        kind: "invoices",
        description: "",
        currency: "AUD",
        amount_cents: 80_00,
        expires_at: new Date(Date.now() + 86_400_000),
        status: "sent",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("payment_request_invoices")
      .values({ request_id: request.id, invoice_id: invoiceRow.id, business_id: acme, amount_cents: 80_00 })
      .execute();
    expect((await getPaymentRequest(acme, request.id))!.state).toBe("sent");

    expect(await applyIncomingPayment(acme, incoming(30_00))).toBe("applied");
    expect((await getPaymentRequest(acme, request.id))!).toMatchObject({ state: "part-paid", remainingCents: 50_00 });
    expect(await applyIncomingPayment(acme, incoming(50_00))).toBe("applied");
    expect((await getPaymentRequest(acme, request.id))!).toMatchObject({ state: "paid", remainingCents: 0 });
    const paid = await listPaymentRequests(acme, { state: "paid", account: "ACME-2000", limit: 100 });
    expect(paid.items.map((item) => item.id)).toContain(request.id);
    await expect(sendPaymentRequest(acme, request.id, { resend: true })).rejects.toMatchObject({ code: "conflict" });
  });

  it("applies one transaction once, however many deliveries arrive at once", async () => {
    // Something to pay, so that a double application would show in the balances too.
    const open = await handle.db
      .updateTable("invoices")
      .set((eb) => ({ balance_cents: eb.ref("amount_cents"), status: 1 }))
      .where("account_id", "=", accountId)
      .where("number", "=", "ACME-2000-INV-024")
      .returning(["id", "amount_cents"])
      .executeTakeFirstOrThrow();
    const before = { payments: await count("payments"), lines: await count("statement_lines") };
    const money = incoming(3_00);
    const results = await Promise.all(Array.from({ length: 20 }, () => applyIncomingPayment(acme, { ...money })));
    expect(results.filter((r) => r === "applied")).toHaveLength(1);
    expect(results.filter((r) => r === "duplicate")).toHaveLength(19);
    expect(await count("payments")).toBe(before.payments + 1);
    expect(await count("statement_lines")).toBe(before.lines + 1);
    expect((await invoice(open.id)).balance_cents).toBe(open.amount_cents - 3_00);
    // And a late repeat, after the fact.
    expect(await applyIncomingPayment(acme, { ...money, amountCents: 9_99 })).toBe("duplicate");
    expect((await invoice(open.id)).balance_cents).toBe(open.amount_cents - 3_00);
  });

  it("refuses money for a PayID no account of this business has, and changes nothing", async () => {
    const before = { payments: await count("payments"), received: await count("payto_incoming_payments") };
    expect(await applyIncomingPayment(acme, incoming(1_00, { payId: "nobody@pay.acme.example" }))).toBe("unknown");
    // Acme's PayID, delivered to Kiwi: another business's PayID is unknown there.
    expect(await applyIncomingPayment(kiwi, incoming(1_00, { merchant: kiwi }))).toBe("unknown");
    expect(await applyIncomingPayment(acme, incoming(1_00, { payId: "' OR 1=1 --@pay.acme.example" }))).toBe("unknown");
    expect(await count("payments")).toBe(before.payments);
    expect(await count("payto_incoming_payments")).toBe(before.received);
  });

  it("refuses malformed amounts and transaction ids, and changes nothing", async () => {
    const before = await count("payments");
    for (const bad of [0, -100, 1.5, Number.NaN, 2 ** 60]) {
      expect(await applyIncomingPayment(acme, incoming(bad))).toBe("unknown");
    }
    expect(await applyIncomingPayment(acme, incoming(1_00, { transactionId: "" }))).toBe("unknown");
    expect(await applyIncomingPayment(acme, incoming(1_00, { transactionId: "x".repeat(101) }))).toBe("unknown");
    expect(await count("payments")).toBe(before);
  });

  describe("each account's own PayID, registered with the provider once", () => {
    let coastal: { id: string; number: string };
    const account = () => ({
      businessId: acme,
      hostname: "acme.localhost",
      accountId: coastal.id,
      accountNumber: coastal.number,
    });
    const registrations = async (payid: string) =>
      Number(
        (
          await handle.db
            .selectFrom("sandbox_payto_payids")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("payid", "=", payid)
            .executeTakeFirstOrThrow()
        ).n,
      );

    beforeAll(async () => {
      coastal = await handle.db
        .selectFrom("accounts")
        .select(["id", "number"])
        .where("number", "=", "ACME-1000")
        .executeTakeFirstOrThrow();
    });

    it("is <account number>@<domain>, registered the first time and then read from our own table", async () => {
      const first = await getAccountPayId(account());
      expect(first).toEqual({ status: "ready", payId: "acme-1000@pay.acme.example", name: "Acme Plumbing Supplies" });
      expect(await getAccountPayId(account())).toEqual(first);
      expect(await registrations("acme-1000@pay.acme.example")).toBe(1);
      const registered = await handle.db
        .selectFrom("sandbox_payto_payids")
        .selectAll()
        .where("payid", "=", "acme-1000@pay.acme.example")
        .executeTakeFirstOrThrow();
      expect(registered).toMatchObject({ merchant: acme, reference: coastal.id, hostname: "acme.localhost" });
      const stored = await handle.db
        .selectFrom("payto_payids")
        .select("payid")
        .where("business_id", "=", acme)
        .where("account_id", "=", coastal.id)
        .execute();
      expect(stored).toEqual([{ payid: "acme-1000@pay.acme.example" }]);
    });

    it("concurrent first views register it once", async () => {
      const branch = await handle.db
        .selectFrom("accounts")
        .select(["id", "number"])
        .where("number", "=", "ACME-1001")
        .executeTakeFirstOrThrow();
      const view = () =>
        getAccountPayId({
          businessId: acme,
          hostname: "acme.localhost",
          accountId: branch.id,
          accountNumber: branch.number,
        });
      const answers = await Promise.all(Array.from({ length: 5 }, view));
      expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
        new Set([
          JSON.stringify({ status: "ready", payId: "acme-1001@pay.acme.example", name: "Acme Plumbing Supplies" }),
        ]),
      );
      expect(await registrations("acme-1001@pay.acme.example")).toBe(1);
    });

    it("two account numbers that make the same PayID get two PayIDs", async () => {
      const twin = await handle.db
        .insertInto("accounts")
        .values({ business_id: acme, number: "acme 1000", name: "Twin Pty Ltd", parent_account_id: null })
        .returning(["id", "number"])
        .executeTakeFirstOrThrow();
      const answer = await getAccountPayId({
        businessId: acme,
        hostname: "acme.localhost",
        accountId: twin.id,
        accountNumber: twin.number,
      });
      expect(answer).toEqual({
        status: "ready",
        payId: `acme1000@pay.acme.example`,
        name: "Acme Plumbing Supplies",
      });
      const clash = await handle.db
        .insertInto("accounts")
        .values({ business_id: acme, number: "ACME1000", name: "Clash Pty Ltd", parent_account_id: null })
        .returning(["id", "number"])
        .executeTakeFirstOrThrow();
      const second = await getAccountPayId({
        businessId: acme,
        hostname: "acme.localhost",
        accountId: clash.id,
        accountNumber: clash.number,
      });
      expect(second).toEqual({
        status: "ready",
        payId: `acme1000-${clash.id.slice(0, 8)}@pay.acme.example`,
        name: "Acme Plumbing Supplies",
      });
    });

    it("a provider refusal shows as unavailable, and nothing is stored", async () => {
      const refused = await handle.db
        .insertInto("accounts")
        .values({ business_id: acme, number: "ACME-7777", name: "Refused Pty Ltd", parent_account_id: null })
        .returning(["id", "number"])
        .executeTakeFirstOrThrow();
      // Someone else holds this PayID at the provider: it refuses to register it for us.
      await handle.db
        .insertInto("sandbox_payto_payids")
        .values({
          payid: "acme-7777@pay.acme.example",
          merchant: "another-merchant",
          hostname: "elsewhere.example",
          reference: "x",
          name: "Elsewhere",
        })
        .execute();
      const actor = {
        businessId: acme,
        hostname: "acme.localhost",
        accountId: refused.id,
        accountNumber: refused.number,
      };
      expect(await getAccountPayId(actor)).toEqual({ status: "unavailable" });
      const stored = await handle.db
        .selectFrom("payto_payids")
        .select("payid")
        .where("account_id", "=", refused.id)
        .execute();
      expect(stored).toEqual([]);
    });

    it("is not offered where PayTo is off, nor without a domain, nor in New Zealand", async () => {
      await handle.db
        .updateTable("payto_settings")
        .set({ payid_domain: null })
        .where("business_id", "=", acme)
        .execute();
      const fresh = await handle.db
        .insertInto("accounts")
        .values({ business_id: acme, number: "ACME-8888", name: "Fresh Pty Ltd", parent_account_id: null })
        .returning(["id", "number"])
        .executeTakeFirstOrThrow();
      const actor = { businessId: acme, hostname: "acme.localhost", accountId: fresh.id, accountNumber: fresh.number };
      expect(await getAccountPayId(actor)).toEqual({ status: "off", reason: "no_domain" });
      // A PayID already given out keeps working: payers may have saved it.
      expect(await getAccountPayId(account())).toMatchObject({ status: "ready", payId: "acme-1000@pay.acme.example" });
      await handle.db.updateTable("payto_settings").set({ enabled: false }).where("business_id", "=", acme).execute();
      expect(await getAccountPayId(account())).toEqual({ status: "off", reason: "not_offered" });
      await handle.db
        .updateTable("payto_settings")
        .set({ enabled: true, payid_domain: "pay.acme.example" })
        .where("business_id", "=", acme)
        .execute();
      const kf = await handle.db
        .selectFrom("accounts")
        .select(["id", "number"])
        .where("number", "=", "KF-500")
        .executeTakeFirstOrThrow();
      expect(
        await getAccountPayId({
          businessId: kiwi,
          hostname: "kiwi.localhost",
          accountId: kf.id,
          accountNumber: kf.number,
        }),
      ).toEqual({ status: "off", reason: "not_offered" });
    });

    it("money through a correctly signed webhook is applied once; a duplicate delivery changes nothing", async () => {
      const owing = await handle.db
        .updateTable("invoices")
        .set((eb) => ({ balance_cents: eb.ref("amount_cents"), status: 1 }))
        .where("account_id", "=", coastal.id)
        .where("number", "=", "ACME-1000-INV-024")
        .returning(["id", "amount_cents"])
        .executeTakeFirstOrThrow();
      const [oldest] = await handle.db
        .selectFrom("invoices")
        .select(["id", "balance_cents"])
        .where("account_id", "=", coastal.id)
        .where("status", "in", [1, 3, 7, 8])
        .where("balance_cents", ">", 0)
        .orderBy("due_date")
        .orderBy("number")
        .limit(1)
        .execute();
      const data = incoming(1_00, { payId: "acme-1000@pay.acme.example", reference: coastal.id });
      const deliver = (eventId: string, payload = data, secret = webhookSecret()) => {
        const body = JSON.stringify({
          id: eventId,
          type: "payid.received",
          createdAt: new Date().toISOString(),
          data: payload,
        });
        const headers = new Headers({
          "content-type": "application/json",
          "PayTo-Signature": signWebhook(secret, body, Math.floor(Date.now() / 1000)),
        });
        return receiveWebhook(acme, headers, body);
      };
      const before = await count("payments");
      expect(await deliver("evt_payid_1")).toEqual({ status: 200, body: { received: true, result: "applied" } });
      // The same event again (the provider missed our answer), and the same money under a new event id.
      expect(await deliver("evt_payid_1")).toMatchObject({ status: 200, body: { duplicate: true } });
      expect(await deliver("evt_payid_2")).toEqual({ status: 200, body: { received: true, result: "duplicate" } });
      expect(await count("payments")).toBe(before + 1);
      expect((await invoice(oldest!.id)).balance_cents).toBe(oldest!.balance_cents - 1_00);
      expect(owing.amount_cents).toBeGreaterThan(0);

      // Forged: signed with another secret. Unknown: a PayID nobody has. Neither changes anything.
      expect((await deliver("evt_payid_3", incoming(5_00), "not-the-secret")).status).toBe(401);
      expect(await deliver("evt_payid_4", incoming(5_00, { payId: "nobody@pay.acme.example" }))).toMatchObject({
        status: 404,
      });
      expect(await count("payments")).toBe(before + 1);
    });
  });

  it("matches the PayID whatever its case", async () => {
    const money = incoming(1_00, { payId: payId.toUpperCase() });
    expect(await applyIncomingPayment(acme, money)).toBe("applied");
  });
}

describe("on PGlite", () => {
  payIdSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

// Real concurrency: twenty connections racing for one transaction id.
describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  payIdSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
