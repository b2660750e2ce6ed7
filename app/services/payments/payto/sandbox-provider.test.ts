import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgreementStatus } from "~/lib/payto-states";
import type { DatabaseHandle } from "../../platform/db.server";
import { createPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import { migrate } from "../../platform/migrate.server";
import { PayToTimeoutError, type PayToDebtor, type PayToEvent } from "./payto-provider.server";
import {
  createSandboxPayTo,
  httpDeliverer,
  payerKeysFromInput,
  signWebhook,
  type DeliverWebhook,
  type PayerAction,
  type SandboxPayTo,
  type SandboxPayToOptions,
} from "./sandbox-provider.server";
import { startSandboxClock } from "./sandbox/clock.server";

const SECRET = "sandbox-test-secret-sandbox-test-secret";
const MERCHANT = "11111111-2222-3333-4444-555555555555";
const HOST = "acme.localhost";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openSeededPglite();
});
afterAll(async () => {
  await handle.close();
});

/** The tests' clock: it only moves forward, by `advance`. */
let clock = new Date("2026-11-24T00:00:00.000Z");
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
  return clock;
};

type Sent = { hostname: string; body: string; headers: Record<string, string> };
let sent: Sent[] = [];
const recordingDeliverer: DeliverWebhook = async (hostname, body, headers) => {
  sent.push({ hostname, body, headers });
  return 200;
};

const TIMES = { expireMs: 60_000, settleMs: 5_000, suspendMs: 10_000 };
const sandbox = (overrides: Partial<SandboxPayToOptions> = {}): SandboxPayTo =>
  createSandboxPayTo({
    secret: SECRET,
    db: async () => handle.db,
    delayMs: 0,
    now: () => clock,
    deliver: recordingDeliverer,
    ...TIMES,
    ...overrides,
  });

const alias = (aliasValue: string): PayToDebtor => ({
  partyType: "PERS",
  partyName: "Pat Payer",
  ultimatePartyName: "",
  kind: "alias",
  aliasType: "EMAL",
  aliasValue,
});
const bban = (bsb: string, accountNumber: string): PayToDebtor => ({
  partyType: "PERS",
  partyName: "Pat Payer",
  ultimatePartyName: "",
  kind: "bban",
  bsb,
  accountNumber,
});

async function create(debtor: PayToDebtor, maxAmountCents = 50_000, key = `${MERCHANT}:${randomUUID()}`) {
  const result = await sandbox().createAgreement({
    idempotencyKey: key,
    merchant: MERCHANT,
    hostname: HOST,
    debtor,
    maxAmountCents,
    description: "Acme Plumbing Supplies — account 10042",
  });
  if (!result.ok) throw new Error(`createAgreement refused: ${result.refusal}`);
  return result.value;
}

const status = async (id: string) => (await sandbox().getAgreement(id))!.status;

/** The webhook events queued for one object, oldest first. */
async function eventsFor(objectId: string): Promise<PayToEvent[]> {
  const rows = await handle.db.selectFrom("sandbox_payto_webhooks").selectAll().orderBy("id").execute();
  return rows
    .map((row) => JSON.parse(row.body) as PayToEvent)
    .filter((event) =>
      event.type === "agreement.updated"
        ? event.data.agreementId === objectId
        : event.type === "payment.updated"
          ? event.data.paymentId === objectId || event.data.agreementId === objectId
          : event.data.transactionId === objectId,
    );
}

async function activeAgreement(debtor = alias(`payer-${randomUUID()}@example.com`), max = 50_000) {
  const agreement = await create(debtor, max);
  const approved = await sandbox().payerApproves(agreement.agreementId);
  if (!approved.ok) throw new Error("approval refused");
  return approved.agreement;
}

describe("test identifiers", () => {
  it.each([
    ["approve@payto.test", alias("approve@payto.test")],
    ["BSB 000000 account 10000001", bban("000000", "10000001")],
    ["  Approve@PayTo.test  (trimmed, any case)", alias("  Approve@PayTo.test ")],
  ])("%s: the bank approves it by itself a moment later", async (_name, debtor) => {
    const agreement = await create(debtor);
    expect(agreement).toMatchObject({ status: "CREATED", version: 1, merchant: MERCHANT });
    await sandbox().runDue(advance(500));
    expect(await status(agreement.agreementId)).toBe("CREATED");
    await sandbox().runDue(advance(600));
    const after = await sandbox().getAgreement(agreement.agreementId);
    expect(after).toMatchObject({ status: "ACTIVE", version: 2 });
    const events = await eventsFor(agreement.agreementId);
    expect(
      events.map((e) => [
        e.type,
        "version" in e.data ? e.data.version : null,
        "status" in e.data ? e.data.status : null,
      ]),
    ).toEqual([["agreement.updated", 2, "ACTIVE"]]);
  });

  it.each([alias("decline@payto.test"), bban("000000", "10000002")])("decline: DECLINED by itself", async (debtor) => {
    const agreement = await create(debtor);
    await sandbox().runDue(advance(1_000));
    expect(await sandbox().getAgreement(agreement.agreementId)).toMatchObject({ status: "DECLINED", version: 2 });
  });

  it.each([alias("expire@payto.test"), bban("000000", "10000003"), alias("someone@example.com")])(
    "nobody answers: EXPIRED after expireMs (%#)",
    async (debtor) => {
      const agreement = await create(debtor);
      await sandbox().runDue(advance(TIMES.expireMs - 1));
      expect(await status(agreement.agreementId)).toBe("CREATED");
      await sandbox().runDue(advance(1));
      expect(await sandbox().getAgreement(agreement.agreementId)).toMatchObject({ status: "EXPIRED", version: 2 });
      expect((await eventsFor(agreement.agreementId)).at(-1)?.data).toMatchObject({ status: "EXPIRED" });
    },
  );

  it.each([alias("suspend@payto.test"), bban("000000", "10000004")])(
    "suspend: approved, then SUSPENDED suspendMs later",
    async (debtor) => {
      const agreement = await create(debtor);
      await sandbox().runDue(advance(1_000));
      expect(await status(agreement.agreementId)).toBe("ACTIVE");
      await sandbox().runDue(advance(TIMES.suspendMs - 1));
      expect(await status(agreement.agreementId)).toBe("ACTIVE");
      await sandbox().runDue(advance(1));
      expect(await sandbox().getAgreement(agreement.agreementId)).toMatchObject({ status: "SUSPENDED", version: 3 });
    },
  );

  it.each([alias("nofunds@payto.test"), bban("000000", "10000005")])(
    "nofunds: approved, every payment FAILED insufficient_funds",
    async (debtor) => {
      const agreement = await create(debtor);
      await sandbox().runDue(advance(1_000));
      const payment = await sandbox().initiatePayment({
        agreementId: agreement.agreementId,
        amountCents: 1_000,
        currency: "AUD",
        idempotencyKey: `${MERCHANT}:${randomUUID()}`,
        description: "INV-1",
      });
      expect(payment).toMatchObject({ ok: true, value: { status: "CREATED", version: 1 } });
      if (!payment.ok) return;
      await sandbox().runDue(advance(TIMES.settleMs));
      expect(await sandbox().getPayment(payment.value.idempotencyKey)).toMatchObject({
        status: "FAILED",
        failureReason: "insufficient_funds",
        version: 2,
      });
    },
  );

  it.each([alias("lapsed@payto.test"), bban("000000", "10000006")])(
    "lapsed: approved, then cancelled by the payer with no webhook",
    async (debtor) => {
      const agreement = await create(debtor);
      await sandbox().runDue(advance(1_000));
      expect(await status(agreement.agreementId)).toBe("ACTIVE");
      // A payment accepted before the lapse fails at settlement.
      const before = await sandbox().initiatePayment({
        agreementId: agreement.agreementId,
        amountCents: 2_500,
        currency: "AUD",
        idempotencyKey: `${MERCHANT}:${randomUUID()}`,
        description: "INV-2",
      });
      expect(before.ok).toBe(true);
      await sandbox().runDue(advance(TIMES.suspendMs));
      expect(await sandbox().getAgreement(agreement.agreementId)).toMatchObject({ status: "CANCELLED", version: 3 });
      // Silent: only the approval was announced.
      const agreementEvents = (await eventsFor(agreement.agreementId)).filter((e) => e.type === "agreement.updated");
      expect(agreementEvents.map((e) => e.data.version)).toEqual([2]);
      const row = await handle.db
        .selectFrom("sandbox_payto_agreements")
        .select("silent")
        .where("id", "=", agreement.agreementId)
        .executeTakeFirstOrThrow();
      expect(row.silent).toBe(true);
      if (before.ok) {
        expect(await sandbox().getPayment(before.value.idempotencyKey)).toMatchObject({
          status: "FAILED",
          failureReason: "agreement_not_active",
        });
      }
      const after = await sandbox().initiatePayment({
        agreementId: agreement.agreementId,
        amountCents: 2_500,
        currency: "AUD",
        idempotencyKey: `${MERCHANT}:${randomUUID()}`,
        description: "INV-2",
      });
      expect(after).toEqual({ ok: false, refusal: "agreement_not_active" });
    },
  );

  it.each([alias("unavailable@payto.test"), bban("000000", "10000007")])(
    "unavailable: creation refused, nothing stored",
    async (debtor) => {
      const key = `${MERCHANT}:${randomUUID()}`;
      const result = await sandbox().createAgreement({
        idempotencyKey: key,
        merchant: MERCHANT,
        hostname: HOST,
        debtor,
        maxAmountCents: 1_000,
        description: "x",
      });
      expect(result).toEqual({ ok: false, refusal: "unavailable" });
      expect(await sandbox().findAgreement(key)).toBeNull();
    },
  );

  it.each([alias("slow@payto.test"), bban("000000", "10000008")])(
    "slow: the payment is recorded, then the answer times out",
    async (debtor) => {
      const agreement = await create(debtor);
      await sandbox().runDue(advance(1_000));
      const key = `${MERCHANT}:${randomUUID()}`;
      await expect(
        sandbox().initiatePayment({
          agreementId: agreement.agreementId,
          amountCents: 700,
          currency: "AUD",
          idempotencyKey: key,
          description: "INV-3",
        }),
      ).rejects.toBeInstanceOf(PayToTimeoutError);
      expect(await sandbox().getPayment(key)).toMatchObject({ status: "CREATED", amountCents: 700 });
      await sandbox().runDue(advance(TIMES.settleMs));
      expect(await sandbox().getPayment(key)).toMatchObject({ status: "SETTLED", version: 2 });
    },
  );

  it("an ordinary account's payment settles settleMs later, announced by webhook", async () => {
    const agreement = await activeAgreement(bban("062000", "12345678"));
    const key = `${MERCHANT}:${randomUUID()}`;
    const result = await sandbox().initiatePayment({
      agreementId: agreement.agreementId,
      amountCents: 12_345,
      currency: "AUD",
      idempotencyKey: key,
      description: "INV-4",
    });
    expect(result).toMatchObject({ ok: true, value: { status: "CREATED", merchant: MERCHANT, version: 1 } });
    await sandbox().runDue(advance(TIMES.settleMs - 1));
    expect((await sandbox().getPayment(key))?.status).toBe("CREATED");
    await sandbox().runDue(advance(1));
    const settled = await sandbox().getPayment(key);
    expect(settled).toMatchObject({ status: "SETTLED", failureReason: null, version: 2, amountCents: 12_345 });
    const events = (await eventsFor(agreement.agreementId)).filter((e) => e.type === "payment.updated");
    expect(events.map((e) => e.data)).toEqual([settled]);
  });
});

describe("creating agreements", () => {
  it.each([
    [bban("06200", "12345678"), "invalid_account"],
    [bban("0620001", "12345678"), "invalid_account"],
    [bban("06200a", "12345678"), "invalid_account"],
    [bban("062000", "123"), "invalid_account"],
    [bban("062000", "1234567890"), "invalid_account"],
    [alias(""), "invalid_payid"],
    [alias("   "), "invalid_payid"],
  ] as const)("refuses a bad debtor (%#)", async (debtor, refusal) => {
    const result = await sandbox().createAgreement({
      idempotencyKey: `${MERCHANT}:${randomUUID()}`,
      merchant: MERCHANT,
      hostname: HOST,
      debtor,
      maxAmountCents: 1_000,
      description: "x",
    });
    expect(result).toEqual({ ok: false, refusal });
  });

  it("is idempotent by key, also when requests race", async () => {
    const key = `${MERCHANT}:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => create(alias("racer@example.com"), 10_000, key)));
    expect(new Set(results.map((r) => r.agreementId)).size).toBe(1);
    const again = await create(alias("someone-else@example.com"), 99, key);
    expect(again).toEqual(results[0]);
    const rows = await handle.db
      .selectFrom("sandbox_payto_agreements")
      .select("id")
      .where("idempotency_key", "=", key)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("keys payers by account or lower-cased PayID", async () => {
    const a = await create(bban("062000", "00001234"));
    const b = await create(alias("  Mixed.Case@Example.COM "));
    const rows = await handle.db
      .selectFrom("sandbox_payto_agreements")
      .select(["id", "payer"])
      .where("id", "in", [a.agreementId, b.agreementId])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.payer]))).toEqual({
      [a.agreementId]: "BBAN:06200000001234",
      [b.agreementId]: "EMAL:mixed.case@example.com",
    });
    expect(payerKeysFromInput("062-000 00001234")).toEqual(["BBAN:06200000001234"]);
    expect(payerKeysFromInput(" Mixed.Case@Example.COM")).toEqual(["EMAL:mixed.case@example.com"]);
    expect(payerKeysFromInput("+61 412 345 678")).toContain("TELI:+61412345678");
    for (const bad of [
      "   ",
      "<script>alert(1)</script>",
      "no at sign",
      "x".repeat(300),
      "a@b",
      "'; DROP TABLE x; --",
    ]) {
      expect(payerKeysFromInput(bad)).toBeNull();
    }
  });

  it("lists a payer's agreements pending first, then newest first", async () => {
    const payer = `lister-${randomUUID()}@example.com`;
    const first = await create(alias(payer));
    advance(10);
    const second = await activeAgreement(alias(payer));
    advance(10);
    const third = await create(alias(payer));
    advance(10);
    const fourth = await activeAgreement(alias(payer));
    const listed = await sandbox().listForPayer(`EMAL:${payer}`);
    expect(listed.map((a) => a.agreementId)).toEqual([
      third.agreementId,
      first.agreementId,
      fourth.agreementId,
      second.agreementId,
    ]);
    expect(listed[0]).toMatchObject({ hostname: HOST, partyName: "Pat Payer", actions: ["approve", "decline"] });
    expect(await sandbox().listForPayer("EMAL:nobody-at-all@example.com")).toEqual([]);
  });
});

describe("the payer's steps (the transition table)", () => {
  const ALL: PayerAction[] = ["approve", "decline", "suspend", "resume", "cancel"];
  const ALLOWED: Record<string, PayerAction[]> = {
    CREATED: ["approve", "decline"],
    ACTIVE: ["suspend", "cancel"],
    SUSPENDED: ["resume", "cancel"],
    CANCELLED: [],
    DECLINED: [],
    EXPIRED: [],
  };
  const TARGET: Record<PayerAction, AgreementStatus> = {
    approve: "ACTIVE",
    decline: "DECLINED",
    suspend: "SUSPENDED",
    resume: "ACTIVE",
    cancel: "CANCELLED",
  };
  const run = (action: PayerAction, id: string) => {
    const bank = sandbox();
    return {
      approve: bank.payerApproves,
      decline: bank.payerDeclines,
      suspend: bank.payerSuspends,
      resume: bank.payerResumes,
      cancel: bank.payerCancels,
    }[action](id);
  };
  /** A fresh agreement in `state`, reached through the payer's and the provider's own steps. */
  async function inState(state: string) {
    const agreement = await create(alias(`steps-${randomUUID()}@example.com`));
    const id = agreement.agreementId;
    if (state === "ACTIVE" || state === "SUSPENDED" || state === "CANCELLED") await run("approve", id);
    if (state === "SUSPENDED") await run("suspend", id);
    if (state === "CANCELLED") await run("cancel", id);
    if (state === "DECLINED") await run("decline", id);
    if (state === "EXPIRED") {
      await handle.db
        .updateTable("sandbox_payto_agreements")
        .set({ next_action_at: new Date(clock.getTime() - 1) })
        .where("id", "=", id)
        .execute();
      await sandbox().runDue(clock);
    }
    const now = await sandbox().getAgreement(id);
    expect(now?.status).toBe(state);
    return now!;
  }

  for (const [state, allowed] of Object.entries(ALLOWED)) {
    for (const action of ALL) {
      const ok = allowed.includes(action);
      it(`${state}: ${action} is ${ok ? "allowed" : "refused"}`, async () => {
        const before = await inState(state);
        const queued = (await eventsFor(before.agreementId)).length;
        const result = await run(action, before.agreementId);
        const after = (await sandbox().getAgreement(before.agreementId))!;
        if (ok) {
          expect(result).toMatchObject({
            ok: true,
            agreement: { status: TARGET[action], version: before.version + 1 },
          });
          expect(after).toMatchObject({ status: TARGET[action], version: before.version + 1 });
          expect(new Date(after.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(before.updatedAt).getTime());
          const events = await eventsFor(before.agreementId);
          expect(events).toHaveLength(queued + 1);
          expect(events.at(-1)?.data).toEqual(after);
        } else {
          expect(result).toMatchObject({ ok: false, reason: "not_allowed" });
          if (!result.ok) expect(result.message).toMatch(/cannot be/);
          expect(after).toEqual(before);
          expect(await eventsFor(before.agreementId)).toHaveLength(queued);
        }
      });
    }
  }

  it("an unknown agreement is not found, whatever the step", async () => {
    for (const action of ALL) {
      expect(await run(action, "agr_sbx_nope")).toMatchObject({ ok: false, reason: "not_found" });
    }
  });

  it("a manual step cancels the bank's own plan (a suspend@ payer who already suspended and resumed)", async () => {
    const agreement = await create(alias("suspend@payto.test"));
    await sandbox().runDue(advance(1_000));
    await run("suspend", agreement.agreementId);
    await run("resume", agreement.agreementId);
    await sandbox().runDue(advance(TIMES.suspendMs));
    expect(await sandbox().getAgreement(agreement.agreementId)).toMatchObject({ status: "ACTIVE", version: 4 });
  });
});

describe("cancelling by the business", () => {
  it.each(["CREATED", "ACTIVE", "SUSPENDED"])("%s → CANCELLED, announced", async (state) => {
    const agreement = await create(alias(`cancel-${randomUUID()}@example.com`));
    if (state !== "CREATED") await sandbox().payerApproves(agreement.agreementId);
    if (state === "SUSPENDED") await sandbox().payerSuspends(agreement.agreementId);
    const before = (await sandbox().getAgreement(agreement.agreementId))!;
    const result = await sandbox().cancelAgreement(agreement.agreementId);
    expect(result).toMatchObject({
      ok: true,
      value: { status: "CANCELLED", version: before.version + 1, statusReason: "Cancelled by the business" },
    });
    expect((await eventsFor(agreement.agreementId)).at(-1)?.data).toMatchObject({ status: "CANCELLED" });
  });

  it("a terminal agreement is answered as it is; an unknown one is refused", async () => {
    const agreement = await create(alias(`cancel-${randomUUID()}@example.com`));
    await sandbox().payerDeclines(agreement.agreementId);
    const before = await sandbox().getAgreement(agreement.agreementId);
    expect(await sandbox().cancelAgreement(agreement.agreementId)).toEqual({ ok: true, value: before });
    expect(await sandbox().cancelAgreement("agr_sbx_unknown")).toEqual({ ok: false, refusal: "invalid_account" });
  });
});

describe("initiating payments", () => {
  const pay = (agreementId: string, amountCents: number, key = `${MERCHANT}:${randomUUID()}`) =>
    sandbox().initiatePayment({ agreementId, amountCents, currency: "AUD", idempotencyKey: key, description: "INV" });

  it("refuses an unknown agreement, one not active, an amount over the limit or not positive", async () => {
    expect(await pay("agr_sbx_unknown", 100)).toEqual({ ok: false, refusal: "invalid_account" });
    const pending = await create(alias(`pending-${randomUUID()}@example.com`));
    expect(await pay(pending.agreementId, 100)).toEqual({ ok: false, refusal: "agreement_not_active" });
    const active = await activeAgreement(undefined, 10_000);
    expect(await pay(active.agreementId, 10_001)).toEqual({ ok: false, refusal: "limit_exceeded" });
    expect(await pay(active.agreementId, 0)).toEqual({ ok: false, refusal: "limit_exceeded" });
    expect(await pay(active.agreementId, 10_000)).toMatchObject({ ok: true });
    await sandbox().payerSuspends(active.agreementId);
    expect(await pay(active.agreementId, 100)).toEqual({ ok: false, refusal: "agreement_not_active" });
  });

  it("makes one payment for 20 concurrent initiations of one key", async () => {
    const active = await activeAgreement();
    const key = `${MERCHANT}:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => pay(active.agreementId, 4_200, key)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(new Set(results.map((r) => (r.ok ? r.value.paymentId : null))).size).toBe(1);
    const rows = await handle.db
      .selectFrom("sandbox_payto_payments")
      .select("id")
      .where("idempotency_key", "=", key)
      .execute();
    expect(rows).toHaveLength(1);
    // A later repeat answers the same payment, even with another amount.
    const repeat = await pay(active.agreementId, 1, key);
    expect(repeat.ok && repeat.value.paymentId).toBe(rows[0]!.id);
  });

  it("fails a payment whose agreement stopped being active before settlement", async () => {
    const active = await activeAgreement();
    const key = `${MERCHANT}:${randomUUID()}`;
    await pay(active.agreementId, 500, key);
    await sandbox().payerCancels(active.agreementId);
    await sandbox().runDue(advance(TIMES.settleMs));
    expect(await sandbox().getPayment(key)).toMatchObject({ status: "FAILED", failureReason: "agreement_not_active" });
    // Terminal: later clock ticks change nothing.
    await sandbox().runDue(advance(TIMES.settleMs));
    expect(await sandbox().getPayment(key)).toMatchObject({ version: 2 });
  });

  it("moves each due thing once when two clocks run at the same moment", async () => {
    const agreement = await create(alias("approve@payto.test"));
    advance(1_000);
    await Promise.all([sandbox().runDue(clock), sandbox().runDue(clock), sandbox().runDue(clock)]);
    expect(await sandbox().getAgreement(agreement.agreementId)).toMatchObject({ status: "ACTIVE", version: 2 });
    expect(await eventsFor(agreement.agreementId)).toHaveLength(1);
  });
});

describe("PayIDs", () => {
  it("registers a PayID once per account, and refuses it to another", async () => {
    const payId = `${randomUUID().slice(0, 8)}@acme.payto.test`;
    const input = { payId, merchant: MERCHANT, hostname: HOST, reference: "account-1", name: "Acme" };
    expect(await sandbox().registerPayId(input)).toEqual({ ok: true, value: { payId } });
    expect(await sandbox().registerPayId({ ...input, payId: ` ${payId.toUpperCase()} ` })).toEqual({
      ok: true,
      value: { payId },
    });
    expect(await sandbox().registerPayId({ ...input, reference: "account-2" })).toEqual({
      ok: false,
      refusal: "invalid_payid",
    });
    expect(await sandbox().registerPayId({ ...input, payId: "not a payid" })).toEqual({
      ok: false,
      refusal: "invalid_payid",
    });
  });

  it("announces money sent to a PayID with a fresh transaction id each time", async () => {
    const payId = `${randomUUID().slice(0, 8)}@acme.payto.test`;
    await sandbox().registerPayId({ payId, merchant: MERCHANT, hostname: HOST, reference: "account-9", name: "A" });
    const one = await sandbox().sendToPayId({ payId: payId.toUpperCase(), amountCents: 1_050, payerName: "Pat" });
    const two = await sandbox().sendToPayId({ payId, amountCents: 1_050, payerName: "Pat" });
    if (!one.ok || !two.ok) throw new Error("send refused");
    expect(one.incoming).toMatchObject({ payId, reference: "account-9", merchant: MERCHANT, amountCents: 1_050 });
    expect(one.incoming.transactionId).not.toBe(two.incoming.transactionId);
    const events = await eventsFor(one.incoming.transactionId);
    expect(events).toEqual([expect.objectContaining({ type: "payid.received", data: one.incoming })]);
    expect(
      await sandbox().sendToPayId({ payId: "nobody@acme.payto.test", amountCents: 1, payerName: "P" }),
    ).toMatchObject({ ok: false, reason: "unknown_payid" });
    expect(await sandbox().sendToPayId({ payId, amountCents: 0, payerName: "P" })).toMatchObject({
      ok: false,
      reason: "invalid_amount",
    });
    expect(await sandbox().sendToPayId({ payId, amountCents: 5, payerName: "  " })).toMatchObject({
      ok: false,
      reason: "invalid_name",
    });
  });
});

describe("webhook signatures", () => {
  const body = JSON.stringify({
    id: "evt_1",
    type: "agreement.updated",
    createdAt: "2026-11-24T00:00:00.000Z",
    data: {
      agreementId: "agr_1",
      idempotencyKey: "k",
      merchant: MERCHANT,
      status: "ACTIVE",
      version: 2,
      statusReason: null,
      maxAmountCents: 100,
      updatedAt: "2026-11-24T00:00:00.000Z",
    },
  });
  const now = new Date("2026-11-24T01:00:00.000Z");
  const t = Math.floor(now.getTime() / 1000);
  const headers = (value?: string) => new Headers(value === undefined ? {} : { "PayTo-Signature": value });
  const verify = (h: Headers, raw: string, at = now) => sandbox().verifyWebhook(h, raw, at);

  it("accepts a good signature within 300 s and returns the event", () => {
    const result = verify(headers(signWebhook(SECRET, body, t - 300)), body);
    expect(result).toMatchObject({ ok: true, event: { id: "evt_1", type: "agreement.updated" } });
    expect(verify(headers(signWebhook(SECRET, body, t + 300)), body).ok).toBe(true);
  });

  it.each([
    ["missing", headers(), body, "missing_signature"],
    ["empty", headers(""), body, "missing_signature"],
    ["another secret", headers(signWebhook("another-secret-another-secret-xx", body, t)), body, "bad_signature"],
    [
      "tampered body",
      headers(signWebhook(SECRET, body, t)),
      body.replace('"version":2', '"version":3'),
      "bad_signature",
    ],
    ["garbage header", headers("nonsense"), body, "bad_signature"],
    ["no v1", headers(`t=${t}`), body, "bad_signature"],
    ["stale", headers(signWebhook(SECRET, body, t - 301)), body, "stale_timestamp"],
    ["from the future", headers(signWebhook(SECRET, body, t + 301)), body, "stale_timestamp"],
    ["not JSON", headers(signWebhook(SECRET, "{oops", t)), "{oops", "malformed"],
    [
      "wrong shape",
      headers(signWebhook(SECRET, '{"id":"e","type":"agreement.updated"}', t)),
      '{"id":"e","type":"agreement.updated"}',
      "malformed",
    ],
  ])("%s → %s", (_name, h, raw, reason) => {
    expect(verify(h, raw)).toEqual({ ok: false, reason });
  });

  it("accepts the events the sandbox itself queues", async () => {
    const agreement = await activeAgreement();
    const [event] = await eventsFor(agreement.agreementId);
    const raw = JSON.stringify(event);
    expect(verify(headers(signWebhook(SECRET, raw, t)), raw)).toEqual({ ok: true, event });
  });
});

describe("webhook delivery", () => {
  it("retries with back-off until a real server answers 2xx, then stops", async () => {
    const received: { host?: string; type?: string; signature?: string; body: string; status: number }[] = [];
    const answers = [500, 200];
    const server = http.createServer((request, response) => {
      let raw = "";
      request.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      request.on("end", () => {
        const status = answers.shift() ?? 200;
        received.push({
          host: request.headers.host,
          type: request.headers["content-type"],
          signature: request.headers["payto-signature"] as string | undefined,
          body: raw,
          status,
        });
        response.writeHead(status, { "Content-Type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const deliver = httpDeliverer(`http://127.0.0.1:${port}/api/payTo/webhook`);
      const bank = sandbox({ deliver });
      // Deliver what earlier tests queued first, so that only this test's event remains.
      await handle.db
        .updateTable("sandbox_payto_webhooks")
        .set({ delivered_at: clock })
        .where("delivered_at", "is", null)
        .execute();
      const agreement = await bank.createAgreement({
        idempotencyKey: `${MERCHANT}:${randomUUID()}`,
        merchant: MERCHANT,
        hostname: "acme.localhost",
        debtor: alias(`delivery-${randomUUID()}@example.com`),
        maxAmountCents: 100,
        description: "Delivery",
      });
      if (!agreement.ok) throw new Error("refused");
      await bank.payerApproves(agreement.value.agreementId);

      const first = await bank.runDue(clock);
      expect(first).toMatchObject({ webhooksDelivered: 0, webhooksFailed: 1 });
      await bank.runDue(advance(999));
      expect(received).toHaveLength(1);
      const second = await bank.runDue(advance(1));
      expect(second).toMatchObject({ webhooksDelivered: 1, webhooksFailed: 0 });
      await bank.runDue(advance(120_000));
      // Only this agreement's event (others' may come due meanwhile).
      const mine = received.filter((r) => r.body.includes(agreement.value.agreementId));
      expect(mine.map((r) => r.status)).toEqual([500, 200]);

      for (const request of mine) {
        expect(request.host).toBe("acme.localhost");
        expect(request.type).toBe("application/json");
        expect(bank.verifyWebhook(new Headers({ "PayTo-Signature": request.signature! }), request.body, clock).ok).toBe(
          true,
        );
      }
      const event = JSON.parse(mine[1]!.body) as PayToEvent;
      const row = await handle.db
        .selectFrom("sandbox_payto_webhooks")
        .selectAll()
        .where("id", "=", event.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 2, last_status: 200 });
      expect(row.delivered_at).not.toBeNull();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("gives up after 10 attempts, spaced 1 s, 2 s, 4 s … at most 60 s apart", async () => {
    const times: number[] = [];
    let mineId = "";
    const bank = sandbox({
      deliver: async (_hostname, body) => {
        if (body.includes(mineId)) times.push(clock.getTime());
        return 503;
      },
    });
    mineId = (await activeAgreement()).agreementId;
    for (let i = 0; i < 400; i++) await bank.runDue(advance(1_000));
    const gaps = times.slice(1).map((time, i) => (time - times[i]!) / 1000);
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    const row = await handle.db
      .selectFrom("sandbox_payto_webhooks")
      .selectAll()
      .where("body", "like", `%${mineId}%`)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 10, last_status: 503, delivered_at: null });
  });

  it("counts a deliverer that throws as no answer", async () => {
    sent = [];
    const bank = sandbox({
      deliver: async () => {
        throw new Error("connection refused");
      },
    });
    await activeAgreement();
    expect((await bank.runDue(advance(1))).webhooksFailed).toBeGreaterThan(0);
  });
});

// Real concurrency: several connections (as several portal processes) racing on one key or one due step.
describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    await migrate(database.handle);
  });
  afterAll(async () => {
    await database.drop();
  });
  const deliveries: string[] = [];
  /** One "process": its own provider on the shared database. */
  const portalProcess = () =>
    createSandboxPayTo({
      secret: SECRET,
      db: async () => database.handle.db,
      delayMs: 0,
      now: () => clock,
      deliver: async (_hostname, body) => {
        deliveries.push((JSON.parse(body) as PayToEvent).id);
        return 200;
      },
      ...TIMES,
    });

  it("makes one agreement and one payment per key, and moves each due thing once", async () => {
    const key = `${MERCHANT}:${randomUUID()}`;
    const input = {
      idempotencyKey: key,
      merchant: MERCHANT,
      hostname: HOST,
      debtor: alias("approve@payto.test"),
      maxAmountCents: 10_000,
      description: "Race",
    };
    const created = await Promise.all(Array.from({ length: 8 }, () => portalProcess().createAgreement(input)));
    const ids = new Set(created.map((r) => (r.ok ? r.value.agreementId : null)));
    expect(ids.size).toBe(1);
    const agreementId = [...ids][0]!;

    advance(1_000);
    await Promise.all(Array.from({ length: 4 }, () => portalProcess().runDue(clock)));
    expect(await portalProcess().getAgreement(agreementId)).toMatchObject({ status: "ACTIVE", version: 2 });

    const paymentKey = `${MERCHANT}:${randomUUID()}`;
    const payments = await Promise.all(
      Array.from({ length: 20 }, () =>
        portalProcess().initiatePayment({
          agreementId,
          amountCents: 5_000,
          currency: "AUD",
          idempotencyKey: paymentKey,
          description: "INV",
        }),
      ),
    );
    expect(new Set(payments.map((r) => (r.ok ? r.value.paymentId : "refused"))).size).toBe(1);

    advance(TIMES.settleMs);
    await Promise.all(Array.from({ length: 4 }, () => portalProcess().runDue(clock)));
    expect(await portalProcess().getPayment(paymentKey)).toMatchObject({ status: "SETTLED", version: 2 });
    const queued = await database.handle.db.selectFrom("sandbox_payto_webhooks").select("id").execute();
    // One approval and one settlement; each sent exactly once although four clocks ran.
    expect(queued).toHaveLength(2);
    expect([...deliveries].sort()).toEqual(queued.map((q) => q.id).sort());
  });
});

describe("the sandbox clock", () => {
  it("ticks on its interval, one tick at a time, until stopped", async () => {
    let calls = 0;
    let release!: () => void;
    const stop = startSandboxClock(5, () => {
      calls += 1;
      return new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(calls).toBe(1);
    release();
    await new Promise((resolve) => setTimeout(resolve, 40));
    stop();
    const after = calls;
    expect(after).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(after);
  });
});
