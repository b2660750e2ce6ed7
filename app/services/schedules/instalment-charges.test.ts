import fs from "node:fs";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { instalmentFixtures } from "../../../tests/support/instalment-fixtures";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { todayIn } from "~/lib/dates";
import { addDays } from "~/lib/instalments";
import type { CardGateway } from "../payments/gateway/card-gateway.server";
import { getCardGateway, setCardGatewayForTesting } from "../payments/gateway/index.server";
import { webhookSecret, setPayToProviderForTesting } from "../payments/payto/index.server";
import { failPayment } from "../payments/settle.server";
import { applyPaymentSnapshot } from "../payments/payto/payto-payments.server";
import { createSandboxPayTo, type SandboxPayTo } from "../payments/payto/sandbox-provider.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { payInstalment } from "./instalment-charges.server";
import { sendInstalmentEmail } from "./instalment-email.server";
import type { InstalmentEmail } from "./instalment-outcomes.server";

/**
 * payInstalment and the engine's instalment payments (decision 035) on a real database with the
 * sandbox gateway and the sandbox PayTo bank: exactly the instalment's amount, the money to the
 * schedule's invoices oldest due first, the instalment and schedule moving with the payment, the
 * retry policy, the contact's own tries, a crash between the charge and its recording, and bad
 * input. The queue's runner and its races are in instalment-runner.test.ts.
 */
function chargesSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let fx: ReturnType<typeof instalmentFixtures>;
  let acme: string;
  let kiwi: string;
  let bank: SandboxPayTo;
  let bankClock = new Date();
  const clock = fixedClock(new Date());

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    setClockForTesting(clock);
    fx = instalmentFixtures(handle.db);
    acme = await fx.businessOf("acme.localhost");
    kiwi = await fx.businessOf("kiwi.localhost");
    bank = createSandboxPayTo({
      secret: webhookSecret(),
      db: async () => handle.db,
      delayMs: 0,
      now: () => bankClock,
      settleMs: 5_000,
      deliver: async () => 200,
    });
    setPayToProviderForTesting(bank);
  });
  afterAll(async () => {
    setPayToProviderForTesting(undefined);
    setClockForTesting(undefined);
    setDatabaseForTesting(undefined);
    await close();
  });
  afterEach(() => {
    clock.set(new Date());
    setCardGatewayForTesting(undefined);
  });

  const today = async () => todayIn(await fx.timeZoneOf(acme), clock());
  const runner = (instalmentId: string, businessId = acme) =>
    payInstalment({ businessId, instalmentId, trigger: "runner" });

  /** An ACTIVE agreement at the sandbox bank for the account, and the portal's row for it. */
  async function payToAgreement(scope: { businessId: string; accountId: string; contactId: string }) {
    const guid = randomUUID();
    const created = await bank.createAgreement({
      idempotencyKey: `${scope.businessId}:${guid}`,
      merchant: scope.businessId,
      hostname: "acme.localhost",
      debtor: {
        partyType: "PERS",
        partyName: "Sky Schedule",
        ultimatePartyName: "",
        kind: "alias",
        aliasType: "EMAL",
        aliasValue: `payer-${guid.slice(0, 8)}@payto.test`,
      },
      maxAmountCents: 1_000_000,
      description: "Instalments",
    });
    if (!created.ok) throw new Error(created.refusal);
    const approved = await bank.payerApproves(created.value.agreementId);
    if (!approved.ok) throw new Error(approved.message);
    const row = await handle.db
      .insertInto("payto_agreements")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        request_guid: guid,
        request_hash: createHash("sha256").update(guid).digest("hex"),
        status: "ACTIVE",
        provider_agreement_id: approved.agreement.agreementId,
        provider_version: approved.agreement.version,
        party_name: "Sky Schedule",
        alias_type: "EMAL",
        alias_value: `payer-${guid.slice(0, 8)}@payto.test`,
        max_amount_cents: 1_000_000,
        created_by: scope.contactId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it("charges a due instalment exactly its amount plus the card surcharge, pays the oldest invoice first and emails a receipt", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [150_00, 150_00], invoiceCents: [100_00, 200_00] });
    // The invoices fall due on different days: the second one is the oldest.
    await handle.db
      .updateTable("invoices")
      .set({ due_date: addDays(await today(), 5) })
      .where("id", "=", made.invoices[1]!.id)
      .execute();
    const first = made.instalments[0]!;
    const outcome = await runner(first.id);
    expect(outcome.kind).toBe("paid");
    const { payments, charges } = await fx.moneyOf(made.scope.accountId);
    expect(payments).toHaveLength(1);
    expect(charges).toHaveLength(1);
    const payment = await handle.db
      .selectFrom("payments")
      .selectAll()
      .where("id", "=", payments[0]!.id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      purpose: "instalment",
      schedule_instalment_id: first.id,
      subtotal_cents: 150_00,
      late_fee_cents: 0,
      discount_cents: 0,
      status: "succeeded",
    });
    expect(payment.amount_cents).toBe(150_00 + payment.merchant_fee_cents);
    expect(charges[0]!.amount_cents).toBe(payment.amount_cents);
    const invoices = await handle.db
      .selectFrom("invoices")
      .select(["id", "balance_cents", "status"])
      .where(
        "id",
        "in",
        made.invoices.map((i) => i.id),
      )
      .execute();
    const byId = new Map(invoices.map((i) => [i.id, i]));
    // The older invoice (200.00 owing) takes all 150.00.
    expect(byId.get(made.invoices[1]!.id)).toMatchObject({ balance_cents: 50_00, status: 1 });
    expect(byId.get(made.invoices[0]!.id)).toMatchObject({ balance_cents: 100_00, status: 1 });
    expect(await fx.instalment(first.id)).toMatchObject({ status: "paid", attempts: 1, payment_id: payment.id });
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ status: "active", paid_cents: 150_00 });
    expect(await fx.emailJobs((d) => d.paymentId === payment.id)).toEqual([
      { kind: "receipt", businessId: acme, paymentId: payment.id },
    ]);

    // The second instalment is not due yet: nothing is charged.
    expect(await runner(made.instalments[1]!.id)).toEqual({ kind: "notPayable", why: "notDue" });
    // Its day comes: it pays the rest of the older invoice, then the other one; the schedule is done.
    clock.advanceDays(14);
    expect((await runner(made.instalments[1]!.id)).kind).toBe("paid");
    const after = await handle.db
      .selectFrom("invoices")
      .select(["balance_cents", "status"])
      .where(
        "id",
        "in",
        made.invoices.map((i) => i.id),
      )
      .execute();
    expect(after.every((i) => i.balance_cents === 0 && i.status === 2)).toBe(true);
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ status: "completed", paid_cents: 300_00 });
    expect(await runner(first.id)).toEqual({ kind: "notPayable", why: "paid" });
    expect((await fx.moneyOf(made.scope.accountId)).charges).toHaveLength(2);
  });

  it("keeps what no invoice still owes as credit on the account, with the statement showing the instalment", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [60_00], invoiceCents: [60_00] });
    // Part of the invoice was paid some other way after the schedule was made.
    await handle.db
      .updateTable("invoices")
      .set({ balance_cents: 25_00 })
      .where("id", "=", made.invoices[0]!.id)
      .execute();
    const outcome = await runner(made.instalments[0]!.id);
    expect(outcome.kind).toBe("paid");
    const paymentId = (outcome as { paymentId: string }).paymentId;
    const allocations = await handle.db
      .selectFrom("payment_allocations")
      .select(["invoice_id", "amount_cents"])
      .where("payment_id", "=", paymentId)
      .execute();
    expect(allocations).toEqual([{ invoice_id: made.invoices[0]!.id, amount_cents: 25_00 }]);
    const lines = await handle.db
      .selectFrom("statement_lines")
      .select(["type", "description", "credit_cents", "debit_cents"])
      .where("account_id", "=", made.scope.accountId)
      .where("type", "in", ["payment", "fee"])
      .execute();
    const payment = lines.find((l) => l.type === "payment")!;
    expect(payment.description).toMatch(/^1st of 1 instalments, PS-/);
    const fees = lines.filter((l) => l.type === "fee").reduce((n, l) => n + l.debit_cents, 0);
    // Credit of the whole instalment (60.00), less the surcharge line: 35.00 more than the invoice took.
    expect(payment.credit_cents - fees).toBe(60_00);
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ status: "completed", paid_cents: 60_00 });
  });

  it("retries a declined instalment 3 days later, then 7, then puts the schedule in arrears and tells both sides", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [40_00, 40_00], way: "declining-card" });
    const id = made.instalments[0]!.id;
    const day0 = await today();
    const first = await runner(id);
    expect(first).toMatchObject({ kind: "declined", status: "scheduled", nextAttemptOn: addDays(day0, 3) });
    expect(await fx.instalment(id)).toMatchObject({ status: "scheduled", attempts: 1, last_failure: "declined" });
    // Not again before its day.
    clock.advanceDays(2);
    expect(await runner(id)).toEqual({ kind: "notPayable", why: "notDue" });
    clock.advanceDays(1);
    expect(await runner(id)).toMatchObject({ kind: "declined", nextAttemptOn: addDays(day0, 10) });
    clock.advanceDays(7);
    expect(await runner(id)).toMatchObject({ kind: "declined", status: "failed", nextAttemptOn: null });
    expect(await fx.instalment(id)).toMatchObject({ status: "failed", attempts: 3, next_attempt_on: null });
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ status: "arrears" });
    expect(await runner(id)).toEqual({ kind: "notPayable", why: "failed" });
    const attempts = await handle.db
      .selectFrom("instalment_attempts")
      .select(["id", "attempt_no", "trigger", "outcome", "failure_code"])
      .where("instalment_id", "=", id)
      .orderBy("attempt_no")
      .execute();
    expect(attempts.map((a) => [a.attempt_no, a.trigger, a.outcome])).toEqual([
      [1, "runner", "declined"],
      [2, "runner", "declined"],
      [3, "runner", "declined"],
    ]);
    const jobs = await fx.emailJobs((d) => attempts.some((a) => a.id === d.attemptId));
    expect(jobs.map((j) => j.kind).sort()).toEqual(["arrears-business", "arrears-contact", "declined", "declined"]);
    expect((await fx.moneyOf(made.scope.accountId)).charges).toHaveLength(3);

    // The contact's own try with the same declining card does not use up anything: still failed.
    const again = await payInstalment({
      businessId: acme,
      instalmentId: id,
      trigger: "contact",
      actor: { contactId: made.scope.contactId, clientIp: "203.0.113.7" },
      requestGuid: randomUUID(),
    });
    expect(again).toMatchObject({ kind: "declined", status: "failed" });
    // Then with a new card: paid, and the schedule is out of arrears.
    const guid = randomUUID();
    const contact = {
      businessId: acme,
      instalmentId: id,
      trigger: "contact" as const,
      actor: { contactId: made.scope.contactId, clientIp: "203.0.113.7" },
      requestGuid: guid,
      method: {
        kind: "new-card" as const,
        card: {
          cardNumber: "4242424242424242",
          cvn: "123",
          expiryMonth: 12,
          expiryYear: new Date().getUTCFullYear() + 2,
          holderName: "Sky Schedule",
          save: false,
          authorityReference: "",
        },
      },
    };
    const paid = await payInstalment(contact);
    expect(paid.kind).toBe("paid");
    // A repeat of that submission (a reload) answers the same payment and charges nothing more.
    expect(await payInstalment(contact)).toEqual(paid);
    expect(await fx.instalment(id)).toMatchObject({ status: "paid", attempts: 3 });
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ status: "active", paid_cents: 40_00 });
    expect((await fx.moneyOf(made.scope.accountId)).charges).toHaveLength(5);
  });

  it("lets the contact pay an upcoming instalment early; a declined early try leaves it as it was", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [30_00, 30_00], firstIn: 5, way: "declining-card" });
    const id = made.instalments[0]!.id;
    const actor = { contactId: made.scope.contactId, clientIp: "203.0.113.7" };
    const declined = await payInstalment({
      businessId: acme,
      instalmentId: id,
      trigger: "contact",
      actor,
      requestGuid: randomUUID(),
    });
    expect(declined).toMatchObject({ kind: "declined", status: "scheduled" });
    expect(await fx.instalment(id)).toMatchObject({
      status: "scheduled",
      attempts: 0,
      next_attempt_on: made.instalments[0]!.due_date,
    });
    // No email for the contact's own try: the page they are on tells them.
    const attempts = await handle.db
      .selectFrom("instalment_attempts")
      .select("id")
      .where("instalment_id", "=", id)
      .execute();
    expect(await fx.emailJobs((d) => attempts.some((a) => a.id === d.attemptId))).toEqual([]);
  });

  it("finishes a try whose process died after the gateway charged and before it was recorded: one charge", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [70_00, 70_00] });
    const id = made.instalments[0]!.id;
    const real = getCardGateway();
    let charged = 0;
    // The "process" charges the card, then never hears back (it died): nothing after the charge runs.
    const dying: CardGateway = {
      ...real,
      async charge(input) {
        await real.charge(input);
        charged++;
        return new Promise(() => {});
      },
    };
    setCardGatewayForTesting(dying);
    void runner(id);
    await expect.poll(() => charged, { timeout: 10_000 }).toBe(1);
    setCardGatewayForTesting(undefined);
    expect(await fx.instalment(id)).toMatchObject({ status: "processing" });
    const before = await fx.moneyOf(made.scope.accountId);
    expect(before.charges).toHaveLength(1);
    expect(before.payments.map((p) => p.status)).toEqual(["pending"]);

    // "After the restart": the runner comes back to the instalment and finishes the same try.
    const outcome = await runner(id);
    expect(outcome.kind).toBe("paid");
    const after = await fx.moneyOf(made.scope.accountId);
    expect(after.charges).toHaveLength(1);
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]!.status).toBe("succeeded");
    expect(await fx.instalment(id)).toMatchObject({ status: "paid", attempts: 1 });
    const attempts = await handle.db
      .selectFrom("instalment_attempts")
      .select(["outcome", "payment_id"])
      .where("instalment_id", "=", id)
      .execute();
    expect(attempts).toEqual([{ outcome: "succeeded", payment_id: after.payments[0]!.id }]);
  });

  it("charges again under the same key a try that died before the engine claimed its payment", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [20_00] });
    const id = made.instalments[0]!.id;
    // The claim committed (processing, the attempt with its guid), then the process died.
    const guid = randomUUID();
    await handle.db
      .updateTable("schedule_instalments")
      .set({ status: "processing", attempts: 1 })
      .where("id", "=", id)
      .execute();
    await handle.db
      .insertInto("instalment_attempts")
      .values({
        business_id: acme,
        instalment_id: id,
        attempt_no: 1,
        trigger: "runner",
        request_guid: guid,
        started_at: clock(),
      })
      .execute();
    // Too soon to tell it from a try still on its way: left alone.
    expect(await runner(id)).toEqual({ kind: "notPayable", why: "processing" });
    clock.advanceMs(3 * 60_000);
    expect((await runner(id)).kind).toBe("paid");
    const { payments, charges } = await fx.moneyOf(made.scope.accountId);
    expect(payments.map((p) => p.request_guid)).toEqual([guid]);
    expect(charges).toHaveLength(1);
  });

  it("PayTo: an instalment is submitted, then paid when the bank settles it; a rejected one is retried", async () => {
    const made = await fx.activeSchedule(acme, {
      amounts: [80_00, 80_00],
      invoiceCents: [160_00],
      way: { agreementFor: payToAgreement },
    });
    const first = made.instalments[0]!.id;
    const submitted = await runner(first);
    expect(submitted.kind).toBe("submitted");
    const paymentId = (submitted as { paymentId: string }).paymentId;
    const payment = await handle.db
      .selectFrom("payments")
      .selectAll()
      .where("id", "=", paymentId)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ method: "payto", amount_cents: 80_00, merchant_fee_cents: 0, status: "submitted" });
    expect(await fx.instalment(first)).toMatchObject({ status: "processing" });
    // Held, not yet paid: the invoice's balance waits for the money.
    const invoice = () =>
      handle.db
        .selectFrom("invoices")
        .select(["balance_cents", "status"])
        .where("id", "=", made.invoices[0]!.id)
        .executeTakeFirstOrThrow();
    expect(await invoice()).toMatchObject({ balance_cents: 160_00, status: 1 });
    bankClock = new Date(bankClock.getTime() + 10_000);
    await bank.runDue(bankClock);
    const snapshot = await bank.getPayment(`${acme}:${payment.request_guid}`);
    expect(snapshot?.status).toBe("SETTLED");
    expect(await applyPaymentSnapshot(acme, snapshot!, "poll")).toBe("applied");
    expect(await fx.instalment(first)).toMatchObject({ status: "paid" });
    expect(await invoice()).toMatchObject({ balance_cents: 80_00, status: 1 });
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ paid_cents: 80_00, status: "active" });

    // The second: the bank rejects it after it was submitted; the runner books the next try.
    clock.advanceDays(14);
    const second = made.instalments[1]!.id;
    const next = await runner(second);
    expect(next.kind).toBe("submitted");
    const secondPayment = await handle.db
      .selectFrom("payments")
      .select(["request_guid", "provider_payment_id"])
      .where("id", "=", (next as { paymentId: string }).paymentId)
      .executeTakeFirstOrThrow();
    const theirs = await bank.getPayment(`${acme}:${secondPayment.request_guid}`);
    expect(
      await applyPaymentSnapshot(
        acme,
        { ...theirs!, status: "FAILED", failureReason: "insufficient_funds" },
        "webhook",
      ),
    ).toBe("applied");
    expect(await fx.instalment(second)).toMatchObject({
      status: "scheduled",
      attempts: 1,
      next_attempt_on: addDays(await today(), 3),
      last_failure: "insufficient_funds",
    });
    expect(await invoice()).toMatchObject({ balance_cents: 80_00 });
  });

  it("a contact paying an instalment while the runner charges it: one charge", async () => {
    for (let round = 0; round < 3; round++) {
      const made = await fx.activeSchedule(acme, { amounts: [25_00, 25_00] });
      const id = made.instalments[0]!.id;
      const contact = payInstalment({
        businessId: acme,
        instalmentId: id,
        trigger: "contact",
        actor: { contactId: made.scope.contactId, clientIp: "203.0.113.7" },
        requestGuid: randomUUID(),
      });
      const outcomes = await Promise.all([runner(id), contact]);
      // The loser stops ("processing", "paid"), or — finding the winner's try under way — reports
      // that very payment (pending or paid); never a payment of its own.
      for (const outcome of outcomes) expect(["paid", "pending", "notPayable"]).toContain(outcome.kind);
      const named = outcomes.flatMap((o) => ("paymentId" in o && o.paymentId ? [o.paymentId] : []));
      expect(named.length).toBeGreaterThanOrEqual(1);
      expect(new Set(named).size).toBe(1);
      const { payments, charges } = await fx.moneyOf(made.scope.accountId);
      expect(payments.map((p) => p.status)).toEqual(["succeeded"]);
      expect(charges).toHaveLength(1);
      expect(await fx.instalment(id)).toMatchObject({ status: "paid" });
    }
    // The runner arriving while the contact's charge is with the gateway: it reports that payment.
    const made = await fx.activeSchedule(acme, { amounts: [25_00, 25_00] });
    const id = made.instalments[0]!.id;
    const real = getCardGateway();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    setCardGatewayForTesting({ ...real, charge: async (input) => (await held, real.charge(input)) });
    const contact = payInstalment({
      businessId: acme,
      instalmentId: id,
      trigger: "contact",
      actor: { contactId: made.scope.contactId, clientIp: "203.0.113.7" },
      requestGuid: randomUUID(),
    });
    await expect
      .poll(async () => (await fx.moneyOf(made.scope.accountId)).payments.map((p) => p.status), { timeout: 10_000 })
      .toEqual(["pending"]);
    const during = await runner(id);
    release();
    const paid = await contact;
    expect(paid.kind).toBe("paid");
    expect(["pending", "paid"]).toContain(during.kind);
    expect((during as { paymentId: string }).paymentId).toBe((paid as { paymentId: string }).paymentId);
    expect((await fx.moneyOf(made.scope.accountId)).charges).toHaveLength(1);
  });

  it("finishes a try claimed with one card on that card, though the way to pay changed before the charge", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [45_00] });
    const id = made.instalments[0]!.id;
    const claimedCard = (made.way as { cardId: string }).cardId;
    // The runner claimed the try with the schedule's card, then died before the engine's claim.
    const guid = randomUUID();
    await handle.db
      .updateTable("schedule_instalments")
      .set({ status: "processing", attempts: 1 })
      .where("id", "=", id)
      .execute();
    await handle.db
      .insertInto("instalment_attempts")
      .values({
        business_id: acme,
        instalment_id: id,
        attempt_no: 1,
        trigger: "runner",
        request_guid: guid,
        started_at: clock(),
        way: "saved-card",
        card_id: claimedCard,
      })
      .execute();
    // Meanwhile the contact chose another card for the schedule.
    const otherCard = await fx.card(made.scope, { outcome: "approve" });
    await handle.db
      .updateTable("payment_schedules")
      .set({ card_id: otherCard })
      .where("id", "=", made.schedule.id)
      .execute();
    clock.advanceMs(3 * 60_000);
    expect((await runner(id)).kind).toBe("paid");
    expect(await runner(id)).toEqual({ kind: "notPayable", why: "paid" });
    const payments = await handle.db
      .selectFrom("payments")
      .select(["request_guid", "card_id", "status"])
      .where("schedule_instalment_id", "=", id)
      .execute();
    expect(payments).toEqual([{ request_guid: guid, card_id: claimedCard, status: "succeeded" }]);
    expect((await fx.moneyOf(made.scope.accountId)).charges).toHaveLength(1);
    // A try claimed with a card removed since is not charged any other way.
    const next = await fx.activeSchedule(acme, { amounts: [15_00] });
    const nextId = next.instalments[0]!.id;
    await handle.db
      .updateTable("schedule_instalments")
      .set({ status: "processing", attempts: 1 })
      .where("id", "=", nextId)
      .execute();
    await handle.db
      .insertInto("instalment_attempts")
      .values({
        business_id: acme,
        instalment_id: nextId,
        attempt_no: 1,
        trigger: "runner",
        request_guid: randomUUID(),
        started_at: new Date(clock().getTime() - 3 * 60_000),
        way: "saved-card",
        card_id: null,
      })
      .execute();
    expect(await runner(nextId)).toMatchObject({ kind: "declined", refusal: "method", status: "scheduled" });
    expect((await fx.moneyOf(next.scope.accountId)).payments).toEqual([]);
  });

  it("a repeat the engine refuses beside a payment under its key is that payment's, never a failed try", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [35_00, 35_00], firstIn: 5 });
    const id = made.instalments[0]!.id;
    const real = getCardGateway();
    // The first submission's charge is still with the gateway.
    setCardGatewayForTesting({ ...real, charge: () => new Promise(() => {}) });
    const card = (expiryMonth: number) => ({
      kind: "new-card" as const,
      card: {
        cardNumber: "4242424242424242",
        cvn: "123",
        expiryMonth,
        expiryYear: new Date().getUTCFullYear() + 2,
        holderName: "Sky Schedule",
        save: false,
        authorityReference: "",
      },
    });
    const guid = randomUUID();
    const actor = { contactId: made.scope.contactId, clientIp: "203.0.113.7" };
    void payInstalment({
      businessId: acme,
      instalmentId: id,
      trigger: "contact",
      actor,
      requestGuid: guid,
      method: card(11),
    });
    await expect
      .poll(async () => (await fx.moneyOf(made.scope.accountId)).payments.map((p) => p.status), { timeout: 10_000 })
      .toEqual(["pending"]);
    // The same submission again, with the form changed (another expiry month): another request under the key.
    const repeat = await payInstalment({
      businessId: acme,
      instalmentId: id,
      trigger: "contact",
      actor,
      requestGuid: guid,
      method: card(12),
    });
    expect(repeat.kind).toBe("pending");
    expect(await fx.instalment(id)).toMatchObject({ status: "processing" });
    const attempts = await handle.db
      .selectFrom("instalment_attempts")
      .select(["outcome", "request_guid"])
      .where("instalment_id", "=", id)
      .execute();
    expect(attempts).toEqual([{ outcome: "pending", request_guid: guid }]);
    // Nothing else can be started for it while that charge is unresolved.
    expect(
      await payInstalment({ businessId: acme, instalmentId: id, trigger: "contact", actor, requestGuid: randomUUID() }),
    ).toEqual({ kind: "notPayable", why: "processing" });
    expect((await fx.moneyOf(made.scope.accountId)).payments).toHaveLength(1);
  });

  it("PayTo: no new pull while one we failed for want of news may still be paid; one paid twice is credit and the business is told", async () => {
    const made = await fx.activeSchedule(acme, {
      amounts: [60_00, 60_00],
      invoiceCents: [120_00],
      way: { agreementFor: payToAgreement },
    });
    const first = made.instalments[0]!.id;
    const submitted = await runner(first);
    expect(submitted.kind).toBe("submitted");
    const firstPayment = (submitted as { paymentId: string }).paymentId;
    // The reconciler gave up waiting for news of it ("unavailable"): the runner books a retry.
    expect(await failPayment(firstPayment, "unavailable")).toBe(true);
    expect(await fx.instalment(first)).toMatchObject({ status: "scheduled", attempts: 1, last_failure: "unavailable" });
    clock.advanceDays(3);
    // The bank still has that pull in progress: no second one.
    expect(await runner(first)).toEqual({ kind: "notPayable", why: "processing" });
    expect((await fx.moneyOf(made.scope.accountId)).payments).toHaveLength(1);
    // The bank pays it: the next sweep records it, and the instalment is paid by it, once.
    bankClock = new Date(bankClock.getTime() + 10_000);
    await bank.runDue(bankClock);
    expect(await runner(first)).toEqual({ kind: "notPayable", why: "paid" });
    expect(await fx.instalment(first)).toMatchObject({ status: "paid", payment_id: firstPayment });
    expect((await fx.moneyOf(made.scope.accountId)).payments.map((p) => p.status)).toEqual(["succeeded"]);
    const firstAttempt = await handle.db
      .selectFrom("instalment_attempts")
      .select("outcome")
      .where("instalment_id", "=", first)
      .executeTakeFirstOrThrow();
    expect(firstAttempt.outcome).toBe("succeeded");

    // The second: the provider could not say (no record) when the retry was made, and then paid both.
    clock.advanceDays(14);
    const second = made.instalments[1]!.id;
    const secondTry = await runner(second);
    expect(secondTry.kind).toBe("submitted");
    const lost = (secondTry as { paymentId: string }).paymentId;
    expect(await failPayment(lost, "unavailable")).toBe(true);
    clock.advanceDays(3);
    setPayToProviderForTesting({ ...bank, getPayment: async () => null });
    const retry = await runner(second);
    setPayToProviderForTesting(bank);
    expect(retry.kind).toBe("submitted");
    bankClock = new Date(bankClock.getTime() + 10_000);
    await bank.runDue(bankClock);
    for (const paymentId of [(retry as { paymentId: string }).paymentId, lost]) {
      const row = await handle.db
        .selectFrom("payments")
        .select("request_guid")
        .where("id", "=", paymentId)
        .executeTakeFirstOrThrow();
      const snapshot = await bank.getPayment(`${acme}:${row.request_guid}`);
      expect(snapshot?.status).toBe("SETTLED");
      await applyPaymentSnapshot(acme, snapshot!, "poll");
    }
    expect(await fx.instalment(second)).toMatchObject({ status: "paid" });
    expect((await fx.moneyOf(made.scope.accountId)).payments.map((p) => p.status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
    ]);
    // Paid once by the schedule; the other 60.00 is credit, and the business is told to refund or apply it.
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ paid_cents: 120_00, status: "completed" });
    const twice = await fx.emailJobs((d) => d.kind === "paid-twice-business");
    expect(twice).toEqual([{ kind: "paid-twice-business", businessId: acme, paymentId: expect.any(String) }]);
    // The email itself: to the business, naming the payment, the amount and what to do.
    expect(await sendInstalmentEmail(twice[0] as InstalmentEmail)).toBe("sent");
    const reference = await handle.db
      .selectFrom("payments")
      .select("reference")
      .where("id", "=", twice[0]!.paymentId!)
      .executeTakeFirstOrThrow();
    const outbox = path.join(process.env.DATA_DIR!, "outbox");
    const mail = fs
      .readdirSync(outbox)
      .map((name) => fs.readFileSync(path.join(outbox, name), "utf8"))
      // Quoted-printable's soft line breaks joined, so a sentence is found wherever the lines wrap.
      .map((text) => text.replace(/=\r?\n/g, ""))
      .filter((text) => text.includes("was paid twice") && text.includes(reference.reference));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain("$60.00");
    expect(mail[0]).toMatch(/refund it to the payer or apply it/);
  });

  it("refuses bad input and other businesses' or accounts' instalments, changing nothing", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [10_00] });
    const other = await fx.activeSchedule(acme, { amounts: [10_00] });
    const id = made.instalments[0]!.id;
    const actor = { contactId: made.scope.contactId, clientIp: "203.0.113.7" };
    expect(await payInstalment({ businessId: acme, instalmentId: "1 OR 1=1", trigger: "runner" })).toEqual({
      kind: "invalid",
      problem: "instalment",
    });
    expect(await runner(id, kiwi)).toEqual({ kind: "invalid", problem: "instalment" });
    // Someone who may not act for the account.
    expect(
      await payInstalment({
        businessId: acme,
        instalmentId: other.instalments[0]!.id,
        trigger: "contact",
        actor,
        requestGuid: randomUUID(),
      }),
    ).toEqual({ kind: "invalid", problem: "instalment" });
    // Another account's card.
    const theirs = await payInstalment({
      businessId: acme,
      instalmentId: id,
      trigger: "contact",
      actor,
      requestGuid: randomUUID(),
      method: { kind: "saved-card", cardId: (other.way as { cardId: string }).cardId },
    });
    expect(theirs).toEqual({ kind: "invalid", problem: "card" });
    expect(await payInstalment({ businessId: acme, instalmentId: id, trigger: "contact", actor })).toEqual({
      kind: "invalid",
      problem: "request",
    });
    expect(await fx.instalment(id)).toMatchObject({ status: "scheduled", attempts: 0 });
    expect((await fx.moneyOf(made.scope.accountId)).payments).toEqual([]);
    // A cancelled schedule's instalments are not charged.
    await handle.db
      .updateTable("payment_schedules")
      .set({ status: "cancelled" })
      .where("id", "=", other.schedule.id)
      .execute();
    await handle.db
      .updateTable("schedule_instalments")
      .set({ status: "cancelled" })
      .where("schedule_id", "=", other.schedule.id)
      .execute();
    expect(await runner(other.instalments[0]!.id)).toEqual({ kind: "notPayable", why: "cancelled" });
  });
}

describe("on PGlite", () => {
  chargesSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  chargesSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
