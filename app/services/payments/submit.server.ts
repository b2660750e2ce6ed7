import { createHash, randomBytes } from "node:crypto";
import { sql, type Insertable } from "kysely";
import { detectBrand } from "~/lib/card";
import {
  computeCreditPayment,
  computePayment,
  feeRulesFromRow,
  type FeeRules,
  type PaymentBreakdown,
} from "~/lib/payment-calc";
import type { CardBrand } from "~/lib/payment-method-types";
import { audit } from "../platform/audit.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { PaymentPurpose, PaymentStatus, StatementLinesTable } from "../platform/db-schema.server";
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
import { allocateInstalment } from "~/lib/instalment-allocation";
import {
  instalmentFailed,
  instalmentSettled,
  lockInstalmentForSettlement,
} from "../schedules/instalment-outcomes.server";
import { kickReceipt, queueReceipt } from "./receipts.server";
import { UUID } from "~/lib/ids";

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
      problem:
        | "invoice"
        | "amount"
        | "card"
        | "request"
        | "agreement"
        | "agreementInactive"
        | "limit"
        | "method"
        // A payment request (decision 032): paid, expired or cancelled; must be paid in full;
        // below its minimum part-payment; more than is left of it.
        | "requestClosed"
        | "fullPaymentRequired"
        | "belowMinimum"
        | "aboveRemaining"
        // Ad-hoc payments (decision 033): not taken by this business; below or above its limits.
        | "adhocDisabled"
        | "aboveMaximum"
        // An instalment (decision 035): not this account's, or not claimed for this attempt
        // (not processing under this requestGuid, or its schedule is not active or in arrears).
        | "instalment";
    };

/** Statuses an invoice can be paid in: Open, Overdue, Promise, Broken Promise (spec §3 codes). */
export const PAYABLE_STATUSES = [1, 3, 7, 8] as const;

/**
 * Payments that still hold their invoices' balances: not answered yet, answer lost, or (PayTo)
 * accepted by the provider and waiting to settle. A card payment of invoices a PayTo payment
 * is settling is refused until it settles or is rejected.
 */
const RESERVING_STATUSES: PaymentStatus[] = ["pending", "unknown", "submitted"];

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

function requestHash(
  actor: Actor,
  selection: PaySelection,
  method: PayMethod,
  note: string,
  brand: string | null,
  target: { paymentFor: PaymentFor; linkTokenId: string | null },
) {
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
  // Older payments were hashed without a target: an invoices payment keeps that shape.
  const extra =
    target.paymentFor.kind === "invoices" && target.linkTokenId === null
      ? {}
      : { for: target.paymentFor, link: target.linkTokenId };
  return sha256(JSON.stringify({ account: actor.accountId, selection: sorted, method: methodKey, note, ...extra }));
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

/**
 * What the money is for. invoices (the default): the selection. request: a payment request —
 * of invoices (the selection, a subset of the request's) or of a stated amount (`creditCents`,
 * no selection). adhoc: any amount the business allows, no invoices: credit on the account.
 */
export type PaymentFor =
  | { kind: "invoices" }
  | { kind: "request"; requestId: string; creditCents?: number }
  | { kind: "adhoc"; creditCents: number; payerReference: string }
  /**
   * One instalment of a payment schedule (decision 035), claimed for this requestGuid by
   * payInstalment: exactly its amount (a card's surcharge on top; no late fee, no discount),
   * allocated to the schedule's invoices oldest due first, the rest credit on the account.
   */
  | { kind: "instalment"; instalmentId: string };

const purposeOf = (paymentFor: PaymentFor, creditCents: number | null): PaymentPurpose =>
  paymentFor.kind === "instalment"
    ? "instalment"
    : paymentFor.kind === "adhoc"
      ? "adhoc"
      : paymentFor.kind === "request" && creditCents !== null
        ? "request"
        : "invoices";

type ClaimedInstalment = {
  id: string;
  scheduleId: string;
  amountCents: number;
  /** Processing, its schedule active or in arrears, under an attempt started with this guid. */
  claimed: boolean;
};

/**
 * Locks an instalment of this account for a payment — its schedule's row first, then its own
 * (the order every schedule change takes) — and says whether this requestGuid's attempt holds it.
 * Null for another account's or business's instalment.
 */
async function lockInstalment(
  tx: Db,
  actor: Actor,
  instalmentId: string,
  requestGuid: string,
): Promise<ClaimedInstalment | null> {
  const schedule = await tx
    .selectFrom("payment_schedules")
    .select(["id", "status"])
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("id", "=", (eb) =>
      eb.selectFrom("schedule_instalments").select("schedule_id").where("id", "=", instalmentId),
    )
    .forUpdate()
    .executeTakeFirst();
  if (!schedule) return null;
  const instalment = await tx
    .selectFrom("schedule_instalments")
    .select((eb) => [
      "id",
      "status",
      "amount_cents as amountCents",
      eb
        .exists(
          eb
            .selectFrom("instalment_attempts")
            .select("id")
            .whereRef("instalment_id", "=", "schedule_instalments.id")
            .where("business_id", "=", actor.businessId)
            .where("request_guid", "=", requestGuid)
            .where("outcome", "=", "started"),
        )
        .as("attemptStarted"),
    ])
    .where("id", "=", instalmentId)
    .where("business_id", "=", actor.businessId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return {
    id: instalment.id,
    scheduleId: schedule.id,
    amountCents: Number(instalment.amountCents),
    claimed:
      (schedule.status === "active" || schedule.status === "arrears") &&
      instalment.status === "processing" &&
      Boolean(instalment.attemptStarted),
  };
}

type LockedRequest = {
  id: string;
  kind: "invoices" | "amount";
  amountCents: number;
  paidCents: number;
  allowPartPayment: boolean;
  minPartPaymentCents: number | null;
  open: boolean;
};

/**
 * Locks a payment request of this account (FOR UPDATE) and says whether it takes money now:
 * not paid, not cancelled, not past its expiry (the database's clock, like every other "now"
 * in a transaction). Null for another account's or business's request.
 */
async function lockRequest(tx: Db, actor: Actor, requestId: string): Promise<LockedRequest | null> {
  const row = await tx
    .selectFrom("payment_requests")
    .select((eb) => [
      "id",
      "kind",
      "amount_cents as amountCents",
      "paid_cents as paidCents",
      "allow_part_payment as allowPartPayment",
      "min_part_payment_cents as minPartPaymentCents",
      eb.and([eb("status", "in", ["created", "sent"]), eb("expires_at", ">", sql<Date>`now()`)]).as("open"),
    ])
    .where("id", "=", requestId)
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...row,
    amountCents: Number(row.amountCents),
    paidCents: Number(row.paidCents),
    minPartPaymentCents: row.minPartPaymentCents === null ? null : Number(row.minPartPaymentCents),
    open: Boolean(row.open),
  };
}

/** What in-flight payments (pending, unknown, submitted) hold of a stated-amount request. */
async function reservedOfRequest(tx: Db, requestId: string): Promise<number> {
  const row = await tx
    .selectFrom("payments")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("subtotal_cents"), eb.lit(0)).as("cents"))
    .where("payment_request_id", "=", requestId)
    .where("status", "in", RESERVING_STATUSES)
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}

/**
 * A request's rules for one payment of `subTotal` when `remaining` is left (decision 032):
 * closed requests take nothing; never more than is left; in full unless part-payment is
 * allowed; a part-payment at least the minimum, unless it pays what is left.
 */
function requestProblem(request: LockedRequest, subTotal: number, remaining: number) {
  if (!request.open || remaining <= 0) return "requestClosed" as const;
  if (subTotal > remaining) return "aboveRemaining" as const;
  if (subTotal === remaining) return null;
  if (!request.allowPartPayment) return "fullPaymentRequired" as const;
  if (request.minPartPaymentCents !== null && subTotal < request.minPartPaymentCents) return "belowMinimum" as const;
  return null;
}

/** Ad-hoc payments (decision 033): only where the business takes them, within its limits. */
async function adhocProblem(tx: Db, businessId: string, subTotal: number) {
  const settings = await tx
    .selectFrom("adhoc_settings")
    .select(["enabled", "min_cents as minCents", "max_cents as maxCents"])
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  if (!settings?.enabled) return "adhocDisabled" as const;
  if (subTotal < Number(settings.minCents)) return "belowMinimum" as const;
  if (subTotal > Number(settings.maxCents)) return "aboveMaximum" as const;
  return null;
}

/**
 * What a request makes of a payment of `subTotal`, for the pages: the same rules as at submit,
 * so the page and the engine never disagree about a minimum or a remainder.
 */
export function requestAmountProblem(
  request: Omit<LockedRequest, "id" | "kind" | "amountCents" | "paidCents">,
  subTotal: number,
  remaining: number,
) {
  return requestProblem({ ...request, id: "", kind: "amount", amountCents: 0, paidCents: 0 }, subTotal, remaining);
}

export type SubmitPaymentInput = {
  requestGuid: string;
  selection: PaySelection;
  /** Default: the invoices of the selection. */
  paymentFor?: PaymentFor;
  /** The emailed link the payment is made from (decision 031): its payer's receipt follows it. */
  linkTokenId?: string;
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
  const paymentFor: PaymentFor = input.paymentFor ?? { kind: "invoices" };
  const creditCents =
    paymentFor.kind === "adhoc" || paymentFor.kind === "request" ? (paymentFor.creditCents ?? null) : null;
  const ids = input.selection.map((s) => s.invoiceId);
  if (paymentFor.kind === "instalment") {
    if (ids.length > 0) return { kind: "invalid", problem: "invoice" };
    if (!UUID.test(paymentFor.instalmentId)) return { kind: "invalid", problem: "instalment" };
  } else if (creditCents !== null) {
    // Money that pays no invoice: no selection, and a whole number of cents.
    if (ids.length > 0) return { kind: "invalid", problem: "invoice" };
    if (!Number.isSafeInteger(creditCents) || creditCents < 1) return { kind: "invalid", problem: "amount" };
  } else if (ids.length === 0 || new Set(ids).size !== ids.length) return { kind: "invalid", problem: "invoice" };
  // A promise moves no money: there is nothing to promise on a request or an ad-hoc payment.
  if (paymentFor.kind !== "invoices" && input.method.kind === "promise") return { kind: "invalid", problem: "method" };
  if (paymentFor.kind === "request" && !UUID.test(paymentFor.requestId))
    return { kind: "invalid", problem: "requestClosed" };
  // Up to 80 characters as PostgreSQL counts them (code points: `u`), so 80 emoji fit as the column allows.
  if (paymentFor.kind === "adhoc" && !/^[^\x00-\x1f\x7f]{1,80}$/u.test(paymentFor.payerReference))
    return { kind: "invalid", problem: "amount" };
  if (input.linkTokenId !== undefined && !UUID.test(input.linkTokenId)) return { kind: "invalid", problem: "request" };
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
  const hash = requestHash(actor, input.selection, input.method, input.note, brand, {
    paymentFor,
    linkTokenId: input.linkTokenId ?? null,
  });
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
    // A payment request is locked before its invoices (settlements take them in the same
    // order), so two payments of one request are checked against its remainder one at a time.
    const request = paymentFor.kind === "request" ? await lockRequest(tx, actor, paymentFor.requestId) : null;
    if (paymentFor.kind === "request" && !request) return { invalid: "requestClosed" as const };
    // An instalment: its schedule and itself, then the schedule's invoices (all of them: the
    // money goes to the oldest due first).
    const instalment =
      paymentFor.kind === "instalment"
        ? await lockInstalment(tx, actor, paymentFor.instalmentId, input.requestGuid)
        : null;
    if (paymentFor.kind === "instalment" && !instalment) return { invalid: "instalment" as const };
    const scheduleInvoiceIds = instalment
      ? (
          await tx
            .selectFrom("payment_schedule_invoices")
            .select("invoice_id")
            .where("schedule_id", "=", instalment.scheduleId)
            .where("business_id", "=", actor.businessId)
            .execute()
        ).map((row) => row.invoice_id)
      : [];
    const requestInvoices =
      request?.kind === "invoices"
        ? await tx
            .selectFrom("payment_request_invoices")
            .select(["invoice_id as invoiceId", "amount_cents as amountCents"])
            .where("request_id", "=", request.id)
            .where("business_id", "=", actor.businessId)
            .execute()
        : [];
    // For a request of invoices, all of its invoices are locked: its remainder needs them all.
    const lockIds =
      request?.kind === "invoices" ? requestInvoices.map((r) => r.invoiceId) : instalment ? scheduleInvoiceIds : ids;
    const locked = lockIds.length > 0 ? await payableInvoices(tx, actor, lockIds, true) : [];
    // With the invoices locked, a submission of this guid that got here first is visible
    // (its payment committed before our lock was granted): answer as a repeat, before its
    // reservation makes the balance look spent.
    if (await findByGuid(tx, actor.businessId, input.requestGuid)) return { repeat: true as const };
    // A closed request says so, whatever became of its invoices since; so does a request of
    // invoices none of which can be paid now (paid some other way, or on hold).
    if (request && !request.open) return { invalid: "requestClosed" as const };
    if (request?.kind === "invoices" && locked.length === 0) return { invalid: "requestClosed" as const };
    if (instalment && !instalment.claimed) return { invalid: "instalment" as const };
    const invoices = locked.filter((invoice) => ids.includes(invoice.id));
    if (invoices.length !== ids.length) return { invalid: "invoice" as const };
    // What a request still lets this payment take of each invoice: what it asked for, at most
    // what is left to pay now.
    const asked = new Map(requestInvoices.map((r) => [r.invoiceId, Number(r.amountCents)]));
    const payableOf = (invoice: { id: string; availableCents: number }) =>
      request ? Math.min(asked.get(invoice.id) ?? 0, invoice.availableCents) : invoice.availableCents;
    if (invoices.some((invoice) => amounts[invoice.id]! > payableOf(invoice) || amounts[invoice.id]! < 1)) {
      return { invalid: request ? ("aboveRemaining" as const) : ("amount" as const) };
    }
    // An instalment's money: the schedule's invoices oldest due first, the rest account credit.
    const instalmentSplit = instalment ? allocateInstalment(instalment.amountCents, locked) : null;
    const breakdown: PaymentBreakdown = instalment
      ? computeCreditPayment(instalment.amountCents, method, rules)
      : creditCents !== null
        ? computeCreditPayment(creditCents, method, rules)
        : computePayment(
            invoices.map((i) => ({ orderId: i.id, balanceCents: i.balanceCents, dueDate: i.dueDate })),
            amounts,
            input.method.kind === "promise" ? { kind: "payto" } : method,
            input.method.kind === "promise" ? { ...rules, surcharge: {} } : rules,
            input.today,
          );
    if (request) {
      const remaining =
        request.kind === "invoices"
          ? locked.reduce((sum, invoice) => sum + payableOf(invoice), 0)
          : request.amountCents - request.paidCents - (await reservedOfRequest(tx, request.id));
      const problem = requestProblem(request, breakdown.subTotal, remaining);
      if (problem) return { invalid: problem };
    }
    if (paymentFor.kind === "adhoc") {
      const problem = await adhocProblem(tx, actor.businessId, breakdown.subTotal);
      if (problem) return { invalid: problem };
    }
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
        purpose: purposeOf(paymentFor, creditCents),
        schedule_instalment_id: instalment?.id ?? null,
        payment_request_id: request?.id ?? null,
        link_token_id: input.linkTokenId ?? null,
        payer_reference: paymentFor.kind === "adhoc" ? paymentFor.payerReference : null,
      })
      .onConflict((oc) => oc.columns(["business_id", "request_guid"]).doNothing())
      .returning(["id", "reference"])
      .executeTakeFirst();
    if (!inserted) return { repeat: true as const };
    if (instalment && instalmentSplit) {
      if (instalmentSplit.allocations.length > 0)
        await tx
          .insertInto("payment_allocations")
          .values(
            instalmentSplit.allocations.map((allocation) => ({
              payment_id: inserted.id,
              invoice_id: allocation.invoiceId,
              business_id: actor.businessId,
              amount_cents: allocation.amountCents,
              discount_cents: 0,
              late_fee_cents: 0,
              balance_before_cents: allocation.balanceBeforeCents,
            })),
          )
          .execute();
      // The attempt names its payment from the start (the runner finishes it from there).
      await tx
        .updateTable("instalment_attempts")
        .set({ payment_id: inserted.id })
        .where("business_id", "=", actor.businessId)
        .where("request_guid", "=", input.requestGuid)
        .execute();
    }
    if (breakdown.orders.length > 0)
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
    // A promise is finished when it is written: its receipt with it (decision 044).
    const receipt = input.method.kind === "promise" ? await queueReceipt(tx, actor.businessId, inserted.id) : null;
    return { paymentId: inserted.id, reference: inserted.reference, breakdown, receipt };
  });
  if ("repeat" in claim) return answerRepeat(db, actor, input.requestGuid, hash);
  if ("invalid" in claim) return { kind: "invalid", problem: claim.invalid! };
  if (input.method.kind === "promise") {
    await kickReceipt(claim.receipt);
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
  return db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable("payments")
      .set({ status: "failed", failure_code: reason, completed_at: new Date() })
      .where("id", "=", paymentId)
      .where("status", "in", RESERVING_STATUSES)
      .returning(["id", "business_id", "request_guid", "schedule_instalment_id"])
      .executeTakeFirst();
    if (!updated) return false;
    // An instalment's try: its instalment and schedule move in this transaction (decision 035).
    const instalment = await lockInstalmentForSettlement(tx, updated.business_id, updated.schedule_instalment_id);
    if (instalment) await instalmentFailed(tx, updated, instalment, reason);
    return true;
  });
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
  const settled = await db.transaction().execute(async (tx) => {
    const payment = await tx
      .updateTable("payments")
      .set({ status: "succeeded", ...ids, completed_at: new Date(), failure_code: null })
      .where("id", "=", paymentId)
      .where("status", "in", RESERVING_STATUSES)
      .returningAll()
      .executeTakeFirst();
    if (!payment) return null;
    // The request or the instalment (if any) before the invoices: the order a claim takes them in.
    await lockRequestForSettlement(tx, payment.payment_request_id);
    const instalment = await lockInstalmentForSettlement(tx, payment.business_id, payment.schedule_instalment_id);
    await applySettlement(tx, payment, await allocationsOf(tx, paymentId), 0);
    if (instalment) await instalmentSettled(tx, payment, instalment);
    // The receipt is written with the success it reports (decision 044); an instalment's goes
    // through its own email job (decision 035), which writes the same key.
    return { receipt: instalment ? null : await queueReceipt(tx, payment.business_id, payment.id) };
  });
  if (!settled) return false;
  await kickReceipt(settled.receipt);
  return true;
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
  purpose: PaymentPurpose;
  subtotal_cents: number;
  payment_request_id: string | null;
  payer_reference: string | null;
  note: string;
};

/** Locks a settling payment's request, if it has one, before any of its invoices. */
async function lockRequestForSettlement(tx: Db, requestId: string | null) {
  if (!requestId) return;
  await tx.selectFrom("payment_requests").select("id").where("id", "=", requestId).forUpdate().execute();
}

/**
 * A settled payment counts towards its request: paid_cents grows by what it paid (its
 * invoices' share, or the stated amount), never beyond the amount asked — a PayTo payment
 * settled after we had failed it may arrive when the request was paid another way, and the
 * money is then credit on the account, not more paid on the request. The request becomes paid
 * once nothing it asked for is still owing (a request of invoices: each invoice's balance, at
 * most what was asked of it).
 */
async function countTowardsRequest(tx: Db, payment: SettledPayment, appliedCents: number) {
  if (!payment.payment_request_id || appliedCents <= 0) return;
  const request = await tx
    .updateTable("payment_requests")
    .set({ paid_cents: sql`paid_cents + least(${appliedCents}::bigint, greatest(amount_cents - paid_cents, 0))` })
    .where("id", "=", payment.payment_request_id)
    .returning(["id", "kind", "amount_cents", "paid_cents", "status"])
    .executeTakeFirst();
  if (!request || (request.status !== "created" && request.status !== "sent")) return;
  let remaining: number;
  if (request.kind === "amount") remaining = Number(request.amount_cents) - Number(request.paid_cents);
  else {
    const row = await tx
      .selectFrom("payment_request_invoices as ri")
      .innerJoin("invoices as i", "i.id", "ri.invoice_id")
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<number>(sql<number>`least(ri.amount_cents, i.balance_cents)`), eb.lit(0)).as("owing"),
      )
      .where("ri.request_id", "=", request.id)
      .executeTakeFirstOrThrow();
    remaining = Number(row.owing);
  }
  if (remaining <= 0) {
    await tx
      .updateTable("payment_requests")
      .set({ status: "paid", paid_at: new Date() })
      .where("id", "=", request.id)
      .execute();
  }
}

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
  if (payment.purpose !== "invoices") {
    // Money that paid no invoice (ad hoc, a stated-amount request): all of it is credit on
    // the account, less any card surcharge, which the statement shows as its own line.
    // An instalment's part that paid invoices is in the allocations applied above; the line
    // carries all of it, so whatever no invoice took is credit on the account.
    const what =
      payment.purpose === "adhoc"
        ? `Payment: ${payment.payer_reference ?? ""}`.trim()
        : payment.purpose === "instalment"
          ? payment.note || "Instalment"
          : "Payment request";
    const lines = [line("payment", `${what} (${payto ? "PayTo" : `card ${card}`.trim()})`, 0, payment.amount_cents)];
    if (payment.merchant_fee_cents > 0) lines.push(line("fee", "Card surcharge", payment.merchant_fee_cents, 0));
    await tx.insertInto("statement_lines").values(lines).execute();
    await countTowardsRequest(tx, payment, payment.subtotal_cents);
    return;
  }
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
  await countTowardsRequest(
    tx,
    payment,
    allocations.reduce((sum, a) => sum + a.amount_cents, 0),
  );
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
  const late = await db.transaction().execute(async (tx) => {
    const held = await tx
      .selectFrom("payments")
      .select(["id", "business_id", "purpose", "payment_request_id", "schedule_instalment_id"])
      .where("id", "=", paymentId)
      .where("method", "=", "payto")
      .where("status", "=", "failed")
      .forUpdate()
      .executeTakeFirst();
    if (!held) return null;
    await lockRequestForSettlement(tx, held.payment_request_id);
    const instalment = await lockInstalmentForSettlement(tx, held.business_id, held.schedule_instalment_id);
    if (held.purpose === "adhoc" || held.purpose === "request") {
      // It paid no invoice: the money is credit on the account, whenever it arrives.
      const payment = await tx
        .updateTable("payments")
        .set({
          status: "succeeded",
          provider_payment_id: providerPaymentId,
          completed_at: new Date(),
          failure_code: null,
        })
        .where("id", "=", paymentId)
        .where("status", "=", "failed")
        .returningAll()
        .executeTakeFirstOrThrow();
      await applySettlement(tx, payment, [], 0);
      return { kind: "settled" as const, receipt: await queueReceipt(tx, payment.business_id, payment.id) };
    }
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
    // An instalment keeps its amount: what no invoice takes is credit on the account anyway.
    const payment = await tx
      .updateTable("payments")
      .set({
        status: "succeeded",
        provider_payment_id: providerPaymentId,
        completed_at: new Date(),
        failure_code: null,
        ...(instalment
          ? {}
          : {
              subtotal_cents: sum(applied, (a) => a.amount_cents),
              late_fee_cents: sum(applied, (a) => a.late_fee_cents),
              discount_cents: sum(applied, (a) => a.discount_cents),
            }),
      })
      .where("id", "=", paymentId)
      .where("status", "=", "failed")
      .returningAll()
      .executeTakeFirstOrThrow();
    const appliedMoney = instalment
      ? sum(applied, (a) => a.amount_cents)
      : payment.subtotal_cents + payment.late_fee_cents - payment.discount_cents;
    const creditCents = payment.amount_cents - payment.merchant_fee_cents * (instalment ? 1 : 0) - appliedMoney;
    await applySettlement(tx, payment, applied, instalment ? 0 : creditCents);
    if (instalment) await instalmentSettled(tx, payment, instalment);
    if (unapplied.length === 0) {
      return {
        kind: "settled" as const,
        receipt: instalment ? null : await queueReceipt(tx, payment.business_id, payment.id),
      };
    }
    return {
      kind: "credited" as const,
      creditCents,
      unapplied: unapplied.map((a) => ({ invoiceId: a.invoice_id, amountCents: a.amount_cents })),
    };
  });
  if (late?.kind === "settled") {
    await kickReceipt(late.receipt);
    return { kind: "settled" };
  }
  return late;
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
 * Promises are never swept (they are "promised", not unsettled). Run as the `payment-reconcile`
 * job, once per RECONCILE_EVERY_MS across processes (decision 043): a payment is settled or
 * failed at most once, whoever sweeps (the status guard in each write).
 */
export const reconcileCardPayments = () => reconcileUnsettled({ method: "card" });
