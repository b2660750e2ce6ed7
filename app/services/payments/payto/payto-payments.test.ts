import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import { BACKGROUND_HANDLERS } from "../../jobs/background.server";
import { setDatabaseForTesting } from "../../platform/database.server";
import type { DatabaseHandle } from "../../platform/db.server";
import { resetEnvForTesting } from "../../platform/env.server";
import { logger } from "../../platform/logger.server";
import { QUEUES } from "../../platform/queue.server";
import { loadPayable } from "../payable.server";
import type { PayMethod } from "../payment-records.server";
import { reconcilePayment, reconcileUnsettled } from "../reconcile.server";
import { failPayment, settlePayment } from "../settle.server";
import { submitPayment } from "../submit.server";
import { setPayToProviderForTesting, webhookSecret } from "./index.server";
import type { PayToDebtor, PayToEvent } from "./payto-provider.server";
import { createSandboxPayTo, signWebhook, type SandboxPayTo } from "./sandbox-provider.server";
import { receiveWebhook } from "./webhook.server";

/**
 * Paying invoices by PayTo, exactly once (decision 027 "A PayTo payment's states", 029): the
 * real claim path and settle path on a real database, the sandbox provider as the bank, its
 * webhooks delivered to our receiver by hand so that they can race the poller.
 */
const SETTLE_MS = 5_000;
const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
const today = new Date().toISOString().slice(0, 10);

function payToSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>, postgres = false) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let catcher: SmtpCatcher;
  let bank: SandboxPayTo;
  let actor: { businessId: string; accountId: string; contactId: string; clientIp: string };
  let otherAccount: string;
  let clock = new Date();
  /** Webhooks the sandbox would have sent, for the tests to deliver (or not). */
  const outbox: { body: string; headers: Record<string, string> }[] = [];
  const savedSmtp = process.env.SMTP_URL;

  beforeAll(async () => {
    catcher = await startSmtpCatcher();
    process.env.SMTP_URL = catcher.smtpUrl;
    resetEnvForTesting();
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    bank = createSandboxPayTo({
      secret: webhookSecret(),
      db: async () => handle.db,
      delayMs: 0,
      now: () => clock,
      settleMs: SETTLE_MS,
      deliver: async (_hostname, body, headers) => {
        outbox.push({ body, headers });
        return 200;
      },
    });
    setPayToProviderForTesting(bank);
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
    setPayToProviderForTesting(undefined);
    setDatabaseForTesting(undefined);
    await close();
    await catcher.close();
    if (savedSmtp === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = savedSmtp;
    resetEnvForTesting();
  });

  /** Moves the sandbox's clock and lets it do what is due (settle, reject), queuing its webhooks. */
  async function bankRuns(ms: number) {
    clock = new Date(clock.getTime() + ms);
    await bank.runDue(clock);
  }

  /** The queued webhooks about one payment, for the test to deliver to our receiver as the provider would. */
  const webhooksFor = (paymentId: string) =>
    outbox.filter((w) => {
      const event = JSON.parse(w.body) as PayToEvent;
      return event.type === "payment.updated" && event.data.paymentId === paymentId;
    });

  /**
   * An agreement of `accountId` at the sandbox bank, brought to `status` by the payer there, and
   * the portal's own row for it (as the agreements service would have written it).
   */
  async function agreement(
    payId: string,
    status: "ACTIVE" | "SUSPENDED" | "CREATED" | "CANCELLED" = "ACTIVE",
    accountId = actor.accountId,
    maxAmountCents = 1_000_000,
  ) {
    const guid = randomUUID();
    const debtor: PayToDebtor = {
      partyType: "PERS",
      partyName: "Olivia Nguyen",
      ultimatePartyName: "",
      kind: "alias",
      aliasType: "EMAL",
      aliasValue: payId,
    };
    const created = await bank.createAgreement({
      idempotencyKey: `${actor.businessId}:${guid}`,
      merchant: actor.businessId,
      hostname: "acme.localhost",
      debtor,
      maxAmountCents,
      description: "Acme — account ACME-1000",
    });
    if (!created.ok) throw new Error(`the sandbox refused the agreement: ${created.refusal}`);
    let snapshot = created.value;
    if (status !== "CREATED") {
      const approved = await bank.payerApproves(snapshot.agreementId);
      if (!approved.ok) throw new Error(approved.message);
      snapshot = approved.agreement;
    }
    if (status === "SUSPENDED" || status === "CANCELLED") {
      const step =
        status === "SUSPENDED"
          ? await bank.payerSuspends(snapshot.agreementId)
          : await bank.payerCancels(snapshot.agreementId);
      if (!step.ok) throw new Error(step.message);
      snapshot = step.agreement;
    }
    const row = await handle.db
      .insertInto("payto_agreements")
      .values({
        business_id: actor.businessId,
        account_id: accountId,
        request_guid: guid,
        request_hash: createHash("sha256").update(guid).digest("hex"),
        status: snapshot.status,
        provider_agreement_id: snapshot.agreementId,
        provider_version: snapshot.version,
        party_name: "Olivia Nguyen",
        alias_type: "EMAL",
        alias_value: payId,
        max_amount_cents: maxAmountCents,
        created_by: actor.contactId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, providerId: snapshot.agreementId };
  }

  const invoices = async (count: number) => {
    const rows = await loadPayable(actor, "all");
    const free = rows.filter((r) => r.availableCents >= 2_000 && r.availableCents === r.balanceCents);
    if (free.length < count) throw new Error("the seed has too few payable invoices left");
    return free.slice(0, count);
  };

  const pay = (guid: string, selection: { invoiceId: string; amountCents: number }[], method: PayMethod) =>
    submitPayment(actor, { requestGuid: guid, selection, method, note: "", currency: "AUD", today }, context);

  const paymentRow = (guid: string) =>
    handle.db.selectFrom("payments").selectAll().where("request_guid", "=", guid).executeTakeFirst();

  const count = async (table: "payments" | "sandbox_payto_payments" | "payment_allocations") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const balances = async (ids: string[]) =>
    Object.fromEntries(
      (await handle.db.selectFrom("invoices").select(["id", "balance_cents"]).where("id", "in", ids).execute()).map(
        (r) => [r.id, r.balance_cents],
      ),
    );

  const savedVisa = async () =>
    (
      await handle.db
        .selectFrom("cards")
        .select("id")
        .where("account_id", "=", actor.accountId)
        .where("last4", "=", "1111")
        .executeTakeFirstOrThrow()
    ).id;

  it("pays two invoices: submitted and reserved (a card payment of them is refused), then settled exactly once when a webhook, its duplicate and the poller race; one set of statement lines, one receipt", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [a, b] = await invoices(2);
    const before = await balances([a!.id, b!.id]);
    const guid = randomUUID();
    const selection = [
      { invoiceId: a!.id, amountCents: a!.availableCents },
      { invoiceId: b!.id, amountCents: 1_000 },
    ];
    const outcome = await pay(guid, selection, { kind: "payto", agreementId });
    expect(outcome.kind).toBe("submitted");
    const submitted = (await paymentRow(guid))!;
    expect(submitted).toMatchObject({
      method: "payto",
      status: "submitted",
      merchant_fee_cents: 0,
      payto_agreement_id: agreementId,
    });
    expect(submitted.provider_payment_id).toMatch(/\S/);
    // Nothing has moved yet, but the invoices are held for this payment.
    expect(await balances([a!.id, b!.id])).toEqual(before);
    const card = await pay(randomUUID(), [{ invoiceId: a!.id, amountCents: a!.availableCents }], {
      kind: "saved-card",
      cardId: await savedVisa(),
    });
    expect(card).toEqual({ kind: "invalid", problem: "amount" });
    // A repeat of the guid answers with the first result, while the payment is still unsettled: it does
    // not wait for settlement. (The sandbox settles only when bankRuns moves its clock, so a repeat that
    // waited would never answer and the test's time-out would fail it.)
    expect(await pay(guid, selection, { kind: "payto", agreementId })).toEqual(outcome);
    expect((await paymentRow(guid))!.status).toBe("submitted");

    const mailsBefore = catcher.messages.length;
    await bankRuns(SETTLE_MS);
    const [webhook] = webhooksFor(submitted.provider_payment_id!);
    expect(webhook).toBeDefined();
    const headers = new Headers(webhook!.headers);
    const results = await Promise.all([
      receiveWebhook(actor.businessId, headers, webhook!.body),
      receiveWebhook(actor.businessId, headers, webhook!.body),
      reconcileUnsettled({ method: "payto", olderThanMs: 0 }),
      reconcilePayment(submitted.id),
    ]);
    expect(results[0].status).toBe(200);
    expect(results[1].status).toBe(200);
    const settled = (await paymentRow(guid))!;
    expect(settled.status).toBe("succeeded");
    const after = await balances([a!.id, b!.id]);
    expect(after[a!.id]).toBe(0);
    expect(after[b!.id]).toBe(before[b!.id]! - 1_000);
    const lines = await handle.db
      .selectFrom("statement_lines")
      .select(["type", "description", "credit_cents"])
      .where("reference", "=", settled.reference)
      .execute();
    expect(lines.filter((l) => l.type === "payment")).toEqual([
      { type: "payment", description: "PayTo payment", credit_cents: settled.amount_cents },
    ]);
    const receipt = await catcher.waitForMail("olivia@coastal.example", {
      after: mailsBefore,
      subject: new RegExp(settled.reference),
    });
    expect(receipt.text).toContain("PayTo");
    // Give a stray second email time to arrive: there must be none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(catcher.messages.slice(mailsBefore).filter((m) => m.subject.includes(settled.reference))).toHaveLength(1);

    // The same event again (the provider missed our answer), and the same snapshot as a new event: nothing changes.
    expect((await receiveWebhook(actor.businessId, headers, webhook!.body)).body).toMatchObject({ duplicate: true });
    const event = JSON.parse(webhook!.body) as PayToEvent;
    const again = JSON.stringify({ ...event, id: `evt_again_${randomUUID()}` });
    const t = Math.floor(Date.now() / 1000);
    const resent = await receiveWebhook(
      actor.businessId,
      new Headers({ "PayTo-Signature": signWebhook(webhookSecret(), again, t) }),
      again,
    );
    expect(resent).toMatchObject({ status: 200, body: { result: "stale" } });
    expect(await balances([a!.id, b!.id])).toEqual(after);
    expect(
      await handle.db.selectFrom("statement_lines").select("id").where("reference", "=", settled.reference).execute(),
    ).toHaveLength(lines.length);
  });

  it("the payto-payment-poll job run twice (a retry, a second process's slot): settled once, one statement line, one receipt; the second run changes nothing", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID();
    const outcome = await pay(guid, [{ invoiceId: invoice!.id, amountCents: 1_500 }], { kind: "payto", agreementId });
    expect(outcome.kind).toBe("submitted");
    // Old enough for the poll (it leaves payments younger than a few seconds to their request).
    await handle.db
      .updateTable("payments")
      .set({ created_at: new Date(Date.now() - 60_000) })
      .where("request_guid", "=", guid)
      .execute();
    const mailsBefore = catcher.messages.length;
    // The bank settles it; its webhook is lost (never delivered): only the poll can tell us.
    await bankRuns(SETTLE_MS);
    const poll = () => BACKGROUND_HANDLERS[QUEUES.paytoPayments]!({ id: randomUUID(), data: {} }, handle);
    const state = async () => {
      const row = (await paymentRow(guid))!;
      return {
        status: row.status,
        balance: (await balances([invoice!.id]))[invoice!.id],
        lines: (
          await handle.db
            .selectFrom("statement_lines")
            .select(["type", "credit_cents"])
            .where("reference", "=", row.reference)
            .orderBy("id")
            .execute()
        ).map((line) => `${line.type}:${line.credit_cents}`),
        audits: (
          await handle.db
            .selectFrom("audit_events")
            .select("id")
            .where(sql<boolean>`details->>'paymentId' = ${row.id}`)
            .execute()
        ).length,
        receipts: catcher.messages.slice(mailsBefore).filter((m) => m.subject.includes(row.reference)).length,
      };
    };
    await poll();
    const reference = (await paymentRow(guid))!.reference;
    await catcher.waitForMail("olivia@coastal.example", { after: mailsBefore, subject: new RegExp(reference) });
    const once = await state();
    expect(once).toMatchObject({
      status: "succeeded",
      balance: invoice!.availableCents - 1_500,
      receipts: 1,
    });
    const settled = (await paymentRow(guid))!;
    expect(once.lines.filter((line) => line.startsWith("payment:"))).toEqual([`payment:${settled.amount_cents}`]);
    await poll();
    // Give a stray second receipt time to arrive: there must be none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await state()).toEqual(once);
  });

  it("50 simultaneous submissions of one requestGuid: one provider payment, one payments row", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID();
    const [rowsBefore, providerBefore] = [await count("payments"), await count("sandbox_payto_payments")];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () =>
        pay(guid, [{ invoiceId: invoice!.id, amountCents: 500 }], { kind: "payto", agreementId }),
      ),
    );
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(["submitted"]));
    expect(await count("payments")).toBe(rowsBefore + 1);
    expect(await count("sandbox_payto_payments")).toBe(providerBefore + 1);
    const key = `${actor.businessId}:${guid}`;
    expect(
      await handle.db.selectFrom("sandbox_payto_payments").select("id").where("idempotency_key", "=", key).execute(),
    ).toHaveLength(1);
  });

  it("rejected for want of funds: failed with the reason, the invoices payable again, and a second payment of them succeeds", async () => {
    const poor = await agreement("nofunds@payto.test");
    const [invoice] = await invoices(1);
    const amount = invoice!.availableCents;
    const guid = randomUUID();
    expect(
      (await pay(guid, [{ invoiceId: invoice!.id, amountCents: amount }], { kind: "payto", agreementId: poor.id }))
        .kind,
    ).toBe("submitted");
    expect((await loadPayable(actor, [invoice!.id]))[0]!.availableCents).toBe(0);
    await bankRuns(SETTLE_MS);
    // No webhook delivered this time: the poller learns it.
    await reconcileUnsettled({ method: "payto", olderThanMs: 0 });
    expect(await paymentRow(guid)).toMatchObject({ status: "failed", failure_code: "insufficient_funds" });
    expect((await loadPayable(actor, [invoice!.id]))[0]!.availableCents).toBe(amount);
    expect((await balances([invoice!.id]))[invoice!.id]).toBe(amount);

    const rich = await agreement("approve@payto.test");
    const second = randomUUID();
    expect(
      (await pay(second, [{ invoiceId: invoice!.id, amountCents: amount }], { kind: "payto", agreementId: rich.id }))
        .kind,
    ).toBe("submitted");
    await bankRuns(SETTLE_MS);
    expect(await reconcilePayment((await paymentRow(second))!.id)).toBe("succeeded");
    expect((await balances([invoice!.id]))[invoice!.id]).toBe(0);
  });

  it("refuses a suspended, pending or cancelled agreement, another account's, a made-up id and one above the limit: nothing written, nothing asked of the bank", async () => {
    const [invoice] = await invoices(1);
    const cases: [string, Promise<{ id: string }> | { id: string }, string][] = [
      ["suspended", agreement("approve@payto.test", "SUSPENDED"), "agreementInactive"],
      ["pending", agreement("someone@example.com", "CREATED"), "agreementInactive"],
      ["cancelled", agreement("approve@payto.test", "CANCELLED"), "agreementInactive"],
      ["another account's", agreement("approve@payto.test", "ACTIVE", otherAccount), "agreement"],
      ["made up", { id: randomUUID() }, "agreement"],
      ["not an id", { id: "' OR 1=1 --" }, "agreement"],
      ["above its limit", agreement("approve@payto.test", "ACTIVE", actor.accountId, 100), "limit"],
    ];
    for (const [name, made, problem] of cases) {
      const { id } = await made;
      const before = [
        await count("payments"),
        await count("payment_allocations"),
        await count("sandbox_payto_payments"),
      ];
      const outcome = await pay(randomUUID(), [{ invoiceId: invoice!.id, amountCents: 500 }], {
        kind: "payto",
        agreementId: id,
      });
      expect(outcome, name).toEqual({ kind: "invalid", problem });
      expect(
        [await count("payments"), await count("payment_allocations"), await count("sandbox_payto_payments")],
        name,
      ).toEqual(before);
    }
  });

  it("a time-out after the provider accepted the payment is reconciled by our key: one payment, submitted, then settled", async () => {
    const { id: agreementId } = await agreement("slow@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID();
    const outcome = await pay(guid, [{ invoiceId: invoice!.id, amountCents: 700 }], { kind: "payto", agreementId });
    expect(outcome.kind).toBe("submitted");
    const key = `${actor.businessId}:${guid}`;
    const atBank = await handle.db
      .selectFrom("sandbox_payto_payments")
      .select("id")
      .where("idempotency_key", "=", key)
      .execute();
    expect(atBank).toHaveLength(1);
    expect((await paymentRow(guid))!.provider_payment_id).toBe(atBank[0]!.id);
    await bankRuns(SETTLE_MS);
    expect(await reconcilePayment((await paymentRow(guid))!.id)).toBe("succeeded");
  });

  it("a submitted payment is never failed by the grace period: it waits for the bank", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID();
    await pay(guid, [{ invoiceId: invoice!.id, amountCents: 300 }], { kind: "payto", agreementId });
    const row = (await paymentRow(guid))!;
    await handle.db
      .updateTable("payments")
      .set({ created_at: new Date(Date.now() - 3 * 86_400_000) })
      .where("id", "=", row.id)
      .execute();
    expect(await reconcilePayment(row.id, { graceMs: 1 })).toBe("submitted");
    expect(await reconcileUnsettled({ graceMs: 1, olderThanMs: 0 })).not.toHaveProperty("failed");
    expect((await paymentRow(guid))!.status).toBe("submitted");
  });

  const key = (guid: string) => `${actor.businessId}:${guid.toLowerCase()}`;

  const deliverWebhooksFor = async (providerPaymentId: string) => {
    const webhook = webhooksFor(providerPaymentId).at(-1);
    if (!webhook) throw new Error("no webhook was queued for this payment");
    return receiveWebhook(actor.businessId, new Headers(webhook.headers), webhook.body);
  };

  it("the poller takes turns: with more unsettled payments than one run takes, every one is asked in time", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    // The payment to be reached: made first, and paid by the bank (its webhook is lost).
    const reached = randomUUID();
    await pay(reached, [{ invoiceId: invoice!.id, amountCents: 200 }], { kind: "payto", agreementId });
    await bankRuns(SETTLE_MS);
    // Four more the bank is still processing, made to look older than everything else.
    for (let n = 0; n < 4; n++) {
      const guid = randomUUID();
      await pay(guid, [{ invoiceId: invoice!.id, amountCents: 200 }], { kind: "payto", agreementId });
      await handle.db
        .updateTable("payments")
        .set({ created_at: new Date(Date.now() - 10 * 86_400_000 - n * 60_000) })
        .where("request_guid", "=", guid)
        .execute();
    }
    const unsettled = Number(
      (
        await handle.db
          .selectFrom("payments")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("method", "=", "payto")
          .where("status", "in", ["pending", "unknown", "submitted"])
          .executeTakeFirstOrThrow()
      ).n,
    );
    const batch = 3;
    expect(unsettled).toBeGreaterThan(batch);
    // Oldest-first would ask about the same three every run; taking turns reaches it within a round.
    for (let run = 0; run < Math.ceil(unsettled / batch); run++) {
      await reconcileUnsettled({ method: "payto", olderThanMs: 0, limit: batch });
    }
    expect((await paymentRow(reached))!.status).toBe("succeeded");
  });

  it("a submitted payment the provider has no record of: failed as unavailable after ten minutes (its invoice freed), left alone before", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const [old, young] = [randomUUID(), randomUUID()];
    for (const guid of [old, young]) {
      expect(
        (await pay(guid, [{ invoiceId: invoice!.id, amountCents: 300 }], { kind: "payto", agreementId })).kind,
      ).toBe("submitted");
    }
    // The provider loses both records; one was made eleven minutes ago.
    await handle.db
      .deleteFrom("sandbox_payto_payments")
      .where("idempotency_key", "in", [key(old), key(young)])
      .execute();
    await handle.db
      .updateTable("payments")
      .set({ created_at: new Date(Date.now() - 11 * 60_000) })
      .where("request_guid", "=", old)
      .execute();
    const error = vi.spyOn(logger, "error");
    expect(await reconcilePayment((await paymentRow(old))!.id)).toBe("failed");
    expect(await paymentRow(old)).toMatchObject({ status: "failed", failure_code: "unavailable" });
    expect(await reconcilePayment((await paymentRow(young))!.id)).toBe("submitted");
    expect(error).toHaveBeenCalledWith(expect.stringContaining("no record"), expect.anything());
    error.mockRestore();
    // Only the young one still holds the invoice.
    expect((await loadPayable(actor, [invoice!.id]))[0]!.availableCents).toBe(invoice!.availableCents - 300);
  });

  it("an upper-case requestGuid is sent to the provider with the key reconciliation rebuilds, and settles by it", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID().toUpperCase();
    expect((await pay(guid, [{ invoiceId: invoice!.id, amountCents: 250 }], { kind: "payto", agreementId })).kind).toBe(
      "submitted",
    );
    const atBank = await handle.db
      .selectFrom("sandbox_payto_payments")
      .select("idempotency_key")
      .where("idempotency_key", "in", [key(guid), `${actor.businessId}:${guid}`])
      .execute();
    expect(atBank).toEqual([{ idempotency_key: key(guid) }]);
    await bankRuns(SETTLE_MS);
    expect(await reconcilePayment((await paymentRow(guid.toLowerCase()))!.id)).toBe("succeeded");
    // A repeat in either case is the same payment.
    expect(
      (await pay(guid.toLowerCase(), [{ invoiceId: invoice!.id, amountCents: 250 }], { kind: "payto", agreementId }))
        .kind,
    ).toBe("succeeded");
  });

  it("settled by the bank after we failed it, its invoices still owing: settled after all, with its receipt", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID();
    await pay(guid, [{ invoiceId: invoice!.id, amountCents: 600 }], { kind: "payto", agreementId });
    const row = (await paymentRow(guid))!;
    expect(await failPayment(row.id, "unavailable")).toBe(true);
    const before = (await balances([invoice!.id]))[invoice!.id]!;
    const mailsBefore = catcher.messages.length;
    await bankRuns(SETTLE_MS);
    expect((await deliverWebhooksFor(row.provider_payment_id!)).status).toBe(200);
    expect(await paymentRow(guid)).toMatchObject({ status: "succeeded", failure_code: null, subtotal_cents: 600 });
    expect((await balances([invoice!.id]))[invoice!.id]).toBe(before - 600);
    const lines = await handle.db
      .selectFrom("statement_lines")
      .select(["description", "credit_cents"])
      .where("reference", "=", row.reference)
      .where("type", "in", ["payment", "credit"])
      .execute();
    expect(lines).toContainEqual({ description: "PayTo payment", credit_cents: row.amount_cents });
    expect(lines.map((l) => l.description)).not.toContain("Unapplied PayTo payment");
    await catcher.waitForMail("olivia@coastal.example", { after: mailsBefore, subject: new RegExp(row.reference) });
  });

  it("settled by the bank after we failed it, one invoice since paid by card: the rest applied, its money kept as credit, the business told", async () => {
    const { id: agreementId } = await agreement("approve@payto.test");
    const [paidSince, stillOwing] = await invoices(2);
    const guid = randomUUID();
    await pay(
      guid,
      [
        { invoiceId: paidSince!.id, amountCents: paidSince!.availableCents },
        { invoiceId: stillOwing!.id, amountCents: 1_000 },
      ],
      { kind: "payto", agreementId },
    );
    const row = (await paymentRow(guid))!;
    const allocations = await handle.db
      .selectFrom("payment_allocations")
      .selectAll()
      .where("payment_id", "=", row.id)
      .execute();
    const moneyOf = (invoiceId: string) => {
      const a = allocations.find((x) => x.invoice_id === invoiceId)!;
      return a.amount_cents + a.late_fee_cents - a.discount_cents;
    };
    expect(await failPayment(row.id, "unavailable")).toBe(true);
    // Freed, the first invoice is paid in full by card.
    const card = await pay(randomUUID(), [{ invoiceId: paidSince!.id, amountCents: paidSince!.availableCents }], {
      kind: "saved-card",
      cardId: await savedVisa(),
    });
    expect(card.kind).toBe("succeeded");
    const before = await balances([paidSince!.id, stillOwing!.id]);
    expect(before[paidSince!.id]).toBe(0);

    const error = vi.spyOn(logger, "error");
    await bankRuns(SETTLE_MS);
    expect((await deliverWebhooksFor(row.provider_payment_id!)).status).toBe(200);
    const settled = (await paymentRow(guid))!;
    expect(settled).toMatchObject({ status: "succeeded", subtotal_cents: 1_000, amount_cents: row.amount_cents });
    // The closed invoice is not paid twice; the other falls by its allocation.
    expect(await balances([paidSince!.id, stillOwing!.id])).toEqual({
      [paidSince!.id]: 0,
      [stillOwing!.id]: before[stillOwing!.id]! - 1_000,
    });
    expect(
      (
        await handle.db
          .selectFrom("payment_allocations")
          .select("invoice_id")
          .where("payment_id", "=", row.id)
          .execute()
      ).map((a) => a.invoice_id),
    ).toEqual([stillOwing!.id]);
    const lines = await handle.db
      .selectFrom("statement_lines")
      .select(["type", "description", "debit_cents", "credit_cents"])
      .where("reference", "=", row.reference)
      .execute();
    expect(lines).toContainEqual({
      type: "credit",
      description: "Unapplied PayTo payment",
      debit_cents: 0,
      credit_cents: moneyOf(paidSince!.id),
    });
    expect(lines).toContainEqual({
      type: "payment",
      description: "PayTo payment",
      debit_cents: 0,
      credit_cents: moneyOf(stillOwing!.id),
    });
    // The statement accounts for every cent received: what paid the invoice, and the credit.
    expect(lines.reduce((n, l) => n + l.credit_cents - l.debit_cents, 0)).toBe(1_000 + moneyOf(paidSince!.id));
    expect(error).toHaveBeenCalledWith(expect.stringContaining("credit"), expect.anything());
    error.mockRestore();
    const events = await handle.db
      .selectFrom("audit_events")
      .select(["details"])
      .where("business_id", "=", actor.businessId)
      .where("action", "=", "payment.payto.unapplied")
      .execute();
    expect(events.map((e) => (typeof e.details === "string" ? JSON.parse(e.details) : e.details))).toContainEqual(
      expect.objectContaining({ paymentId: row.id, creditCents: moneyOf(paidSince!.id) }),
    );
    // The same settlement again changes nothing.
    expect((await deliverWebhooksFor(row.provider_payment_id!)).body).toMatchObject({ duplicate: true });
  });

  it.skipIf(!postgres)(
    "settling locks the invoices in id order, as the claim does, whatever order the allocations were written in",
    async () => {
      const { id: agreementId } = await agreement("approve@payto.test");
      // Any two invoices with something left to pay (the untouched ones are used up by now).
      const two = (await loadPayable(actor, "all")).filter((i) => i.availableCents >= 200).slice(0, 2);
      expect(two).toHaveLength(2);
      const [low, high] = [...two].sort((a, b) => (a.id < b.id ? -1 : 1));
      const guid = randomUUID();
      await pay(
        guid,
        [
          { invoiceId: low!.id, amountCents: 100 },
          { invoiceId: high!.id, amountCents: 100 },
        ],
        { kind: "payto", agreementId },
      );
      const row = (await paymentRow(guid))!;
      // Written again highest id first, as an allocation by due date would be.
      await handle.db.transaction().execute(async (tx) => {
        const rows = await tx.selectFrom("payment_allocations").selectAll().where("payment_id", "=", row.id).execute();
        await tx.deleteFrom("payment_allocations").where("payment_id", "=", row.id).execute();
        for (const a of rows.sort((x, y) => (x.invoice_id < y.invoice_id ? 1 : -1))) {
          await tx.insertInto("payment_allocations").values(a).execute();
        }
      });
      // Someone holds the higher invoice: the settlement must hold the lower one while it waits.
      let release!: () => void;
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = handle.db.transaction().execute(async (tx) => {
        await tx.selectFrom("invoices").select("id").where("id", "=", high!.id).forUpdate().execute();
        held();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await holding;
      const settling = settlePayment(row.id, { provider_payment_id: row.provider_payment_id! });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const lowFree = await handle.db
        .transaction()
        .execute(async (tx) => {
          await tx.selectFrom("invoices").select("id").where("id", "=", low!.id).forUpdate().noWait().execute();
          return true;
        })
        .catch(() => false);
      release();
      await holder;
      expect(await settling).toBe(true);
      expect(lowFree).toBe(false);
    },
  );

  it("a payment webhook about a payment this business never made is refused with 404 and logged", async () => {
    const warn = vi.spyOn(logger, "warn");
    const event = {
      id: `evt_${randomUUID()}`,
      type: "payment.updated",
      createdAt: new Date().toISOString(),
      data: {
        paymentId: `pay_never_${randomUUID()}`,
        idempotencyKey: `${actor.businessId}:${randomUUID()}`,
        merchant: actor.businessId,
        agreementId: "agr_never",
        status: "SETTLED",
        version: 2,
        amountCents: 1_000,
        failureReason: null,
        updatedAt: new Date().toISOString(),
      },
    };
    const body = JSON.stringify(event);
    const before = await count("payments");
    const answer = await receiveWebhook(
      actor.businessId,
      new Headers({ "PayTo-Signature": signWebhook(webhookSecret(), body, Math.floor(Date.now() / 1000)) }),
      body,
    );
    expect(answer.status).toBe(404);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining("never made"),
      expect.objectContaining({ eventId: event.id }),
    );
    expect(await count("payments")).toBe(before);
    warn.mockRestore();
  });

  it("a payment rejected because the payer ended the agreement in their bank: failed, and the portal learns the agreement's state", async () => {
    const { id: agreementId, providerId } = await agreement("approve@payto.test");
    const [invoice] = await invoices(1);
    const guid = randomUUID();
    expect((await pay(guid, [{ invoiceId: invoice!.id, amountCents: 400 }], { kind: "payto", agreementId })).kind).toBe(
      "submitted",
    );
    // The payer cancels in their bank; we deliver no webhook about it.
    expect((await bank.payerCancels(providerId)).ok).toBe(true);
    await bankRuns(SETTLE_MS);
    await reconcileUnsettled({ method: "payto", olderThanMs: 0 });
    expect(await paymentRow(guid)).toMatchObject({ status: "failed", failure_code: "agreement_not_active" });
    const row = await handle.db
      .selectFrom("payto_agreements")
      .select("status")
      .where("id", "=", agreementId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("CANCELLED");
  });
}

describe("on PGlite", () => {
  payToSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

// Real concurrency: several connections racing for one guid, one settlement.
describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  payToSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  }, true);
});
