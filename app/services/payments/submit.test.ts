import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import type { PayMethod } from "./payment-records.server";
import { submitPayment } from "./submit.server";

function paymentSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let actor: { businessId: string; accountId: string; contactId: string; clientIp: string };
  let otherAccount: string;
  const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
  const today = new Date().toISOString().slice(0, 10);
  const nextYear = new Date().getUTCFullYear() + 1;

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
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const invoices = (accountId = actor.accountId, statuses = [1, 3, 7, 8]) =>
    handle.db
      .selectFrom("invoices")
      .select(["id", "number", "balance_cents", "status", "due_date"])
      .where("account_id", "=", accountId)
      .where("status", "in", statuses)
      .where("balance_cents", ">", 0)
      .orderBy("number")
      .execute();

  const savedVisa = async () =>
    (
      await handle.db
        .selectFrom("cards")
        .select("id")
        .where("account_id", "=", actor.accountId)
        .where("last4", "=", "1111")
        .executeTakeFirstOrThrow()
    ).id;

  const newCard = (cardNumber: string): PayMethod => ({
    kind: "new-card",
    card: {
      cardNumber,
      cvn: "123",
      expiryMonth: 12,
      expiryYear: nextYear,
      holderName: "Olivia",
      save: false,
      authorityReference: "X",
    },
  });

  const charges = async () =>
    Number(
      (
        await handle.db
          .selectFrom("sandbox_gateway_charges")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe("paying invoices exactly once", () => {
    it("pays one invoice in full with a saved card: balance, status and statement move with it", async () => {
      const [invoice] = await invoices();
      const guid = randomUUID();
      const before = await charges();
      const outcome = await submitPayment(
        actor,
        {
          requestGuid: guid,
          selection: [{ invoiceId: invoice!.id, amountCents: invoice!.balance_cents }],
          method: { kind: "saved-card", cardId: await savedVisa() },
          note: "thanks",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(outcome.kind).toBe("succeeded");
      const after = await handle.db
        .selectFrom("invoices")
        .select(["balance_cents", "status"])
        .where("id", "=", invoice!.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ balance_cents: 0, status: 2 });
      const payment = await handle.db
        .selectFrom("payments")
        .selectAll()
        .where("request_guid", "=", guid)
        .executeTakeFirstOrThrow();
      expect(payment.status).toBe("succeeded");
      expect(payment.amount_cents).toBe(
        payment.subtotal_cents + payment.late_fee_cents - payment.discount_cents + payment.merchant_fee_cents,
      );
      expect(payment.merchant_fee_cents).toBeGreaterThan(0);
      expect(await charges()).toBe(before + 1);
      const lines = await handle.db
        .selectFrom("statement_lines")
        .selectAll()
        .where("reference", "=", payment.reference)
        .execute();
      const net = lines.reduce((sum, l) => sum + l.debit_cents - l.credit_cents, 0);
      expect(net).toBe(-payment.subtotal_cents);

      // The same submission again (double click, reload, retry): the first result, no new charge.
      const again = await submitPayment(
        actor,
        {
          requestGuid: guid,
          selection: [{ invoiceId: invoice!.id, amountCents: invoice!.balance_cents }],
          method: { kind: "saved-card", cardId: await savedVisa() },
          note: "thanks",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(again).toEqual(outcome);
      expect(await charges()).toBe(before + 1);
      // The same guid with other content is refused.
      const tampered = await submitPayment(
        actor,
        {
          requestGuid: guid,
          selection: [{ invoiceId: invoice!.id, amountCents: 1 }],
          method: { kind: "saved-card", cardId: await savedVisa() },
          note: "thanks",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(tampered).toEqual({ kind: "conflict" });
    });

    it("50 simultaneous submissions of one payment charge once", async () => {
      const [invoice] = await invoices();
      const guid = randomUUID();
      const before = await charges();
      const input = {
        requestGuid: guid,
        selection: [{ invoiceId: invoice!.id, amountCents: 1_000 }],
        method: { kind: "saved-card", cardId: await savedVisa() } as PayMethod,
        note: "",
        currency: "AUD",
        today,
      };
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => submitPayment(actor, input, context)));
      expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(["succeeded"]));
      expect(await charges()).toBe(before + 1);
      const after = await handle.db
        .selectFrom("invoices")
        .select("balance_cents")
        .where("id", "=", invoice!.id)
        .executeTakeFirstOrThrow();
      expect(after.balance_cents).toBe(invoice!.balance_cents - 1_000);
    });

    it("a double submission that pays the whole balance answers both with the payment, one charge", async () => {
      const [invoice] = await invoices();
      const before = await charges();
      const input = {
        requestGuid: randomUUID(),
        selection: [{ invoiceId: invoice!.id, amountCents: invoice!.balance_cents }],
        method: { kind: "saved-card", cardId: await savedVisa() } as PayMethod,
        note: "",
        currency: "AUD",
        today,
      };
      const [first, second] = await Promise.all([
        submitPayment(actor, input, context),
        submitPayment(actor, input, context),
      ]);
      expect(first.kind).toBe("succeeded");
      expect(second).toEqual(first);
      expect(await charges()).toBe(before + 1);
    });

    it("refuses amounts above the balance, zero, another account's and closed invoices: nothing moves", async () => {
      const [invoice] = await invoices();
      const [foreign] = await invoices(otherAccount);
      const [closed] = await handle.db
        .selectFrom("invoices")
        .select("id")
        .where("account_id", "=", actor.accountId)
        .where("status", "=", 2)
        .limit(1)
        .execute();
      const before = await charges();
      const attempt = (invoiceId: string, amountCents: number) =>
        submitPayment(
          actor,
          {
            requestGuid: randomUUID(),
            selection: [{ invoiceId, amountCents }],
            method: { kind: "saved-card", cardId: "00000000-0000-0000-0000-000000000000" },
            note: "",
            currency: "AUD",
            today,
          },
          context,
        );
      expect(await attempt(invoice!.id, invoice!.balance_cents + 1)).toEqual({ kind: "invalid", problem: "card" });
      const pay = (invoiceId: string, amountCents: number, cardId: string) =>
        submitPayment(
          actor,
          {
            requestGuid: randomUUID(),
            selection: [{ invoiceId, amountCents }],
            method: { kind: "saved-card", cardId },
            note: "",
            currency: "AUD",
            today,
          },
          context,
        );
      const visa = await savedVisa();
      expect(await pay(invoice!.id, invoice!.balance_cents + 1, visa)).toEqual({ kind: "invalid", problem: "amount" });
      expect(await pay(invoice!.id, 0, visa)).toEqual({ kind: "invalid", problem: "amount" });
      expect(await pay(foreign!.id, 100, visa)).toEqual({ kind: "invalid", problem: "invoice" });
      expect(await pay(closed!.id, 100, visa)).toEqual({ kind: "invalid", problem: "invoice" });
      expect(await charges()).toBe(before);
    });

    it("a declined card records a failed payment and leaves the invoice; another card then pays it", async () => {
      const [invoice] = await invoices();
      const selection = [{ invoiceId: invoice!.id, amountCents: 500 }];
      const declined = await submitPayment(
        actor,
        { requestGuid: randomUUID(), selection, method: newCard("4000000000000002"), note: "", currency: "AUD", today },
        context,
      );
      expect(declined).toMatchObject({ kind: "declined", refusal: "declined" });
      const poor = await submitPayment(
        actor,
        { requestGuid: randomUUID(), selection, method: newCard("4000000000009995"), note: "", currency: "AUD", today },
        context,
      );
      expect(poor).toMatchObject({ kind: "declined", refusal: "insufficient_funds" });
      const unchanged = await handle.db
        .selectFrom("invoices")
        .select("balance_cents")
        .where("id", "=", invoice!.id)
        .executeTakeFirstOrThrow();
      expect(unchanged.balance_cents).toBe(invoice!.balance_cents);
      const ok = await submitPayment(
        actor,
        { requestGuid: randomUUID(), selection, method: newCard("5555555555554444"), note: "", currency: "AUD", today },
        context,
      );
      expect(ok.kind).toBe("succeeded");
    });

    it("a time-out after capture ends with one charge recorded, found by our key", async () => {
      const [invoice] = await invoices();
      const before = await charges();
      const guid = randomUUID();
      const outcome = await submitPayment(
        actor,
        {
          requestGuid: guid,
          selection: [{ invoiceId: invoice!.id, amountCents: 700 }],
          method: newCard("4000000000000119"),
          note: "",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(outcome.kind).toBe("succeeded");
      expect(await charges()).toBe(before + 1);
      const payment = await handle.db
        .selectFrom("payments")
        .select(["status", "gateway_charge_id"])
        .where("request_guid", "=", guid)
        .executeTakeFirstOrThrow();
      expect(payment.status).toBe("succeeded");
      expect(payment.gateway_charge_id).toMatch(/^ch_sbx_/);
    });

    it("a promise to pay moves the invoice to Promise with the date; no money moves", async () => {
      const [invoice] = await invoices(actor.accountId, [1, 3]);
      const before = await charges();
      const promiseDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const outcome = await submitPayment(
        actor,
        {
          requestGuid: randomUUID(),
          selection: [{ invoiceId: invoice!.id, amountCents: invoice!.balance_cents }],
          method: { kind: "promise", promiseDate },
          note: "paying Friday",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(outcome.kind).toBe("promised");
      const after = await handle.db
        .selectFrom("invoices")
        .select(["status", "promise_date", "balance_cents"])
        .where("id", "=", invoice!.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ status: 7, promise_date: promiseDate, balance_cents: invoice!.balance_cents });
      expect(await charges()).toBe(before);
    });

    it("two payments racing for one balance: the second is refused", async () => {
      const [invoice] = await invoices();
      const visa = await savedVisa();
      const pay = () =>
        submitPayment(
          actor,
          {
            requestGuid: randomUUID(),
            selection: [{ invoiceId: invoice!.id, amountCents: invoice!.balance_cents }],
            method: { kind: "saved-card", cardId: visa },
            note: "",
            currency: "AUD",
            today,
          },
          context,
        );
      const results = await Promise.all([pay(), pay()]);
      expect(results.map((r) => r.kind).sort()).toEqual(["invalid", "succeeded"]);
      const after = await handle.db
        .selectFrom("invoices")
        .select(["balance_cents", "status"])
        .where("id", "=", invoice!.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ balance_cents: 0, status: 2 });
    });
  });
}

describe("on PGlite", () => {
  paymentSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

// Real concurrency: several connections racing for one guid and one balance.
describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  paymentSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
