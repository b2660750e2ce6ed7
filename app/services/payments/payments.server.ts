import { createHash, randomBytes } from "node:crypto";
import { sql, type Insertable } from "kysely";
import { detectBrand } from "~/lib/card";
import { computePayment, feeRulesFromRow, type FeeRules, type PaymentBreakdown } from "~/lib/payment-calc";
import type { CardBrand } from "~/lib/payment-method-types";
import { audit } from "../platform/audit.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { PaymentStatus, StatementLinesTable } from "../platform/db-schema.server";
import {
  GatewayTimeoutError,
  type GatewayCharge,
  type GatewayContext,
  type GatewayRefusal,
} from "./gateway/card-gateway.server";
import { getCardGateway } from "./gateway/index.server";
import { logger } from "../platform/logger.server";
import { saveCard } from "../payment-methods/payment-methods.server";
import { getPayToConfiguration } from "./payto/settings.server";
import { initiatePayToPayment, reconcilePayToPayment, type PayToRefusalCode } from "./payto/payto-payments.server";

/**
 * Paying invoices, exactly once (ARCHITECTURE "Money moves exactly once"; issue 3).
 *
 * 1. The submission's requestGuid is claimed by inserting the payment (unique per business)
 *    together with its allocations, in one transaction that locks the invoices and checks
 *    their balances less what other unsettled payments already reserve.
 * 2. The gateway is charged with our key (business:requestGuid), so its retries line up with ours.
 * 3. The outcome is written in one transaction: balances, statuses and statement lines move
 *    with the payment. A time-out leaves the payment "unknown" until the reconciler asks the
 *    gateway by our key what happened.
 * A repeat of the guid gets the first result; the same guid with other content is refused.
 */
type Actor = { businessId: string; accountId: string; contactId: string; clientIp: string };

export type PaySelection = { invoiceId: string; amountCents: number }[];

export type NewCard = {
  cardNumber: string;
  cvn: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string;
  save: boolean;
  authorityReference: string;
};

export type PayMethod =
  | { kind: "saved-card"; cardId: string }
  | { kind: "new-card"; card: NewCard }
  | { kind: "promise"; promiseDate: string }
  /** Pulled under the account's ACTIVE PayTo agreement (our payto_agreements.id). */
  | { kind: "payto"; agreementId: string };

export type PaymentOutcome =
  | { kind: "succeeded"; paymentId: string; reference: string }
  | { kind: "promised"; paymentId: string; reference: string }
  | { kind: "declined"; paymentId: string; reference: string; method: "card"; refusal: GatewayRefusal }
  | { kind: "declined"; paymentId: string; reference: string; method: "payto"; refusal: PayToRefusalCode }
  /** PayTo: the provider accepted it; it settles (or is rejected) later. */
  | { kind: "submitted"; paymentId: string; reference: string }
  | { kind: "pending"; paymentId: string; reference: string }
  | { kind: "conflict" }
  | {
      kind: "invalid";
      /**
       * agreement: no such agreement on this account (another account's or business's id);
       * agreementInactive: ours but not ACTIVE (pending, suspended, ended); limit: above the
       * business's or the agreement's PayTo maximum; method: PayTo is not offered here.
       */
      problem: "invoice" | "amount" | "card" | "request" | "agreement" | "agreementInactive" | "limit" | "method";
    };

/** Statuses an invoice can be paid in: Open, Overdue, Promise, Broken Promise (spec §3 codes). */
export const PAYABLE_STATUSES = [1, 3, 7, 8] as const;

/**
 * Payments that still hold their invoices' balances: not answered yet, answer lost, or (PayTo)
 * accepted by the provider and waiting to settle. A card payment of invoices a PayTo payment
 * is settling is refused until it settles or is rejected.
 */
const RESERVING_STATUSES: PaymentStatus[] = ["pending", "unknown", "submitted"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function getFeeRules(businessId: string): Promise<FeeRules> {
  const db = await getDb();
  const row = await db
    .selectFrom("fee_rules")
    .select([
      "surcharge",
      "late_fee_bps as lateFeeBps",
      "late_fee_fixed_cents as lateFeeFixedCents",
      "early_discount_bps as earlyDiscountBps",
      "early_discount_days as earlyDiscountDays",
    ])
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  return feeRulesFromRow(row ?? null);
}

/**
 * The invoices of the selection that can be paid now, with what is left of each balance after
 * other unsettled payments' reservations. Invoices of another account, paid, closed, on
 * hold or disputed are simply absent.
 */
export async function payableInvoices(db: Db, actor: Actor, invoiceIds: string[] | "all", lock = false) {
  if (invoiceIds !== "all" && (invoiceIds.length === 0 || !invoiceIds.every((id) => UUID.test(id)))) return [];
  let query = db
    .selectFrom("invoices")
    .select((eb) => [
      "id",
      "number",
      "due_date as dueDate",
      "balance_cents as balanceCents",
      "status",
      // What other unsettled payments already hold of the balance, in the same statement.
      eb
        .selectFrom("payment_allocations as a")
        .innerJoin("payments as p", "p.id", "a.payment_id")
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number>("a.amount_cents"), inner.lit(0)).as("held"))
        .whereRef("a.invoice_id", "=", "invoices.id")
        .where("a.business_id", "=", actor.businessId)
        .where("p.status", "in", RESERVING_STATUSES)
        .as("reservedCents"),
    ])
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("status", "in", [...PAYABLE_STATUSES])
    .where("balance_cents", ">", 0);
  // "Pay everything owing": the 50 payable invoices due soonest.
  query =
    invoiceIds === "all"
      ? query.orderBy("due_date").orderBy("id").limit(50)
      : query.where("id", "in", invoiceIds).orderBy("id");
  if (lock) query = query.forUpdate();
  const rows = await query.execute();
  if (!lock || rows.length === 0) {
    return rows.map(({ reservedCents, ...row }) => ({
      ...row,
      availableCents: row.balanceCents - Number(reservedCents ?? 0),
    }));
  }
  // Under FOR UPDATE the row is re-read after a concurrent payment commits, but a subquery
  // still sees the statement's snapshot: read the reservations again, in a new statement
  // (a new snapshot under READ COMMITTED), now that the invoices are ours.
  const reserved = await db
    .selectFrom("payment_allocations as a")
    .innerJoin("payments as p", "p.id", "a.payment_id")
    .select(["a.invoice_id as invoiceId", (eb) => eb.fn.sum<number>("a.amount_cents").as("cents")])
    .where("a.business_id", "=", actor.businessId)
    .where(
      "a.invoice_id",
      "in",
      rows.map((r) => r.id),
    )
    .where("p.status", "in", RESERVING_STATUSES)
    .groupBy("a.invoice_id")
    .execute();
  const held = new Map(reserved.map((r) => [r.invoiceId, Number(r.cents)]));
  return rows.map(({ reservedCents: _stale, ...row }) => ({
    ...row,
    availableCents: row.balanceCents - (held.get(row.id) ?? 0),
  }));
}

function requestHash(actor: Actor, selection: PaySelection, method: PayMethod, note: string, brand: string | null) {
  const methodKey =
    method.kind === "saved-card"
      ? { kind: method.kind, cardId: method.cardId }
      : method.kind === "new-card"
        ? // Never the number itself, nor a hash of it (PCI DSS 3.5.1 treats PAN hashes as card data).
          {
            kind: method.kind,
            brand,
            expiry: `${method.card.expiryMonth}/${method.card.expiryYear}`,
            save: method.card.save,
          }
        : method.kind === "payto"
          ? { kind: method.kind, agreementId: method.agreementId }
          : { kind: method.kind, promiseDate: method.promiseDate };
  const sorted = [...selection].sort((a, b) => a.invoiceId.localeCompare(b.invoiceId));
  return sha256(JSON.stringify({ account: actor.accountId, selection: sorted, method: methodKey, note }));
}

const newReference = () => `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;

type StoredPayment = {
  id: string;
  status: PaymentStatus;
  method: "card" | "payto" | "payid" | "promise";
  request_hash: string;
  reference: string;
  failure_code: string | null;
};

const STORED = ["id", "status", "method", "request_hash", "reference", "failure_code"] as const;

function outcomeOf(payment: StoredPayment): PaymentOutcome {
  switch (payment.status) {
    case "succeeded":
      return { kind: "succeeded", paymentId: payment.id, reference: payment.reference };
    case "promised":
      return { kind: "promised", paymentId: payment.id, reference: payment.reference };
    case "submitted":
      return { kind: "submitted", paymentId: payment.id, reference: payment.reference };
    case "failed":
      return payment.method === "payto"
        ? {
            kind: "declined",
            paymentId: payment.id,
            reference: payment.reference,
            method: "payto",
            refusal: (payment.failure_code as PayToRefusalCode | null) ?? "declined",
          }
        : {
            kind: "declined",
            paymentId: payment.id,
            reference: payment.reference,
            method: "card",
            refusal: (payment.failure_code as GatewayRefusal | null) ?? "declined",
          };
    default:
      return { kind: "pending", paymentId: payment.id, reference: payment.reference };
  }
}

async function findByGuid(db: Db, businessId: string, requestGuid: string) {
  return db
    .selectFrom("payments")
    .select(STORED)
    .where("business_id", "=", businessId)
    .where("request_guid", "=", requestGuid)
    .executeTakeFirst();
}

/** A repeat of a guid: the first one's result, after waiting briefly for it to finish. */
async function answerRepeat(db: Db, actor: Actor, requestGuid: string, hash: string): Promise<PaymentOutcome> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const existing = await findByGuid(db, actor.businessId, requestGuid);
    if (!existing) return { kind: "invalid", problem: "request" };
    if (existing.request_hash !== hash) return { kind: "conflict" };
    // Only "pending" is worth waiting for (the first request is still talking to the gateway
    // or provider); a submitted PayTo payment may take days to settle.
    if (existing.status !== "pending") {
      if (existing.status === "unknown") await reconcilePayment(existing.id);
      const latest = (await findByGuid(db, actor.businessId, requestGuid))!;
      return outcomeOf(latest);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const existing = (await findByGuid(db, actor.businessId, requestGuid))!;
  return outcomeOf(existing);
}

export type SubmitPaymentInput = {
  requestGuid: string;
  selection: PaySelection;
  method: PayMethod;
  note: string;
  currency: string;
  today: string;
  /** The total the customer saw; a different total now is refused (prices moved or were tampered with). */
  expectedAmountCents?: number;
};

export async function submitPayment(
  actor: Actor,
  posted: SubmitPaymentInput,
  context: GatewayContext,
): Promise<PaymentOutcome> {
  if (!UUID.test(posted.requestGuid)) return { kind: "invalid", problem: "request" };
  // The database keeps the uuid in lower case and reconciliation rebuilds our key from it:
  // the key given to the gateway or provider must be the same text (ABCD… would be looked up as abcd…).
  const input = { ...posted, requestGuid: posted.requestGuid.toLowerCase() };
  const ids = input.selection.map((s) => s.invoiceId);
  if (ids.length === 0 || new Set(ids).size !== ids.length) return { kind: "invalid", problem: "invoice" };
  const db = await getDb();

  let brand: CardBrand | null = null;
  let savedCard: { id: string; token: string; brand: CardBrand; last4: string } | null = null;
  if (input.method.kind === "saved-card") {
    const card = UUID.test(input.method.cardId)
      ? await db
          .selectFrom("cards")
          .select(["id", "gateway_token as token", "brand", "last4"])
          .where("business_id", "=", actor.businessId)
          .where("account_id", "=", actor.accountId)
          .where("id", "=", input.method.cardId)
          .where("removed_at", "is", null)
          .executeTakeFirst()
      : undefined;
    if (!card) return { kind: "invalid", problem: "card" };
    savedCard = card;
    brand = card.brand;
  } else if (input.method.kind === "new-card") {
    brand = detectBrand(input.method.card.cardNumber);
    if (!brand) return { kind: "invalid", problem: "card" };
  }
  const hash = requestHash(actor, input.selection, input.method, input.note, brand);
  const seen = await findByGuid(db, actor.businessId, input.requestGuid);
  if (seen) return answerRepeat(db, actor, input.requestGuid, hash);

  // After the repeat check: a repeat answers the first result even if the agreement has changed since.
  let agreement: { id: string; providerAgreementId: string; maxCents: number } | null = null;
  if (input.method.kind === "payto") {
    const found = await checkPayToAgreement(actor, input.method.agreementId);
    if (found.kind !== "ok") return { kind: "invalid", problem: found.kind };
    agreement = found.agreement;
  }

  const rules = await getFeeRules(actor.businessId);
  const amounts = Object.fromEntries(input.selection.map((s) => [s.invoiceId, s.amountCents]));
  const method = brand ? ({ kind: "card", brand } as const) : ({ kind: "payto" } as const);

  // Claim the guid and reserve the balances, or learn that someone else did.
  const claim = await db.transaction().execute(async (tx) => {
    const invoices = await payableInvoices(tx, actor, ids, true);
    // With the invoices locked, a submission of this guid that got here first is visible
    // (its payment committed before our lock was granted): answer as a repeat, before its
    // reservation makes the balance look spent.
    if (await findByGuid(tx, actor.businessId, input.requestGuid)) return { repeat: true as const };
    if (invoices.length !== ids.length) return { invalid: "invoice" as const };
    if (invoices.some((invoice) => amounts[invoice.id]! > invoice.availableCents || amounts[invoice.id]! < 1)) {
      return { invalid: "amount" as const };
    }
    const breakdown: PaymentBreakdown = computePayment(
      invoices.map((i) => ({ orderId: i.id, balanceCents: i.balanceCents, dueDate: i.dueDate })),
      amounts,
      input.method.kind === "promise" ? { kind: "payto" } : method,
      input.method.kind === "promise" ? { ...rules, surcharge: {} } : rules,
      input.today,
    );
    if (input.expectedAmountCents !== undefined && input.expectedAmountCents !== breakdown.amount)
      return { invalid: "amount" as const };
    if (agreement && breakdown.amount > agreement.maxCents) return { invalid: "limit" as const };
    const inserted = await tx
      .insertInto("payments")
      .values({
        business_id: actor.businessId,
        account_id: actor.accountId,
        request_guid: input.requestGuid,
        request_hash: hash,
        reference: newReference(),
        method: input.method.kind === "promise" ? "promise" : agreement ? "payto" : "card",
        card_id: savedCard?.id ?? null,
        payto_agreement_id: agreement?.id ?? null,
        status: input.method.kind === "promise" ? "promised" : "pending",
        currency: input.currency,
        amount_cents: breakdown.amount,
        subtotal_cents: breakdown.subTotal,
        merchant_fee_cents: breakdown.merchantFeeComponent,
        late_fee_cents: breakdown.totalLateFee,
        discount_cents: breakdown.totalDiscount,
        note: input.note,
        promise_date: input.method.kind === "promise" ? input.method.promiseDate : null,
        card_brand: brand,
        card_last4:
          savedCard?.last4 ?? (input.method.kind === "new-card" ? input.method.card.cardNumber.slice(-4) : null),
        created_by: actor.contactId,
        completed_at: input.method.kind === "promise" ? new Date() : null,
      })
      .onConflict((oc) => oc.columns(["business_id", "request_guid"]).doNothing())
      .returning(["id", "reference"])
      .executeTakeFirst();
    if (!inserted) return { repeat: true as const };
    await tx
      .insertInto("payment_allocations")
      .values(
        breakdown.orders.map((order) => ({
          payment_id: inserted.id,
          invoice_id: order.orderId,
          business_id: actor.businessId,
          amount_cents: order.paymentAmount,
          discount_cents: order.discount,
          late_fee_cents: order.lateFee,
          balance_before_cents: order.balanceTotal,
        })),
      )
      .execute();
    if (input.method.kind === "promise") {
      // Spec §3: the invoice moves to Promise (7) with the promised date; money moves later.
      await tx
        .updateTable("invoices")
        .set({ status: 7, promise_date: input.method.promiseDate })
        .where("business_id", "=", actor.businessId)
        .where("id", "in", ids)
        .execute();
    }
    return { paymentId: inserted.id, reference: inserted.reference, breakdown };
  });
  if ("repeat" in claim) return answerRepeat(db, actor, input.requestGuid, hash);
  if ("invalid" in claim) return { kind: "invalid", problem: claim.invalid! };
  if (input.method.kind === "promise") {
    await audit({
      businessId: actor.businessId,
      contactId: actor.contactId,
      action: "payment.promised",
      clientIp: actor.clientIp,
      details: { paymentId: claim.paymentId },
    });
    return { kind: "promised", paymentId: claim.paymentId, reference: claim.reference };
  }
  if (agreement) {
    await initiatePayToPayment({
      paymentId: claim.paymentId,
      businessId: actor.businessId,
      providerAgreementId: agreement.providerAgreementId,
      amountCents: claim.breakdown.amount,
      currency: input.currency,
      idempotencyKey: gatewayKey(actor.businessId, input.requestGuid),
      reference: claim.reference,
    });
    const final = await db
      .selectFrom("payments")
      .select(STORED)
      .where("id", "=", claim.paymentId)
      .executeTakeFirstOrThrow();
    await audit({
      businessId: actor.businessId,
      contactId: actor.contactId,
      action: `payment.payto.${final.status}`,
      clientIp: actor.clientIp,
      details: { paymentId: final.id, reference: final.reference, amountCents: claim.breakdown.amount },
    });
    return outcomeOf(final);
  }

  // A token for the card: the saved one, or the new card's (saved for later if asked).
  let token = savedCard?.token ?? null;
  if (input.method.kind === "new-card") {
    const card = input.method.card;
    try {
      if (card.save) {
        const saved = await saveCard(actor, { ...card, makeDefault: false }, context);
        if (!saved.ok) return fail(claim.paymentId, saved.refusal === "limit" ? "declined" : saved.refusal);
        const row = await db
          .selectFrom("cards")
          .select(["gateway_token", "id"])
          .where("id", "=", saved.card.cardId)
          .executeTakeFirstOrThrow();
        token = row.gateway_token;
        await db.updateTable("payments").set({ card_id: row.id }).where("id", "=", claim.paymentId).execute();
      } else {
        const tokenised = await getCardGateway().tokenise({ ...context, ...card });
        if (!tokenised.ok) return fail(claim.paymentId, tokenised.refusal);
        token = tokenised.value.token;
      }
    } catch (error) {
      if (!(error instanceof GatewayTimeoutError)) logger.error("card tokenise failed", { error });
      return fail(claim.paymentId, "unavailable");
    }
  }

  try {
    const charged = await getCardGateway().charge({
      ...context,
      token: token!,
      amountCents: claim.breakdown.amount,
      currency: input.currency,
      idempotencyKey: gatewayKey(actor.businessId, input.requestGuid),
    });
    if (!charged.ok) return fail(claim.paymentId, charged.refusal);
    await settle(claim.paymentId, charged.value);
  } catch (error) {
    if (!(error instanceof GatewayTimeoutError))
      logger.error("card charge failed", { error, paymentId: claim.paymentId });
    // We do not know whether money moved: ask the gateway by our key, now and later.
    await db
      .updateTable("payments")
      .set({ status: "unknown" })
      .where("id", "=", claim.paymentId)
      .where("status", "=", "pending")
      .execute();
    await reconcilePayment(claim.paymentId);
  }
  const final = await db
    .selectFrom("payments")
    .select(STORED)
    .where("id", "=", claim.paymentId)
    .executeTakeFirstOrThrow();
  if (final.status === "succeeded") {
    await audit({
      businessId: actor.businessId,
      contactId: actor.contactId,
      action: "payment.succeeded",
      clientIp: actor.clientIp,
      details: { paymentId: final.id, reference: final.reference, amountCents: claim.breakdown.amount },
    });
  }
  return outcomeOf(final);
}

/**
 * The PayTo agreement a payment may be pulled under: this account's and this business's, and
 * ACTIVE with the provider's id (pending, suspended and ended ones are refused). Its limit is
 * the smaller of the agreement's own and the business's current PayTo maximum.
 */
export async function checkPayToAgreement(actor: Actor, agreementId: string) {
  const db = await getDb();
  const config = await getPayToConfiguration(actor.businessId);
  if (!config.enabled) return { kind: "method" as const };
  const row = UUID.test(agreementId)
    ? await db
        .selectFrom("payto_agreements")
        .select(["id", "status", "provider_agreement_id as providerAgreementId", "max_amount_cents as maxCents"])
        .where("business_id", "=", actor.businessId)
        .where("account_id", "=", actor.accountId)
        .where("id", "=", agreementId)
        .executeTakeFirst()
    : undefined;
  if (!row) return { kind: "agreement" as const };
  if (row.status !== "ACTIVE" || !row.providerAgreementId) return { kind: "agreementInactive" as const };
  return {
    kind: "ok" as const,
    agreement: {
      id: row.id,
      providerAgreementId: row.providerAgreementId,
      maxCents: Math.min(Number(row.maxCents), config.maxPaymentCents),
    },
  };
}

/** Our idempotency key at the gateway and the PayTo provider: one payment per business and guid. */
export const gatewayKey = (businessId: string, requestGuid: string) => `${businessId}:${requestGuid}`;

/**
 * Fails a payment that has not finished, releasing its reservation. True only for the call
 * that failed it (the status guard), so a rejection is recorded once however often it arrives.
 */
export async function failPayment(paymentId: string, reason: string): Promise<boolean> {
  const db = await getDb();
  const updated = await db
    .updateTable("payments")
    .set({ status: "failed", failure_code: reason, completed_at: new Date() })
    .where("id", "=", paymentId)
    .where("status", "in", RESERVING_STATUSES)
    .returning("id")
    .executeTakeFirst();
  return updated !== undefined;
}

async function fail(paymentId: string, refusal: GatewayRefusal): Promise<PaymentOutcome> {
  await failPayment(paymentId, refusal);
  const db = await getDb();
  const payment = await db.selectFrom("payments").select(STORED).where("id", "=", paymentId).executeTakeFirstOrThrow();
  return outcomeOf(payment);
}

/**
 * Records a captured charge: the payment succeeds and, in the same transaction, each invoice's
 * balance falls by its allocation (Closed at zero) and the statement gets the payment, any
 * fees and any discount. Runs at most once per payment (the status guard).
 */
async function settle(paymentId: string, charge: GatewayCharge) {
  await settlePayment(paymentId, { gateway_charge_id: charge.chargeId });
}

/**
 * Settles a card charge or a PayTo payment (the provider's payment id). True only for the
 * call that settled it: the caller that gets true sends the receipt, so it goes once.
 */
export async function settlePayment(
  paymentId: string,
  ids: { gateway_charge_id: string } | { provider_payment_id: string },
): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const payment = await tx
      .updateTable("payments")
      .set({ status: "succeeded", ...ids, completed_at: new Date(), failure_code: null })
      .where("id", "=", paymentId)
      .where("status", "in", RESERVING_STATUSES)
      .returningAll()
      .executeTakeFirst();
    if (!payment) return false;
    await applySettlement(tx, payment, await allocationsOf(tx, paymentId), 0);
    return true;
  });
}

type SettledPayment = {
  id: string;
  business_id: string;
  account_id: string;
  reference: string;
  method: string;
  amount_cents: number;
  merchant_fee_cents: number;
  late_fee_cents: number;
  discount_cents: number;
  card_brand: string | null;
  card_last4: string | null;
};

type Allocation = { invoice_id: string; amount_cents: number; late_fee_cents: number; discount_cents: number };

/** A payment's allocations in invoice id order: the order the claim locks invoices in. */
const allocationsOf = (tx: Db, paymentId: string): Promise<Allocation[]> =>
  tx
    .selectFrom("payment_allocations")
    .select(["invoice_id", "amount_cents", "late_fee_cents", "discount_cents"])
    .where("payment_id", "=", paymentId)
    .orderBy("invoice_id")
    .execute();

/**
 * Moves the money of a payment now marked succeeded: each allocation's invoice balance falls
 * (Closed at zero), in invoice id order like the claim's locks, so two settlements and a claim
 * of the same invoices cannot wait on each other in a cycle; the statement gets the payment,
 * its fees and discount, and `unappliedCents` (money received that paid no invoice) as credit.
 */
async function applySettlement(tx: Db, payment: SettledPayment, allocations: Allocation[], unappliedCents: number) {
  const sorted = [...allocations].sort((a, b) =>
    a.invoice_id < b.invoice_id ? -1 : a.invoice_id > b.invoice_id ? 1 : 0,
  );
  for (const allocation of sorted) {
    await tx
      .updateTable("invoices")
      .set({
        balance_cents: sql`balance_cents - ${allocation.amount_cents}`,
        status: sql`CASE WHEN balance_cents - ${allocation.amount_cents} = 0 THEN 2 WHEN status IN (7, 8) THEN (CASE WHEN due_date < current_date THEN 3 ELSE 1 END) ELSE status END`,
        promise_date: sql`CASE WHEN balance_cents - ${allocation.amount_cents} = 0 THEN NULL ELSE promise_date END`,
      })
      .where("id", "=", allocation.invoice_id)
      .where("business_id", "=", payment.business_id)
      .execute();
  }
  const day = new Date().toISOString().slice(0, 10);
  const line = (
    type: StatementLinesTable["type"],
    description: string,
    debit: number,
    credit: number,
  ): Insertable<StatementLinesTable> => ({
    business_id: payment.business_id,
    account_id: payment.account_id,
    line_date: day,
    type,
    reference: payment.reference,
    description,
    debit_cents: debit,
    credit_cents: credit,
    invoice_id: null,
  });
  const card = `${payment.card_brand ?? ""} ${payment.card_last4 ?? ""}`.trim();
  const payto = payment.method === "payto";
  // The statement nets to the invoices' fall in balance (paid − fees + discount = subtotal),
  // plus any money kept as credit.
  const paid = payment.amount_cents - unappliedCents;
  const lines: Insertable<StatementLinesTable>[] = [];
  if (paid > 0) lines.push(line("payment", payto ? "PayTo payment" : `Card payment ${card}`.trim(), 0, paid));
  const fees = payment.merchant_fee_cents + payment.late_fee_cents;
  // PayTo has no surcharge (spec §9): its only fees are late fees.
  if (fees > 0) lines.push(line("fee", payto ? "Late fees" : "Card surcharge and late fees", fees, 0));
  if (payment.discount_cents > 0) lines.push(line("credit", "Early-payment discount", 0, payment.discount_cents));
  if (unappliedCents > 0) lines.push(line("credit", "Unapplied PayTo payment", 0, unappliedCents));
  if (lines.length > 0) await tx.insertInto("statement_lines").values(lines).execute();
}

export type LateSettlement =
  | { kind: "settled" }
  | { kind: "credited"; creditCents: number; unapplied: { invoiceId: string; amountCents: number }[] };

/**
 * The provider settled a PayTo payment we had already failed (decision 029 "Settled after we
 * failed it"): the money moved, so it must be recorded. With the invoices locked (id order),
 * each allocation is applied in full if its invoice is still payable with that much balance
 * free of other payments' reservations; the rest is not applied (its allocation is removed)
 * and its money is kept on the account as an "Unapplied PayTo payment" credit. Null when the
 * payment is not a failed PayTo payment (another call got there first).
 */
export async function settleFailedPayToPayment(
  paymentId: string,
  providerPaymentId: string,
): Promise<LateSettlement | null> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const held = await tx
      .selectFrom("payments")
      .select(["id", "business_id"])
      .where("id", "=", paymentId)
      .where("method", "=", "payto")
      .where("status", "=", "failed")
      .forUpdate()
      .executeTakeFirst();
    if (!held) return null;
    const allocations = await allocationsOf(tx, paymentId);
    const ids = allocations.map((a) => a.invoice_id);
    const invoices =
      ids.length === 0
        ? []
        : await tx
            .selectFrom("invoices")
            .select(["id", "balance_cents", "status"])
            .where("business_id", "=", held.business_id)
            .where("id", "in", ids)
            .orderBy("id")
            .forUpdate()
            .execute();
    // Read after the lock, in a new statement: what other unsettled payments hold now.
    const reserved =
      ids.length === 0
        ? []
        : await tx
            .selectFrom("payment_allocations as a")
            .innerJoin("payments as p", "p.id", "a.payment_id")
            .select(["a.invoice_id as invoiceId", (eb) => eb.fn.sum<number>("a.amount_cents").as("cents")])
            .where("a.business_id", "=", held.business_id)
            .where("a.invoice_id", "in", ids)
            .where("p.status", "in", RESERVING_STATUSES)
            .groupBy("a.invoice_id")
            .execute();
    const reservedOf = new Map(reserved.map((r) => [r.invoiceId, Number(r.cents)]));
    const fits = (allocation: Allocation) => {
      const invoice = invoices.find((i) => i.id === allocation.invoice_id);
      return (
        invoice !== undefined &&
        (PAYABLE_STATUSES as readonly number[]).includes(invoice.status) &&
        invoice.balance_cents - (reservedOf.get(invoice.id) ?? 0) >= allocation.amount_cents
      );
    };
    const applied = allocations.filter(fits);
    const unapplied = allocations.filter((a) => !fits(a));
    const sum = (list: Allocation[], pick: (a: Allocation) => number) => list.reduce((n, a) => n + pick(a), 0);
    if (unapplied.length > 0) {
      await tx
        .deleteFrom("payment_allocations")
        .where("payment_id", "=", paymentId)
        .where(
          "invoice_id",
          "in",
          unapplied.map((a) => a.invoice_id),
        )
        .execute();
    }
    // What the payment now says it paid: the applied allocations (the whole amount when all fit).
    const payment = await tx
      .updateTable("payments")
      .set({
        status: "succeeded",
        provider_payment_id: providerPaymentId,
        completed_at: new Date(),
        failure_code: null,
        subtotal_cents: sum(applied, (a) => a.amount_cents),
        late_fee_cents: sum(applied, (a) => a.late_fee_cents),
        discount_cents: sum(applied, (a) => a.discount_cents),
      })
      .where("id", "=", paymentId)
      .where("status", "=", "failed")
      .returningAll()
      .executeTakeFirstOrThrow();
    const appliedMoney = payment.subtotal_cents + payment.late_fee_cents - payment.discount_cents;
    const creditCents = payment.amount_cents - appliedMoney;
    await applySettlement(tx, payment, applied, creditCents);
    if (unapplied.length === 0) return { kind: "settled" as const };
    return {
      kind: "credited" as const,
      creditCents,
      unapplied: unapplied.map((a) => ({ invoiceId: a.invoice_id, amountCents: a.amount_cents })),
    };
  });
}

/**
 * Settles a payment whose outcome we do not know, by asking the gateway for the charge made
 * with our key. A captured charge is recorded once; a declined one fails the payment; no charge
 * at all fails it only once `graceMs` has passed (a request may still be on its way).
 */
export async function reconcilePayment(paymentId: string, options: { graceMs?: number } = {}) {
  const db = await getDb();
  const payment = await db
    .selectFrom("payments")
    .select(["id", "business_id", "request_guid", "status", "method", "created_at"])
    .where("id", "=", paymentId)
    .executeTakeFirst();
  if (!payment) return null;
  if ((RESERVING_STATUSES as string[]).includes(payment.status)) {
    // Asked now: the sweep's turn passes to the others (reconcileUnsettled's order).
    await db.updateTable("payments").set({ last_checked_at: new Date() }).where("id", "=", payment.id).execute();
  }
  // PayTo: the provider's record by our key, applied as a webhook would be; "submitted" waits.
  if (payment.method === "payto") return reconcilePayToPayment(payment, options.graceMs ?? 120_000);
  if (payment.status !== "unknown" && payment.status !== "pending") return payment.status;
  let charge: GatewayCharge | null;
  try {
    charge = await getCardGateway().findCharge(gatewayKey(payment.business_id, payment.request_guid));
  } catch (error) {
    logger.warn("reconcile: gateway lookup failed", { paymentId, error });
    return payment.status;
  }
  if (charge && (charge.status === "captured" || charge.status === "refunded")) {
    await settle(payment.id, charge);
    return "succeeded";
  }
  if (charge && charge.status === "declined") {
    await fail(payment.id, charge.declineCode ?? "declined");
    return "failed";
  }
  const age = Date.now() - new Date(payment.created_at).getTime();
  if (age > (options.graceMs ?? 120_000)) {
    await fail(payment.id, "unavailable");
    return "failed";
  }
  return payment.status;
}

/**
 * The reconciler's sweep: every payment left pending or unknown (or, PayTo, submitted and
 * waiting to settle) for longer than `olderThanMs`; `method` narrows it to one kind.
 */
export async function reconcileUnsettled(
  options: { olderThanMs?: number; graceMs?: number; limit?: number; method?: "card" | "payto" } = {},
) {
  const db = await getDb();
  const before = new Date(Date.now() - (options.olderThanMs ?? 30_000));
  let query = db
    .selectFrom("payments")
    .select("id")
    .where("status", "in", RESERVING_STATUSES)
    .where("created_at", "<", before);
  if (options.method) query = query.where("method", "=", options.method);
  // Never asked first, then the longest since asked, then the oldest: each run moves on, so a
  // backlog of long-lived submitted PayTo payments is worked through instead of re-asked.
  const rows = await query
    .orderBy(sql`last_checked_at NULLS FIRST`)
    .orderBy("created_at")
    .limit(options.limit ?? 100)
    .execute();
  const results: Record<string, number> = {};
  for (const row of rows) {
    const status = (await reconcilePayment(row.id, { graceMs: options.graceMs })) ?? "missing";
    results[status] = (results[status] ?? 0) + 1;
  }
  return results;
}

/** The pay page's invoices: payable ones of the account, in the order asked (or all owing), at most 50. */
export async function loadPayable(actor: Actor, invoiceIds: string[] | "all") {
  const db = await getDb();
  if (invoiceIds === "all") return payableInvoices(db, actor, "all");
  const ids = [...new Set(invoiceIds.filter((id) => UUID.test(id)))].slice(0, 50);
  const rows = await payableInvoices(db, actor, ids);
  return ids.map((id) => rows.find((row) => row.id === id)).filter((row) => row !== undefined);
}

/** The breakdown the pay page shows (and the total the customer is asked to confirm). */
export async function previewPayment(
  actor: Actor,
  invoices: { id: string; balanceCents: number; dueDate: string }[],
  amounts: Record<string, number>,
  method: { kind: "card"; brand: CardBrand } | { kind: "payto" } | { kind: "promise" },
  today: string,
  /** The business's rules when the caller has them already (with the host): one query fewer. */
  known?: FeeRules,
) {
  const rules = known ?? (await getFeeRules(actor.businessId));
  return computePayment(
    invoices.map((i) => ({ orderId: i.id, balanceCents: i.balanceCents, dueDate: i.dueDate })),
    amounts,
    method.kind === "promise" ? { kind: "payto" } : method,
    method.kind === "promise" ? { ...rules, surcharge: {} } : rules,
    today,
  );
}

/**
 * The payment already made with this guid on this account, if any: a repeated submission
 * (double click, reloaded POST, second tab) is answered with it before anything else is
 * checked, because the first one may have changed what is payable.
 */
export async function findPaymentByGuid(actor: Actor, requestGuid: string): Promise<PaymentOutcome | null> {
  if (!UUID.test(requestGuid)) return null;
  const db = await getDb();
  for (let attempt = 0; attempt < 40; attempt++) {
    const payment = await db
      .selectFrom("payments")
      .select(STORED)
      .where("business_id", "=", actor.businessId)
      .where("account_id", "=", actor.accountId)
      .where("request_guid", "=", requestGuid)
      .executeTakeFirst();
    if (!payment) return null;
    if (payment.status !== "pending") return outcomeOf(payment);
    // The first submission is still with the gateway: wait for its answer.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { kind: "pending", paymentId: "", reference: "" };
}

/**
 * The card reconciler's sweep: card payments only. PayTo payments have their own poller, and a
 * backlog of them submitted for days must not take the places of a card payment left unknown.
 * Promises are never swept (they are "promised", not unsettled).
 */
export const reconcileCardPayments = () => reconcileUnsettled({ method: "card" });

/**
 * The reconciler's timer: every `intervalMs`, settle payments left pending or unknown (a
 * crash or a lost answer between "charged" and "recorded"). Several portal processes may
 * each run one: a payment is settled or failed at most once (the status guard in each
 * write). The timer never keeps the process alive.
 */
export function startReconciler(intervalMs = 60_000, sweep: () => Promise<unknown> = reconcileCardPayments) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep()
      .catch((error: unknown) => logger.error("reconciler sweep failed", { error }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
