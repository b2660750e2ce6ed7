import { randomBytes } from "node:crypto";
import type { HeldCard } from "./held-cards.server";
import { sql } from "kysely";
import { allocateInstalment } from "~/lib/instalment-allocation";
import {
  computeCreditPayment,
  computePayment,
  requestFeeRules,
  type FeeRules,
  type PaymentBreakdown,
} from "~/lib/payment-calc";
import type { CardBrand } from "~/lib/payment-method-types";
import type { Db } from "../platform/db.server";
import { now } from "../platform/clock.server";
import type { PaymentPurpose } from "../platform/db-schema.server";
import type { QueuedMail } from "../platform/mail-outbox.server";
import { payableInvoices } from "./payable.server";
import {
  findByGuid,
  RESERVING_STATUSES,
  type Actor,
  type PaymentFor,
  type PaymentProblem,
  type SubmitPaymentInput,
} from "./payment-records.server";
import { queueReceipt } from "./receipts.server";

/**
 * Claiming a submission's requestGuid (ARCHITECTURE "Money moves exactly once"; issue 3): in one
 * transaction the payment is inserted (its guid unique per business) with its allocations,
 * after locking what it pays — a payment request, an instalment and its schedule, the invoices —
 * and checking their balances less what other unsettled payments already reserve. The claim
 * answers with the payment, or says that the guid was claimed already (a repeat), or why the
 * submission cannot be paid. `submit.server.ts` calls it; settling takes the same locks in the
 * same order (`settle.server.ts`).
 */

/** A submission as the claim reads it: its guid in lower case, what it is for filled in. */
export type Submission = Omit<SubmitPaymentInput, "paymentFor"> & {
  paymentFor: PaymentFor;
  /** Money that pays no invoice (an ad-hoc payment, a stated-amount request), else null. */
  creditCents: number | null;
  /** The selection's invoice ids. */
  ids: string[];
};

/** The card a payment uses: its brand (null for PayTo and promises), and the saved card's row if it is one. */
export type CardUsed = {
  brand: CardBrand | null;
  saved: { id: string; token: string; brand: CardBrand; last4: string } | null;
  /** A held card's token and public facts (decision 071). */
  held?: HeldCard;
};

/** The PayTo agreement a payment is pulled under, with the most it may take. */
export type PullAgreement = { id: string; providerAgreementId: string; maxCents: number };

export type ClaimInput = {
  submission: Submission;
  /** The submission's content, to tell a repeat from a different payment under the same guid. */
  hash: string;
  card: CardUsed;
  agreement: PullAgreement | null;
  rules: FeeRules;
};

export type ClaimedPayment = {
  paymentId: string;
  reference: string;
  breakdown: PaymentBreakdown;
  /** A promise's receipt, written with it; null for a payment that has yet to move money. */
  receipt: QueuedMail | null;
};

export type Claim = ClaimedPayment | { repeat: true } | { invalid: PaymentProblem };

/** Claim the guid and reserve the balances, or learn that someone else did. */
export async function claimPayment(db: Db, actor: Actor, claim: ClaimInput): Promise<Claim> {
  return db.transaction().execute(async (tx) => {
    const target = await lockTarget(tx, actor, claim.submission);
    if ("invalid" in target) return target;
    // With the invoices locked, a submission of this guid that got here first is visible
    // (its payment committed before our lock was granted): answer as a repeat, before its
    // reservation makes the balance look spent.
    if (await findByGuid(tx, actor.businessId, claim.submission.requestGuid)) return { repeat: true as const };
    const priced = await checkAndPrice(tx, actor, claim, target);
    if ("invalid" in priced) return priced;
    return recordClaim(tx, actor, claim, target, priced);
  });
}

type LockedTarget = {
  request: LockedRequest | null;
  instalment: ClaimedInstalment | null;
  requestInvoices: { invoiceId: string; amountCents: number }[];
  /** The invoices locked for this payment, payable now, with what is free of each balance. */
  locked: Awaited<ReturnType<typeof payableInvoices>>;
};

/**
 * Locks what the payment pays, in the order settlements take it: a payment request before its
 * invoices (so two payments of one request are checked against its remainder one at a time);
 * an instalment's schedule and itself, then the schedule's invoices (all of them: the money goes
 * to the oldest due first); else the selected invoices.
 */
async function lockTarget(
  tx: Db,
  actor: Actor,
  input: Submission,
): Promise<LockedTarget | { invalid: PaymentProblem }> {
  const { paymentFor } = input;
  const request = paymentFor.kind === "request" ? await lockRequest(tx, actor, paymentFor.requestId) : null;
  if (paymentFor.kind === "request" && !request) return { invalid: "requestClosed" as const };
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
    request?.kind === "invoices"
      ? requestInvoices.map((r) => r.invoiceId)
      : instalment
        ? scheduleInvoiceIds
        : input.ids;
  const locked = lockIds.length > 0 ? await payableInvoices(tx, actor, lockIds, true) : [];
  return { request, instalment, requestInvoices, locked };
}

type Priced = { breakdown: PaymentBreakdown; instalmentSplit: ReturnType<typeof allocateInstalment> | null };

/**
 * With everything locked: whether the submission can be paid now, and what it costs. The
 * checks answer in this order: the request, the instalment, the invoices and their amounts,
 * then the price against the request's remainder, the business's ad-hoc limits, the total the
 * payer saw and the PayTo agreement's maximum.
 */
async function checkAndPrice(
  tx: Db,
  actor: Actor,
  { submission: input, card, agreement, rules: businessRules }: ClaimInput,
  { request, instalment, requestInvoices, locked }: LockedTarget,
): Promise<Priced | { invalid: PaymentProblem }> {
  const { paymentFor, creditCents, ids } = input;
  // A closed request says so, whatever became of its invoices since; so does a request of
  // invoices none of which can be paid now (paid some other way, or on hold).
  if (request && !request.open) return { invalid: "requestClosed" as const };
  if (request?.kind === "invoices" && locked.length === 0) return { invalid: "requestClosed" as const };
  if (instalment && !instalment.claimed) return { invalid: "instalment" as const };
  const invoices = locked.filter((invoice) => ids.includes(invoice.id));
  if (invoices.length !== ids.length) return { invalid: "invoice" as const };
  const amounts = Object.fromEntries(input.selection.map((s) => [s.invoiceId, s.amountCents]));
  // What a request still lets this payment take of each invoice: what it asked for, at most
  // what is left to pay now.
  const asked = new Map(requestInvoices.map((r) => [r.invoiceId, Number(r.amountCents)]));
  const payableOf = (invoice: { id: string; availableCents: number }) =>
    request ? Math.min(asked.get(invoice.id) ?? 0, invoice.availableCents) : invoice.availableCents;
  if (invoices.some((invoice) => amounts[invoice.id]! > payableOf(invoice) || amounts[invoice.id]! < 1)) {
    return { invalid: request ? ("aboveRemaining" as const) : ("amount" as const) };
  }
  const method = card.brand ? ({ kind: "card", brand: card.brand } as const) : ({ kind: "payto" } as const);
  // A request charges what its email asked, plus a card's surcharge (decision 075).
  const rules = request ? requestFeeRules(businessRules) : businessRules;
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
  return { breakdown, instalmentSplit };
}

const newReference = () => `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;

/**
 * Writes the claim: the payment (a guid claimed by a concurrent submission inserts nothing: a
 * repeat), an instalment's allocations and its attempt's payment, the allocations to the
 * selected invoices, and for a promise the invoices' Promise status and its receipt.
 */
async function recordClaim(
  tx: Db,
  actor: Actor,
  { submission: input, hash, card, agreement }: ClaimInput,
  { request, instalment }: LockedTarget,
  { breakdown, instalmentSplit }: Priced,
): Promise<Claim> {
  const { paymentFor, creditCents } = input;
  const inserted = await tx
    .insertInto("payments")
    .values({
      business_id: actor.businessId,
      account_id: actor.accountId,
      request_guid: input.requestGuid,
      request_hash: hash,
      reference: newReference(),
      method: input.method.kind === "promise" ? "promise" : agreement ? "payto" : "card",
      card_id: card.saved?.id ?? null,
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
      card_brand: card.brand,
      card_last4:
        card.saved?.last4 ??
        card.held?.last4 ??
        (input.method.kind === "new-card" ? input.method.card.cardNumber.slice(-4) : null),
      created_by: actor.contactId,
      completed_at: input.method.kind === "promise" ? now() : null,
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
      .where("id", "in", input.ids)
      .execute();
  }
  // A promise is finished when it is written: its receipt with it (decision 044).
  const receipt = input.method.kind === "promise" ? await queueReceipt(tx, actor.businessId, inserted.id) : null;
  return { paymentId: inserted.id, reference: inserted.reference, breakdown, receipt };
}

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
