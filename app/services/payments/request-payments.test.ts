import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { cancelPaymentRequest } from "../requests/commands.server";
import { getPaymentRequest, listPaymentRequests } from "../requests/queries.server";
import { sendPaymentRequest } from "../requests/sending.server";
import type { PayMethod, PaymentFor, PaySelection } from "./payment-records.server";
import { settleFailedPayToPayment } from "./settle.server";
import { submitPayment } from "./submit.server";

/**
 * The payment engine's side of payment requests and ad-hoc payments (issue 14): a request's
 * rules checked under its lock, money that pays no invoice, and the request's paid state.
 */
function requestPaymentSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let actor: { businessId: string; accountId: string; contactId: string; clientIp: string };
  let otherAccount: string;
  let savedCard: string;
  const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    otherAccount = (
      await handle.db.selectFrom("accounts").select("id").where("number", "=", "ACME-2000").executeTakeFirstOrThrow()
    ).id;
    actor = { businessId: contact.business_id, accountId: account.id, contactId: contact.id, clientIp: "127.0.0.1" };
    savedCard = (
      await handle.db
        .selectFrom("cards")
        .select("id")
        .where("account_id", "=", actor.accountId)
        .where("last4", "=", "1111")
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  /** New open invoices of the account, due in 30 days (no late fee, no early discount in reach). */
  let invoiceSeq = 0;
  const freshInvoices = async (count: number, accountId = actor.accountId) => {
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const rows = await handle.db
      .insertInto("invoices")
      .values(
        Array.from({ length: count }, (_, i) => ({
          business_id: actor.businessId,
          account_id: accountId,
          number: `REQ-TEST-${++invoiceSeq}-${randomUUID().slice(0, 6)}`,
          issue_date: today,
          due_date: due,
          amount_cents: 20_000 + i * 1_000,
          balance_cents: 20_000 + i * 1_000,
          status: 1,
          promise_date: null,
          dispute_reason: null,
        })),
      )
      .returning(["id", "number", "balance_cents as balance"])
      .execute();
    return rows.map((r) => ({ ...r, balance: Number(r.balance) }));
  };

  const makeRequest = async (input: {
    kind: "invoices" | "amount";
    invoices?: { id: string; balance: number }[];
    amountCents?: number;
    allowPartPayment?: boolean;
    minPartPaymentCents?: number | null;
    status?: "created" | "sent" | "paid" | "cancelled";
    expiresAt?: Date;
    accountId?: string;
  }) => {
    const amount = input.kind === "amount" ? input.amountCents! : input.invoices!.reduce((n, i) => n + i.balance, 0);
    const request = await handle.db
      .insertInto("payment_requests")
      .values({
        business_id: actor.businessId,
        account_id: input.accountId ?? actor.accountId,
        reference: `PR-${randomUUID()
          .replace(/-/g, "")
          .slice(0, 8)
          .toUpperCase()
          .replace(/[^0-9A-Z]/g, "0")}`,
        kind: input.kind,
        description: "Test request",
        currency: "AUD",
        amount_cents: amount,
        allow_part_payment: input.allowPartPayment ?? false,
        min_part_payment_cents: input.minPartPaymentCents ?? null,
        expires_at: input.expiresAt ?? new Date(Date.now() + 86_400_000),
        status: input.status ?? "sent",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.invoices?.length) {
      await handle.db
        .insertInto("payment_request_invoices")
        .values(
          input.invoices.map((i) => ({
            request_id: request.id,
            invoice_id: i.id,
            business_id: actor.businessId,
            amount_cents: i.balance,
          })),
        )
        .execute();
    }
    return request.id;
  };

  const pay = (
    paymentFor: PaymentFor,
    selection: PaySelection = [],
    method: PayMethod = { kind: "saved-card", cardId: savedCard },
    requestGuid = randomUUID(),
    who = actor,
  ) => submitPayment(who, { requestGuid, selection, method, note: "", currency: "AUD", today, paymentFor }, context);

  const requestRow = (id: string) =>
    handle.db.selectFrom("payment_requests").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const paymentsOf = (id: string) =>
    handle.db.selectFrom("payments").selectAll().where("payment_request_id", "=", id).execute();

  describe("a request of invoices", () => {
    it("takes a part-payment of at least its minimum, then the rest, and is paid", async () => {
      const [a, b] = await freshInvoices(2);
      const id = await makeRequest({
        kind: "invoices",
        invoices: [a!, b!],
        allowPartPayment: true,
        minPartPaymentCents: 5_000,
      });

      expect(await pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: 4_999 }])).toEqual({
        kind: "invalid",
        problem: "belowMinimum",
      });
      expect(await paymentsOf(id)).toHaveLength(0);

      const part = await pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: 5_000 }]);
      expect(part.kind).toBe("succeeded");
      let row = await requestRow(id);
      expect(Number(row.paid_cents)).toBe(5_000);
      expect(row.status).toBe("sent");

      // What is left, in one payment, is always allowed (even if it were below the minimum).
      const rest = await pay({ kind: "request", requestId: id }, [
        { invoiceId: a!.id, amountCents: a!.balance - 5_000 },
        { invoiceId: b!.id, amountCents: b!.balance },
      ]);
      expect(rest.kind).toBe("succeeded");
      row = await requestRow(id);
      expect(Number(row.paid_cents)).toBe(a!.balance + b!.balance);
      expect(row.status).toBe("paid");
      expect(row.paid_at).not.toBeNull();
      const closed = await handle.db
        .selectFrom("invoices")
        .select(["balance_cents", "status"])
        .where("id", "in", [a!.id, b!.id])
        .execute();
      expect(closed.every((i) => Number(i.balance_cents) === 0 && i.status === 2)).toBe(true);

      expect(await pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: 1 }])).toEqual({
        kind: "invalid",
        problem: "requestClosed",
      });
    });

    it("charges what its email asked, plus a card's surcharge: no late fee on an overdue invoice, no early discount", async () => {
      // Acme's rules add 2% + $5 to an overdue invoice and take 1% off one paid 10 days early.
      const [overdue, early] = await freshInvoices(2);
      const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
      await handle.db
        .updateTable("invoices")
        .set({ issue_date: daysAgo(35), due_date: daysAgo(5) })
        .where("id", "=", overdue!.id)
        .execute();
      const id = await makeRequest({ kind: "invoices", invoices: [overdue!, early!] });
      const asked = overdue!.balance + early!.balance;
      const paid = await pay({ kind: "request", requestId: id }, [
        { invoiceId: overdue!.id, amountCents: overdue!.balance },
        { invoiceId: early!.id, amountCents: early!.balance },
      ]);
      expect(paid.kind).toBe("succeeded");
      const [payment] = await paymentsOf(id);
      expect(Number(payment!.late_fee_cents)).toBe(0);
      expect(Number(payment!.discount_cents)).toBe(0);
      expect(Number(payment!.subtotal_cents)).toBe(asked);
      // The saved Visa carries Acme's 1.2%, rounded half up to the cent.
      expect(Number(payment!.merchant_fee_cents)).toBe(Math.round((asked * 120) / 10_000));
      expect(Number(payment!.amount_cents)).toBe(asked + Math.round((asked * 120) / 10_000));
    });

    it("is paid in full when it does not allow part-payment, and only its own invoices", async () => {
      const [a, b, outside] = await freshInvoices(3);
      const id = await makeRequest({ kind: "invoices", invoices: [a!, b!] });
      expect(await pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: a!.balance }])).toEqual({
        kind: "invalid",
        problem: "fullPaymentRequired",
      });
      expect(
        await pay({ kind: "request", requestId: id }, [{ invoiceId: outside!.id, amountCents: outside!.balance }]),
      ).toEqual({ kind: "invalid", problem: "invoice" });
      expect(
        await pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: a!.balance + 1 }]),
      ).toEqual({ kind: "invalid", problem: "aboveRemaining" });
      expect(await paymentsOf(id)).toHaveLength(0);
      const full = await pay({ kind: "request", requestId: id }, [
        { invoiceId: a!.id, amountCents: a!.balance },
        { invoiceId: b!.id, amountCents: b!.balance },
      ]);
      expect(full.kind).toBe("succeeded");
      expect((await requestRow(id)).status).toBe("paid");
    });

    it("counts an invoice paid elsewhere: the request asks only for what is still owing", async () => {
      const [a, b] = await freshInvoices(2);
      const id = await makeRequest({ kind: "invoices", invoices: [a!, b!] });
      // Invoice a is paid on the ordinary pay page, outside the request.
      expect(
        (
          await submitPayment(
            actor,
            {
              requestGuid: randomUUID(),
              selection: [{ invoiceId: a!.id, amountCents: a!.balance }],
              method: { kind: "saved-card", cardId: savedCard },
              note: "",
              currency: "AUD",
              today,
            },
            context,
          )
        ).kind,
      ).toBe("succeeded");
      expect((await requestRow(id)).status).toBe("sent");
      const rest = await pay({ kind: "request", requestId: id }, [{ invoiceId: b!.id, amountCents: b!.balance }]);
      expect(rest.kind).toBe("succeeded");
      const row = await requestRow(id);
      expect(row.status).toBe("paid");
      expect(Number(row.paid_cents)).toBe(b!.balance);
    });
  });

  describe("a request of invoices paid another way", () => {
    /** An ordinary payment of the pay page, outside any request. */
    const payInvoices = (selection: PaySelection) =>
      submitPayment(
        actor,
        {
          requestGuid: randomUUID(),
          selection,
          method: { kind: "saved-card", cardId: savedCard },
          note: "",
          currency: "AUD",
          today,
        },
        context,
      );
    const inList = async (state: string, id: string) =>
      (await listPaymentRequests(actor.businessId, { state, account: "ACME-1000", limit: 100 })).items.some(
        (item) => item.id === id,
      );

    it("reads as part-paid, then paid, in the view and the list's filters; send and cancel are refused once paid", async () => {
      const [a, b] = await freshInvoices(2);
      const id = await makeRequest({ kind: "invoices", invoices: [a!, b!] });
      expect((await getPaymentRequest(actor.businessId, id))!).toMatchObject({
        state: "sent",
        remainingCents: a!.balance + b!.balance,
      });

      expect((await payInvoices([{ invoiceId: a!.id, amountCents: a!.balance }])).kind).toBe("succeeded");
      let view = (await getPaymentRequest(actor.businessId, id))!;
      // Nothing reached the request's own figures: what is owing is read from its invoices.
      expect(view).toMatchObject({ state: "part-paid", paidCents: 0, remainingCents: b!.balance });
      expect([await inList("part-paid", id), await inList("sent", id)]).toEqual([true, false]);

      expect((await payInvoices([{ invoiceId: b!.id, amountCents: b!.balance }])).kind).toBe("succeeded");
      view = (await getPaymentRequest(actor.businessId, id))!;
      expect(view).toMatchObject({ state: "paid", paidCents: 0, remainingCents: 0 });
      expect([await inList("paid", id), await inList("part-paid", id), await inList("expired", id)]).toEqual([
        true,
        false,
        false,
      ]);
      const resend = sendPaymentRequest(actor.businessId, id, { resend: true });
      await expect(resend).rejects.toMatchObject({
        code: "conflict",
        message: expect.stringMatching(/Nothing is owing/),
      });
      await expect(cancelPaymentRequest(actor.businessId, id)).rejects.toMatchObject({ code: "conflict" });
      // Paid as read: the stored row is untouched (no settlement waits on the request's lock).
      expect((await requestRow(id)).status).toBe("sent");
      // And the engine takes nothing more for it.
      expect(await pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: 1 }])).toEqual({
        kind: "invalid",
        problem: "requestClosed",
      });
    });

    it("stays paid past its expiry; a request still owing past it reads as expired", async () => {
      const [a, b] = await freshInvoices(2);
      const paidOff = await makeRequest({ kind: "invoices", invoices: [a!], expiresAt: new Date(Date.now() + 1_000) });
      const owing = await makeRequest({ kind: "invoices", invoices: [b!], expiresAt: new Date(Date.now() + 1_000) });
      expect((await payInvoices([{ invoiceId: a!.id, amountCents: a!.balance }])).kind).toBe("succeeded");
      const later = new Date(Date.now() + 60_000);
      expect((await getPaymentRequest(actor.businessId, paidOff, { now: later }))!.state).toBe("paid");
      expect((await getPaymentRequest(actor.businessId, owing, { now: later }))!.state).toBe("expired");
      const expired = await listPaymentRequests(
        actor.businessId,
        { state: "expired", account: "ACME-1000", limit: 100 },
        { now: later },
      );
      expect(expired.items.map((i) => i.id)).toContain(owing);
      expect(expired.items.map((i) => i.id)).not.toContain(paidOff);
    });
  });

  describe("a request of a stated amount", () => {
    it("becomes credit on the account: no allocation, a credit line and the surcharge as its own line", async () => {
      const id = await makeRequest({ kind: "amount", amountCents: 25_000, allowPartPayment: true });
      expect(await pay({ kind: "request", requestId: id, creditCents: 25_001 })).toEqual({
        kind: "invalid",
        problem: "aboveRemaining",
      });
      const outcome = await pay({ kind: "request", requestId: id, creditCents: 10_000 });
      expect(outcome.kind).toBe("succeeded");
      const [payment] = await paymentsOf(id);
      expect(payment).toMatchObject({ purpose: "request", subtotal_cents: 10_000 });
      const allocations = await handle.db
        .selectFrom("payment_allocations")
        .select("invoice_id")
        .where("payment_id", "=", payment!.id)
        .execute();
      expect(allocations).toHaveLength(0);
      const lines = await handle.db
        .selectFrom("statement_lines")
        .select(["type", "debit_cents", "credit_cents"])
        .where("reference", "=", payment!.reference)
        .execute();
      const net = lines.reduce((n, l) => n + Number(l.credit_cents) - Number(l.debit_cents), 0);
      expect(net).toBe(10_000);
      expect(Number(payment!.amount_cents) - Number(payment!.merchant_fee_cents)).toBe(10_000);
      expect((await requestRow(id)).paid_cents).toBe(10_000);

      expect((await pay({ kind: "request", requestId: id, creditCents: 15_000 })).kind).toBe("succeeded");
      expect((await requestRow(id)).status).toBe("paid");
    });

    it("a PayTo payment settled after it failed never counts more than the amount towards the request", async () => {
      const id = await makeRequest({ kind: "amount", amountCents: 10_000 });
      // A PayTo payment of all of it was failed (its bank took too long); the request was then paid by card.
      const late = await handle.db
        .insertInto("payments")
        .values({
          business_id: actor.businessId,
          account_id: actor.accountId,
          request_guid: randomUUID(),
          request_hash: "b".repeat(64),
          reference: `PAY-${randomUUID().slice(0, 10).toUpperCase()}`,
          method: "payto",
          status: "failed",
          currency: "AUD",
          amount_cents: 10_000,
          subtotal_cents: 10_000,
          merchant_fee_cents: 0,
          late_fee_cents: 0,
          discount_cents: 0,
          note: "",
          created_by: actor.contactId,
          purpose: "request",
          payment_request_id: id,
        })
        .returning(["id", "reference"])
        .executeTakeFirstOrThrow();
      expect((await pay({ kind: "request", requestId: id, creditCents: 10_000 })).kind).toBe("succeeded");
      expect(await requestRow(id)).toMatchObject({ status: "paid", paid_cents: 10_000 });

      // Then the bank settles the PayTo payment after all: the money is kept as credit on the
      // account, and the request's paid figure stays at its amount.
      expect(await settleFailedPayToPayment(late.id, `provider-${randomUUID()}`)).toEqual({ kind: "settled" });
      expect(await requestRow(id)).toMatchObject({ status: "paid", paid_cents: 10_000 });
      const credit = await handle.db
        .selectFrom("statement_lines")
        .select("credit_cents")
        .where("reference", "=", late.reference)
        .executeTakeFirstOrThrow();
      expect(Number(credit.credit_cents)).toBe(10_000);
    });

    it("refuses invoices with a stated amount, a promise, and zero or fractional cents", async () => {
      const [a] = await freshInvoices(1);
      const id = await makeRequest({ kind: "amount", amountCents: 5_000 });
      expect(
        await pay({ kind: "request", requestId: id, creditCents: 5_000 }, [{ invoiceId: a!.id, amountCents: 1 }]),
      ).toEqual({ kind: "invalid", problem: "invoice" });
      expect(
        await pay({ kind: "request", requestId: id, creditCents: 5_000 }, [], { kind: "promise", promiseDate: today }),
      ).toEqual({ kind: "invalid", problem: "method" });
      for (const creditCents of [0, -1, 1.5]) {
        expect(await pay({ kind: "request", requestId: id, creditCents })).toEqual({
          kind: "invalid",
          problem: "amount",
        });
      }
      expect(await paymentsOf(id)).toHaveLength(0);
    });
  });

  describe("two tabs, twenty tabs", () => {
    it("twenty different payments of a request's whole amount at once: one is taken, the rest are told", async () => {
      const id = await makeRequest({ kind: "amount", amountCents: 7_500 });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => pay({ kind: "request", requestId: id, creditCents: 7_500 })),
      );
      expect(outcomes.filter((o) => o.kind === "succeeded")).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.kind !== "succeeded")) {
        expect(o.kind === "invalid" && ["aboveRemaining", "requestClosed"].includes(o.problem)).toBe(true);
      }
      const taken = (await paymentsOf(id)).filter((p) => p.status === "succeeded");
      expect(taken).toHaveLength(1);
      const row = await requestRow(id);
      expect([row.status, Number(row.paid_cents)]).toEqual(["paid", 7_500]);
    });

    it("two part-payments of a request of invoices at once never take more than it asked", async () => {
      const [a] = await freshInvoices(1);
      const id = await makeRequest({ kind: "invoices", invoices: [a!], allowPartPayment: true });
      const share = Math.floor(a!.balance / 2) + 1; // two of these are more than the balance
      const outcomes = await Promise.all(
        [0, 1].map(() => pay({ kind: "request", requestId: id }, [{ invoiceId: a!.id, amountCents: share }])),
      );
      expect(outcomes.map((o) => o.kind).sort()).toEqual(["invalid", "succeeded"]);
      const invoice = await handle.db
        .selectFrom("invoices")
        .select("balance_cents")
        .where("id", "=", a!.id)
        .executeTakeFirstOrThrow();
      expect(Number(invoice.balance_cents)).toBe(a!.balance - share);
    });
  });

  describe("requests that take nothing", () => {
    it("cancelled, paid, expired, another account's or not a request at all", async () => {
      const cancelled = await makeRequest({ kind: "amount", amountCents: 1_000, status: "cancelled" });
      const paid = await makeRequest({ kind: "amount", amountCents: 1_000, status: "paid" });
      const expired = await makeRequest({ kind: "amount", amountCents: 1_000, expiresAt: new Date(Date.now() - 1) });
      const others = await makeRequest({ kind: "amount", amountCents: 1_000, accountId: otherAccount });
      for (const requestId of [cancelled, paid, expired, others, randomUUID(), "not-a-uuid", "' OR 1=1 --"]) {
        expect(await pay({ kind: "request", requestId, creditCents: 1_000 })).toEqual({
          kind: "invalid",
          problem: "requestClosed",
        });
      }
      const none = await handle.db
        .selectFrom("payments")
        .select("id")
        .where("payment_request_id", "in", [cancelled, paid, expired, others])
        .execute();
      expect(none).toHaveLength(0);
    });

    it("the same requestGuid for another request is a conflict, not a second payment", async () => {
      const one = await makeRequest({ kind: "amount", amountCents: 2_000 });
      const two = await makeRequest({ kind: "amount", amountCents: 2_000 });
      const guid = randomUUID();
      expect((await pay({ kind: "request", requestId: one, creditCents: 2_000 }, [], undefined, guid)).kind).toBe(
        "succeeded",
      );
      expect(await pay({ kind: "request", requestId: two, creditCents: 2_000 }, [], undefined, guid)).toEqual({
        kind: "conflict",
      });
      // A repeat of the first is its first answer.
      expect((await pay({ kind: "request", requestId: one, creditCents: 2_000 }, [], undefined, guid)).kind).toBe(
        "succeeded",
      );
      expect(await paymentsOf(two)).toHaveLength(0);
      expect(await paymentsOf(one)).toHaveLength(1);
    });
  });

  describe("ad-hoc payments", () => {
    const setAdhoc = (enabled: boolean, min = 1_000, max = 500_000) =>
      handle.db
        .insertInto("adhoc_settings")
        .values({ business_id: actor.businessId, enabled, min_cents: min, max_cents: max })
        .onConflict((oc) => oc.column("business_id").doUpdateSet({ enabled, min_cents: min, max_cents: max }))
        .execute();

    it("are refused where the business does not take them, and outside its limits", async () => {
      await setAdhoc(false);
      const adhoc = (creditCents: number, payerReference = "Deposit") => ({
        kind: "adhoc" as const,
        creditCents,
        payerReference,
      });
      expect(await pay(adhoc(5_000))).toEqual({ kind: "invalid", problem: "adhocDisabled" });
      await setAdhoc(true);
      expect(await pay(adhoc(999))).toEqual({ kind: "invalid", problem: "belowMinimum" });
      expect(await pay(adhoc(500_001))).toEqual({ kind: "invalid", problem: "aboveMaximum" });
      expect(await pay(adhoc(5_000, ""))).toEqual({ kind: "invalid", problem: "amount" });
      expect(await pay(adhoc(5_000, "x".repeat(81)))).toEqual({ kind: "invalid", problem: "amount" });
      expect(await pay(adhoc(5_000, "line\nbreak"))).toEqual({ kind: "invalid", problem: "amount" });
    });

    it("land as credit on the account with the payer's reference on the statement", async () => {
      await setAdhoc(true);
      const reference = "Deposit <b>job</b> 42 ✓";
      const outcome = await pay({ kind: "adhoc", creditCents: 12_345, payerReference: reference });
      expect(outcome.kind).toBe("succeeded");
      if (outcome.kind !== "succeeded") return;
      const payment = await handle.db
        .selectFrom("payments")
        .selectAll()
        .where("id", "=", outcome.paymentId)
        .executeTakeFirstOrThrow();
      expect(payment).toMatchObject({ purpose: "adhoc", payer_reference: reference, subtotal_cents: 12_345 });
      const lines = await handle.db
        .selectFrom("statement_lines")
        .select(["type", "description", "debit_cents", "credit_cents"])
        .where("reference", "=", payment.reference)
        .execute();
      expect(lines.find((l) => l.type === "payment")?.description).toContain(reference);
      expect(lines.reduce((n, l) => n + Number(l.credit_cents) - Number(l.debit_cents), 0)).toBe(12_345);
    });
  });
}

describe("on PGlite", () => {
  requestPaymentSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  requestPaymentSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
