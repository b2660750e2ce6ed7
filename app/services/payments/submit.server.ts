import { createHash } from "node:crypto";
import { detectBrand } from "~/lib/card";
import { UUID } from "~/lib/ids";
import { audit } from "../platform/audit.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { saveCard, saveTokenisedCard } from "../payment-methods/payment-methods.server";
import { heldCardByKey, releaseHeldCard, type HeldCard } from "./held-cards.server";
import { claimPayment, type CardUsed, type ClaimedPayment, type PullAgreement, type Submission } from "./claim.server";
import { GatewayTimeoutError, type GatewayContext, type GatewayRefusal } from "./gateway/card-gateway.server";
import { getCardGateway } from "./gateway/index.server";
import { getFeeRules } from "./payable.server";
import {
  findByGuid,
  gatewayKey,
  outcomeOf,
  STORED,
  storedPayment,
  type Actor,
  type PaymentFor,
  type PaymentOutcome,
  type PaymentProblem,
  type PayMethod,
  type PaySelection,
  type SubmitPaymentInput,
} from "./payment-records.server";
import { initiatePayToPayment } from "./payto/payto-payments.server";
import { getPayToConfiguration } from "./payto/settings.server";
import { kickReceipt } from "./receipts.server";
import { reconcilePayment } from "./reconcile.server";
import { failCardPayment, settleCardCharge } from "./settle.server";

/**
 * Paying invoices, exactly once (ARCHITECTURE "Money moves exactly once"; issue 3).
 *
 * 1. The submission's requestGuid is claimed by inserting the payment (unique per business)
 *    together with its allocations, in one transaction that locks the invoices and checks
 *    their balances less what other unsettled payments already reserve (`claim.server.ts`).
 * 2. The gateway is charged with our key (business:requestGuid), so its retries line up with ours
 *    (PayTo: the provider is asked to pull it, `payto/payto-payments.server.ts`).
 * 3. The outcome is written in one transaction: balances, statuses and statement lines move
 *    with the payment (`settle.server.ts`). A time-out leaves the payment "unknown" until the
 *    reconciler asks the gateway by our key what happened (`reconcile.server.ts`).
 * A repeat of the guid gets the first result; the same guid with other content is refused.
 */

/**
 * Submits a payment: the submission's shape, the card it uses, a repeat answered with the first
 * result, the PayTo agreement, the claim; then, by method, the promise recorded, the PayTo pull
 * asked for, or the card tokenised and charged. Each step below is one of these, in this order.
 */
export async function submitPayment(
  actor: Actor,
  posted: SubmitPaymentInput,
  context: GatewayContext,
): Promise<PaymentOutcome> {
  const input = readSubmission(posted);
  if ("problem" in input) return { kind: "invalid", problem: input.problem };
  const db = await getDb();
  const target = { paymentFor: input.paymentFor, linkTokenId: input.linkTokenId ?? null };
  // A held card is let go once its payment has an outcome: a late repeat of the confirm is
  // answered from the payment (its hash names the held card, not its brand) before it is looked for.
  if (input.method.kind === "held-card") {
    const seen = await findByGuid(db, actor.businessId, input.requestGuid);
    const hash = requestHash(actor, input.selection, input.method, input.note, null, target);
    if (seen) return answerRepeat(db, actor, input.requestGuid, hash);
  }
  const card = await cardOf(db, actor, input.method, input.requestGuid);
  if (!card) return { kind: "invalid", problem: input.method.kind === "held-card" ? "heldCard" : "card" };
  const hash = requestHash(actor, input.selection, input.method, input.note, card.brand, target);
  const seen = await findByGuid(db, actor.businessId, input.requestGuid);
  if (seen) return answerRepeat(db, actor, input.requestGuid, hash);

  // After the repeat check: a repeat answers the first result even if the agreement has changed since.
  let agreement: PullAgreement | null = null;
  if (input.method.kind === "payto") {
    const found = await checkPayToAgreement(actor, input.method.agreementId);
    if (found.kind !== "ok") return { kind: "invalid", problem: found.kind };
    agreement = found.agreement;
  }

  const rules = await getFeeRules(actor.businessId);
  const claim = await claimPayment(db, actor, { submission: input, hash, card, agreement, rules });
  if ("repeat" in claim) return answerRepeat(db, actor, input.requestGuid, hash);
  if ("invalid" in claim) return { kind: "invalid", problem: claim.invalid };
  if (input.method.kind === "promise") return recordPromise(actor, claim);
  if (agreement) return pullByPayTo(db, actor, input, agreement, claim);
  return payByCard(db, actor, input, card, claim, context);
}

/**
 * The submission with its guid in lower case and what it is for filled in, or the first problem
 * of its shape. Nothing is read from the database yet.
 */
function readSubmission(posted: SubmitPaymentInput): Submission | { problem: PaymentProblem } {
  if (!UUID.test(posted.requestGuid)) return { problem: "request" };
  // The database keeps the uuid in lower case and reconciliation rebuilds our key from it:
  // the key given to the gateway or provider must be the same text (ABCD… would be looked up as abcd…).
  const input = { ...posted, requestGuid: posted.requestGuid.toLowerCase() };
  const paymentFor: PaymentFor = input.paymentFor ?? { kind: "invoices" };
  const creditCents =
    paymentFor.kind === "adhoc" || paymentFor.kind === "request" ? (paymentFor.creditCents ?? null) : null;
  const ids = input.selection.map((s) => s.invoiceId);
  if (paymentFor.kind === "instalment") {
    if (ids.length > 0) return { problem: "invoice" };
    if (!UUID.test(paymentFor.instalmentId)) return { problem: "instalment" };
  } else if (creditCents !== null) {
    // Money that pays no invoice: no selection, and a whole number of cents.
    if (ids.length > 0) return { problem: "invoice" };
    if (!Number.isSafeInteger(creditCents) || creditCents < 1) return { problem: "amount" };
  } else if (ids.length === 0 || new Set(ids).size !== ids.length) return { problem: "invoice" };
  // A promise moves no money: there is nothing to promise on a request or an ad-hoc payment.
  if (paymentFor.kind !== "invoices" && input.method.kind === "promise") return { problem: "method" };
  if (paymentFor.kind === "request" && !UUID.test(paymentFor.requestId)) return { problem: "requestClosed" };
  // Up to 80 characters as PostgreSQL counts them (code points: `u`), so 80 emoji fit as the column allows.
  if (paymentFor.kind === "adhoc" && !/^[^\x00-\x1f\x7f]{1,80}$/u.test(paymentFor.payerReference))
    return { problem: "amount" };
  if (input.linkTokenId !== undefined && !UUID.test(input.linkTokenId)) return { problem: "request" };
  return { ...input, paymentFor, creditCents, ids };
}

/**
 * The card a submission pays with: a saved card of this account, or a new card of a brand we
 * take; no card for PayTo and promises. Null: no such card.
 */
async function cardOf(db: Db, actor: Actor, method: PayMethod, requestGuid: string): Promise<CardUsed | null> {
  if (method.kind === "held-card") {
    const held = await heldCardByKey(
      { businessId: actor.businessId, accountId: actor.accountId, contactId: actor.contactId || null },
      method.heldCardId,
      requestGuid,
      method.holderHash,
      db,
    );
    return held ? { brand: held.brand, saved: null, held } : null;
  }
  if (method.kind === "saved-card") {
    const card = UUID.test(method.cardId)
      ? await db
          .selectFrom("cards")
          .select(["id", "gateway_token as token", "brand", "last4"])
          .where("business_id", "=", actor.businessId)
          .where("account_id", "=", actor.accountId)
          .where("id", "=", method.cardId)
          .where("removed_at", "is", null)
          .executeTakeFirst()
      : undefined;
    if (!card) return null;
    return { brand: card.brand, saved: card };
  }
  if (method.kind === "new-card") {
    const brand = detectBrand(method.card.cardNumber);
    return brand ? { brand, saved: null } : null;
  }
  return { brand: null, saved: null };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

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
        : method.kind === "held-card"
          ? { kind: method.kind, heldCardId: method.heldCardId }
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

/** A promise is written with its receipt (the claim): the receipt goes, the event is recorded. */
async function recordPromise(actor: Actor, claim: ClaimedPayment): Promise<PaymentOutcome> {
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

/** Asks the PayTo provider to pull the claimed payment under the agreement; answers with where it stands. */
async function pullByPayTo(
  db: Db,
  actor: Actor,
  input: Submission,
  agreement: PullAgreement,
  claim: ClaimedPayment,
): Promise<PaymentOutcome> {
  await initiatePayToPayment({
    paymentId: claim.paymentId,
    businessId: actor.businessId,
    providerAgreementId: agreement.providerAgreementId,
    amountCents: claim.breakdown.amount,
    currency: input.currency,
    idempotencyKey: gatewayKey(actor.businessId, input.requestGuid),
    reference: claim.reference,
  });
  const final = await storedPayment(db, claim.paymentId);
  await audit({
    businessId: actor.businessId,
    contactId: actor.contactId,
    action: `payment.payto.${final.status}`,
    clientIp: actor.clientIp,
    details: { paymentId: final.id, reference: final.reference, amountCents: claim.breakdown.amount },
  });
  return outcomeOf(final);
}

/** Pays the claimed payment by card: a token for it, the charge, and the answer. */
async function payByCard(
  db: Db,
  actor: Actor,
  input: Submission,
  card: CardUsed,
  claim: ClaimedPayment,
  context: GatewayContext,
): Promise<PaymentOutcome> {
  const token = await cardToken(db, actor, input.method, card, claim.paymentId, context);
  if ("refusal" in token) {
    if (card.held) await releaseHeldCard(card.held.id, { keepToken: false });
    return failCardPayment(claim.paymentId, token.refusal);
  }
  const refusal = await chargeCard(db, actor, input, token.token, claim, context).finally(async () => {
    // The charge has an outcome (or none, for the reconciler to ask by our key): the held card is done.
    if (card.held) await releaseHeldCard(card.held.id, { keepToken: token.saved === true });
  });
  if (refusal) return failCardPayment(claim.paymentId, refusal);
  const final = await storedPayment(db, claim.paymentId);
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
 * A token for the card: the saved one, or the new card's (saved for later if asked). A refusal,
 * or no answer ("unavailable"), fails the payment before anything is charged.
 */
async function cardToken(
  db: Db,
  actor: Actor,
  method: PayMethod,
  card: CardUsed,
  paymentId: string,
  context: GatewayContext,
): Promise<{ token: string; saved?: boolean } | { refusal: GatewayRefusal }> {
  if (method.kind === "held-card") return heldCardToken(db, actor, card.held!, paymentId);
  if (method.kind !== "new-card") return { token: card.saved!.token };
  const details = method.card;
  try {
    if (details.save) {
      const saved = await saveCard(actor, { ...details, makeDefault: false }, context);
      if (!saved.ok) return { refusal: saved.refusal === "limit" ? "declined" : saved.refusal };
      const row = await db
        .selectFrom("cards")
        .select(["gateway_token", "id"])
        .where("id", "=", saved.card.cardId)
        .executeTakeFirstOrThrow();
      await db.updateTable("payments").set({ card_id: row.id }).where("id", "=", paymentId).execute();
      return { token: row.gateway_token };
    }
    const tokenised = await getCardGateway().tokenise({ ...context, ...details });
    if (!tokenised.ok) return { refusal: tokenised.refusal };
    return { token: tokenised.value.token };
  } catch (error) {
    if (!(error instanceof GatewayTimeoutError)) logger.error("card tokenise failed", { error });
    return { refusal: "unavailable" };
  }
}

/**
 * A held card's token (decision 071); saved as the account's card first when the payer asked,
 * as a new card would be. A full account pays without saving, as `saveCard`'s limit would not.
 */
async function heldCardToken(
  db: Db,
  actor: Actor,
  held: HeldCard,
  paymentId: string,
): Promise<{ token: string; saved: boolean }> {
  if (!held.save) return { token: held.token, saved: false };
  const saved = await saveTokenisedCard(
    actor,
    {
      expiryMonth: held.expiryMonth,
      expiryYear: held.expiryYear,
      holderName: held.holderName,
      authorityReference: `WEB-PAY-${held.requestGuid.slice(0, 8)}`,
    },
    { token: held.token, brand: held.brand, firstDigit: held.firstDigit, last4: held.last4 },
  );
  if (!saved.ok) return { token: held.token, saved: false };
  await db.updateTable("payments").set({ card_id: saved.card.cardId }).where("id", "=", paymentId).execute();
  return { token: held.token, saved: true };
}

/**
 * Charges the token with our key and settles the payment; the gateway's refusal, if it refused.
 * With no answer, the payment is "unknown" and the gateway is asked by our key what happened.
 */
async function chargeCard(
  db: Db,
  actor: Actor,
  input: Submission,
  token: string,
  claim: ClaimedPayment,
  context: GatewayContext,
): Promise<GatewayRefusal | null> {
  try {
    const charged = await getCardGateway().charge({
      ...context,
      token,
      amountCents: claim.breakdown.amount,
      currency: input.currency,
      idempotencyKey: gatewayKey(actor.businessId, input.requestGuid),
    });
    if (!charged.ok) return charged.refusal;
    await settleCardCharge(claim.paymentId, charged.value);
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
  return null;
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
