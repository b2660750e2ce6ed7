import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../../tests/support/test-db";
import { createCircuitBreaker, type CircuitBreaker } from "../platform/circuit-breaker.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { cachedFaultReader, PortUnavailableError, setFault } from "../platform/sandbox-faults.server";
import type { CardGateway } from "./gateway/card-gateway.server";
import { guardCardGateway, withGatewayFaults } from "./gateway/guarded-gateway.server";
import { setCardGatewayForTesting } from "./gateway/index.server";
import { createSandboxGateway } from "./gateway/sandbox-gateway.server";
import { guardPayToProvider, withPayToFaults } from "./payto/guarded-provider.server";
import { setPayToProviderForTesting, webhookSecret } from "./payto/index.server";
import { createSandboxPayTo, type SandboxPayTo } from "./payto/sandbox-provider.server";
import { PayToTimeoutError, type PayToDebtor } from "./payto/payto-provider.server";
import { loadPayable } from "./payable.server";
import type { PayMethod } from "./payment-records.server";
import { reconcileUnsettled } from "./reconcile.server";
import { submitPayment } from "./submit.server";

/**
 * The ports when the party behind them is slow or down (issue 18; decision 046): the real payment
 * engine, the real sandboxes behind the real fault switch (its table, read without a cache), and
 * the timeout and breaker the portal runs them under, with a clock the test moves.
 */
let handle: DatabaseHandle;
let actor: { businessId: string; accountId: string; contactId: string; clientIp: string };
const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
const today = new Date().toISOString().slice(0, 10);
let time = Date.now();
const faults = () => cachedFaultReader(async () => handle.db, { cacheMs: 0 });

function breaker(options: { timeoutMs?: number; failureThreshold?: number } = {}): CircuitBreaker {
  return createCircuitBreaker({
    name: "test",
    timeoutMs: options.timeoutMs ?? 300,
    failureThreshold: options.failureThreshold ?? 5,
    windowMs: 60_000,
    cooldownMs: 10_000,
    now: () => time,
  });
}

/**
 * A port whose every call the test can wait for, including the calls the timeout stopped waiting
 * for: `settled()` is the deterministic "the slow party has answered by now", with no polling.
 */
function recorded<T extends object>(port: T) {
  const calls: Promise<unknown>[] = [];
  const watched = new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise) calls.push(result.catch(() => undefined));
        return result;
      };
    },
  });
  return { port: watched, settled: () => Promise.all(calls) };
}

/** The sandbox gateway, counting the charges that reach it. */
function countedGateway() {
  const sandbox = createSandboxGateway({ db: async () => handle.db, delayMs: 0 });
  const seen = { charges: 0 };
  const gateway: CardGateway = {
    ...sandbox,
    charge: (input) => {
      seen.charges++;
      return sandbox.charge(input);
    },
  };
  return { gateway, seen };
}

beforeAll(async () => {
  handle = await openSeededPglite();
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
  actor = { businessId: contact.business_id, accountId: account.id, contactId: contact.id, clientIp: "127.0.0.1" };
});
afterAll(async () => {
  setCardGatewayForTesting(undefined);
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

const savedVisa = async () =>
  (
    await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", actor.accountId)
      .where("last4", "=", "1111")
      .executeTakeFirstOrThrow()
  ).id;

async function freeInvoice() {
  const rows = await loadPayable(actor, "all");
  const free = rows.find((r) => r.availableCents >= 2_000 && r.availableCents === r.balanceCents);
  if (!free) throw new Error("the seed has no payable invoice left");
  return free;
}

const pay = (guid: string, invoiceId: string, amountCents: number, method: PayMethod) =>
  submitPayment(
    actor,
    { requestGuid: guid, selection: [{ invoiceId, amountCents }], method, note: "", currency: "AUD", today },
    context,
  );

const paymentRow = (guid: string) =>
  handle.db.selectFrom("payments").selectAll().where("request_guid", "=", guid).executeTakeFirstOrThrow();

const chargesFor = async (guid: string) =>
  Number(
    (
      await handle.db
        .selectFrom("sandbox_gateway_charges")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("idempotency_key", "=", `${actor.businessId}:${guid}`)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("the card gateway slow or down", () => {
  it("a slow charge times out: pending, never declined; the late charge is settled once by the reconciler", async () => {
    const { gateway, seen } = countedGateway();
    const calls = recorded(withGatewayFaults(gateway, faults()));
    setCardGatewayForTesting(guardCardGateway(calls.port, breaker({ timeoutMs: 200 })));
    await setFault(handle.db, ["gateway"], { mode: "slow", delayMs: 700 });
    try {
      const invoice = await freeInvoice();
      const guid = randomUUID();
      const outcome = await pay(guid, invoice.id, 1_500, { kind: "saved-card", cardId: await savedVisa() });
      // The charge, then the engine's lookup by key: each gave up at the timeout (its timer runs out
      // before the fault's), so the outcome is unknown: pending, never declined.
      expect(outcome.kind).toBe("pending");
      expect((await paymentRow(guid)).status).toBe("unknown");
      // The gateway is slow, not gone: the charge lands after we stopped waiting.
      await calls.settled();
      expect(await chargesFor(guid)).toBe(1);
      await setFault(handle.db, ["gateway"], { mode: "normal" });
      await reconcileUnsettled({ olderThanMs: 0, method: "card" });
      await reconcileUnsettled({ olderThanMs: 0, method: "card" });
      const settled = await paymentRow(guid);
      expect(settled.status).toBe("succeeded");
      // A resubmission of the same form answers the settled payment and charges nothing more.
      expect((await pay(guid, invoice.id, 1_500, { kind: "saved-card", cardId: await savedVisa() })).kind).toBe(
        "succeeded",
      );
      expect(await chargesFor(guid)).toBe(1);
      expect(seen.charges).toBe(1);
      const balance = await handle.db
        .selectFrom("invoices")
        .select("balance_cents")
        .where("id", "=", invoice.id)
        .executeTakeFirstOrThrow();
      expect(balance.balance_cents).toBe(invoice.balanceCents - 1_500);
    } finally {
      await setFault(handle.db, ["gateway"], { mode: "normal" });
    }
  });

  it("down: the breaker opens; while open a charge is refused at once without reaching the gateway, nothing left in limbo; it recovers after the cool-down", async () => {
    const { gateway, seen } = countedGateway();
    const guard = breaker({ failureThreshold: 2 });
    setCardGatewayForTesting(guardCardGateway(withGatewayFaults(gateway, faults()), guard));
    await setFault(handle.db, ["gateway"], { mode: "down" });
    const invoice = await freeInvoice();
    try {
      for (let i = 0; i < 2; i++) {
        const outcome = await pay(randomUUID(), invoice.id, 1_000, { kind: "saved-card", cardId: await savedVisa() });
        expect(outcome).toMatchObject({ kind: "declined", refusal: "unavailable" });
      }
      expect(guard.state()).toBe("open");
      // Back up at the gateway, but this process does not know yet: refused by the breaker, nothing
      // sent (no charge reached the gateway, so there was nothing to wait for).
      await setFault(handle.db, ["gateway"], { mode: "normal" });
      const charges = seen.charges;
      const guid = randomUUID();
      const refused = await pay(guid, invoice.id, 1_000, { kind: "saved-card", cardId: await savedVisa() });
      expect(guard.state()).toBe("open");
      expect(refused).toMatchObject({ kind: "declined", refusal: "unavailable" });
      expect(seen.charges).toBe(charges);
      expect(await chargesFor(guid)).toBe(0);
      // Failed, not pending: the invoice is free to pay again.
      expect(await paymentRow(guid)).toMatchObject({ status: "failed", failure_code: "unavailable" });
      expect((await loadPayable(actor, [invoice.id]))[0]!.availableCents).toBe(invoice.availableCents);
      time += 10_000;
      const retry = randomUUID();
      expect((await pay(retry, invoice.id, 1_000, { kind: "saved-card", cardId: await savedVisa() })).kind).toBe(
        "succeeded",
      );
      expect(guard.state()).toBe("closed");
      expect(await chargesFor(retry)).toBe(1);
    } finally {
      await setFault(handle.db, ["gateway"], { mode: "normal" });
    }
  });
});

describe("the PayTo provider slow or down", () => {
  let bank: SandboxPayTo;

  async function activeAgreement() {
    const guid = randomUUID();
    const debtor: PayToDebtor = {
      partyType: "PERS",
      partyName: "Olivia Nguyen",
      ultimatePartyName: "",
      kind: "alias",
      aliasType: "EMAL",
      aliasValue: "approve@payto.test",
    };
    const created = await bank.createAgreement({
      idempotencyKey: `${actor.businessId}:${guid}`,
      merchant: actor.businessId,
      hostname: "acme.localhost",
      debtor,
      maxAmountCents: 1_000_000,
      description: "Acme — account ACME-1000",
    });
    if (!created.ok) throw new Error(created.refusal);
    const approved = await bank.payerApproves(created.value.agreementId);
    if (!approved.ok) throw new Error(approved.message);
    const row = await handle.db
      .insertInto("payto_agreements")
      .values({
        business_id: actor.businessId,
        account_id: actor.accountId,
        request_guid: guid,
        request_hash: createHash("sha256").update(guid).digest("hex"),
        status: approved.agreement.status,
        provider_agreement_id: approved.agreement.agreementId,
        provider_version: approved.agreement.version,
        party_name: "Olivia Nguyen",
        alias_type: "EMAL",
        alias_value: "approve@payto.test",
        max_amount_cents: 1_000_000,
        created_by: actor.contactId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeAll(() => {
    bank = createSandboxPayTo({
      secret: webhookSecret(),
      db: async () => handle.db,
      delayMs: 0,
      deliver: async () => 200,
    });
  });

  it("a slow initiation ends unknown (pending to the payer), and the poll settles it to one provider payment once the provider answers", async () => {
    const guard = breaker({ timeoutMs: 200 });
    const calls = recorded(withPayToFaults(bank, faults()));
    setPayToProviderForTesting(guardPayToProvider(calls.port, guard));
    const agreementId = await activeAgreement();
    await setFault(handle.db, ["payto"], { mode: "slow", delayMs: 600 });
    try {
      const invoice = await freeInvoice();
      const guid = randomUUID();
      const outcome = await pay(guid, invoice.id, 1_200, { kind: "payto", agreementId });
      // The initiation gave up at the timeout (its timer runs out before the fault's): outcome unknown.
      expect(outcome.kind).toBe("pending");
      expect((await paymentRow(guid)).status).toBe("unknown");
      await setFault(handle.db, ["payto"], { mode: "normal" });
      // The provider took it after all (late): once the call we stopped waiting for has ended, the
      // provider has the payment, and the poll finds it by our key and follows it.
      await calls.settled();
      expect(await bank.getPayment(`${actor.businessId}:${guid}`)).not.toBeNull();
      await reconcileUnsettled({ olderThanMs: 0, method: "payto" });
      const row = await paymentRow(guid);
      expect(["submitted", "succeeded"]).toContain(row.status);
      const providerPayments = await handle.db
        .selectFrom("sandbox_payto_payments")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("idempotency_key", "=", `${actor.businessId}:${guid}`)
        .executeTakeFirstOrThrow();
      expect(Number(providerPayments.n)).toBe(1);
    } finally {
      await setFault(handle.db, ["payto"], { mode: "normal" });
    }
  });

  it("down: the poll fails fast and changes nothing, the breaker opens, and the poll recovers after the cool-down", async () => {
    const guard = breaker({ failureThreshold: 2 });
    const provider = guardPayToProvider(withPayToFaults(bank, faults()), guard);
    setPayToProviderForTesting(provider);
    const agreementId = await activeAgreement();
    const invoice = await freeInvoice();
    const guid = randomUUID();
    expect((await pay(guid, invoice.id, 900, { kind: "payto", agreementId })).kind).toBe("submitted");
    await setFault(handle.db, ["payto"], { mode: "down" });
    try {
      // Fails fast: refused by the provider (PortUnavailableError), not waited out (a PayToTimeoutError).
      await expect(provider.getPayment(`${actor.businessId}:${guid}`)).rejects.toBeInstanceOf(PortUnavailableError);
      await reconcileUnsettled({ olderThanMs: 0, method: "payto" });
      expect(guard.state()).toBe("open");
      expect((await paymentRow(guid)).status).toBe("submitted");
      // A new PayTo payment while open: refused at once, failed with "unavailable", nothing at the provider.
      const refusedGuid = randomUUID();
      const other = await freeInvoice();
      expect(await pay(refusedGuid, other.id, 800, { kind: "payto", agreementId })).toMatchObject({
        kind: "declined",
        refusal: "unavailable",
      });
      expect(await bank.getPayment(`${actor.businessId}:${refusedGuid}`)).toBeNull();
      await setFault(handle.db, ["payto"], { mode: "normal" });
      time += 10_000;
      await reconcileUnsettled({ olderThanMs: 0, method: "payto" });
      expect(guard.state()).toBe("closed");
      expect((await paymentRow(guid)).status).toBe("submitted");
    } finally {
      await setFault(handle.db, ["payto"], { mode: "normal" });
    }
  });

  it("a lookup that times out is a PayToTimeoutError (outcome unknown), not a refusal", async () => {
    const provider = guardPayToProvider(withPayToFaults(bank, faults()), breaker({ timeoutMs: 100 }));
    await setFault(handle.db, ["payto"], { mode: "slow", delayMs: 400 });
    try {
      await expect(provider.getPayment("nobody:nothing")).rejects.toBeInstanceOf(PayToTimeoutError);
    } finally {
      await setFault(handle.db, ["payto"], { mode: "normal" });
    }
  });
});
