import { randomUUID } from "node:crypto";
import { addDaysTo } from "~/lib/dates";
import { BRAND_LABELS, brandFromPrefix, cardDigits, detectBrand, formatExpiry } from "~/lib/card";
import { formatMoney, parseMoneyToCents } from "~/lib/format";
import { isUuid } from "~/lib/ids";
import type { FeeRules } from "~/lib/payment-calc";
import { feeRateLabel } from "~/lib/surcharges";
import type { MessageKey } from "~/lib/i18n";
import {
  MONEY_ERROR_KEYS,
  methodValueOf,
  parseMethodValue,
  type PayAction,
  type PayConfirmView,
  type PayFormReply,
} from "~/lib/pay-form";
import { payCardSchema } from "~/lib/payment-method-schemas";
import type { CardBrand } from "~/lib/payment-method-types";
import { logger } from "../platform/logger.server";
import type { GatewayContext } from "./gateway/card-gateway.server";
import { findHeldCard, holdCard, holderHashOf, type HeldCard } from "./held-cards.server";
import type { PayMethod, PaymentOutcome } from "./payment-records.server";
import { findPaymentByGuid } from "./submit.server";
import type { HostBranding } from "../host/host.server";
import { pageDates } from "../host/language.server";
import type { PayToChoice } from "./payto/payto-payments.server";

/**
 * The server half of `~/components/PayForm`: the steps every pay action takes, in order.
 *
 *   const form = await readForm(request);
 *   const { intent, text, reply } = startPayReply(form);          // 400 when intent is unknown
 *   const prior = intent === "pay" ? await priorAnswer(actor, text("requestGuid", 40)) : null;
 *   …the page's own amounts (typedAmount), into reply.errors / reply.amounts…
 *   const { payMethod, feeMethod } = resolvePayMethod(form, intent, reply, { … });
 *   reply.breakdown = breakdownView(…);                           // the page's own preview
 *   if (!readyToPay(intent, reply, payMethod)) return data(reply, { status: … });
 *   const step = await confirmOrPay(request, form, reply, payMethod, { … }); // decision 071
 *   if (!step.pay) return data(reply, { status: step.status, headers: step.headers });
 *   const outcome = await submitPayment(actor, { …, expectedAmountCents: step.expectedAmountCents }, context);
 *   const done = await finishPayment(outcome, { branding, payMethod, reply });
 *
 * Nothing here charges: `submitPayment` does. A quote (`intent=quote`) and "Update total"
 * (`review`) never reach it.
 */
export type PayIntent = "pay" | "review" | "quote";

/** An agreement as the form names it: the PayID, or the BSB and the account's last digits. */
export function agreementView(choice: PayToChoice) {
  return {
    id: choice.id,
    status: choice.status,
    payId: choice.payId,
    bsb: choice.bsb ? `${choice.bsb.slice(0, 3)}-${choice.bsb.slice(3)}` : null,
    last3: choice.accountLast3,
  };
}

/** A fee method: what prices a surcharge (a card's brand), or none (PayTo, a promise). */
export type FeeMethod = { kind: "card"; brand: CardBrand } | { kind: "payto" } | { kind: "promise" };

type TextOf = (name: string, max?: number) => string;

/** The intent and a new reply holding what was typed (never the card number or CVN). */
export function startPayReply(form: FormData): { intent: PayIntent | null; text: TextOf; reply: PayFormReply } {
  const text: TextOf = (name, max = 200) => String(form.get(name) ?? "").slice(0, max);
  const raw = form.get("intent");
  const intent = raw === "pay" || raw === "review" || raw === "quote" ? raw : null;
  const reply: PayFormReply = {
    requestGuid: randomUUID(),
    amounts: {},
    method: parseMethodValue(text("method", 60)),
    note: text("note", 500),
    promiseDate: text("promiseDate", 10),
    holder: text("cardHolderName", 100),
    expiryMonth: text("expiryMonth", 2),
    expiryYear: text("expiryYear", 4),
    extra: {},
    errors: {},
    message: intent ? null : "pay.error.form",
    breakdown: null,
  };
  return { intent, text, reply };
}

/**
 * A repeated submission (double click, reloaded POST, second tab with the same form) is
 * answered with the first one's result before anything else is checked: the payment's
 * reference to redirect to, or the refusal to show again. Null for a new requestGuid.
 */
export async function priorAnswer(
  actor: { businessId: string; accountId: string },
  requestGuid: string,
  reply: PayFormReply,
): Promise<{ reference: string } | { status: 402 } | null> {
  const prior = await findPaymentByGuid({ ...actor, contactId: "", clientIp: "" }, requestGuid);
  if (!prior || prior.kind === "conflict" || prior.kind === "invalid") return null;
  if (prior.kind === "declined") {
    declinedMessage(prior, reply);
    return { status: 402 };
  }
  return prior.reference ? { reference: prior.reference } : null;
}

function declinedMessage(outcome: Extract<PaymentOutcome, { kind: "declined" }>, reply: PayFormReply) {
  if (outcome.method === "payto") {
    reply.message = "paytoPay.error.rejected";
    reply.reasonKey = `paytoPay.reason.${outcome.refusal}` as MessageKey;
  } else reply.message = `pay.refusal.${outcome.refusal}` as MessageKey;
}

/**
 * A typed amount in cents, exact (never through a float), above zero and at most `max`;
 * otherwise null with the field's error in the reply. The typed text is kept to show again.
 */
export function typedAmount(
  reply: PayFormReply,
  field: string,
  typed: string,
  max: number,
  aboveMax: MessageKey = "pay.error.amount.aboveBalance",
): number | null {
  reply.amounts[field] = typed;
  const parsed = parseMoneyToCents(typed);
  if (!parsed.ok) reply.errors[field] = MONEY_ERROR_KEYS[parsed.error] ?? "pay.error.amount.format";
  else if (parsed.cents === 0) reply.errors[field] = "pay.error.amount.zero";
  else if (parsed.cents > max) reply.errors[field] = aboveMax;
  else return parsed.cents;
  return null;
}

/**
 * The method the form chose, checked against what this page offers: a saved card of the
 * account, an ACTIVE PayTo agreement of the account, a promise (where offered, a date after
 * today within 90 days) or a new card (its fields checked only when paying; a quote prices
 * the surcharge from the number's first digits). Errors go into the reply. `payMethod` is
 * null when nothing can be charged yet (a quote, a review, or an error).
 */
export function resolvePayMethod(
  form: FormData,
  intent: PayIntent,
  reply: PayFormReply,
  offer: {
    cards: { cardId: string; brand: CardBrand }[];
    agreements: { id: string; status: string }[];
    promise: boolean;
    /**
     * Has this contact portal access? Only then may they save a card (decision 023; else a posted
     * saveCard is ignored) or pay with the account's saved cards and PayTo agreements (decision 056).
     */
    mayManagePaymentMethods: boolean;
    today: string;
    /** For the log line when a crafted POST asks to save a card. */
    actor: { businessId: string; contactId: string };
    /** The held card a confirm names, if it is still good (`heldChoice`), and the browser's binding. */
    held?: { card: HeldCard | null; holderHash: string | null };
  },
): { payMethod: PayMethod | null; feeMethod: FeeMethod } {
  const text = (name: string, max = 200) => String(form.get(name) ?? "").slice(0, max);
  const method = reply.method;
  let payMethod: PayMethod | null = null;
  let feeMethod: FeeMethod = { kind: "payto" };
  if ((method.kind === "card" || method.kind === "payto") && !offer.mayManagePaymentMethods) {
    // Not offered to this contact (decision 056): a crafted POST, refused whatever the id.
    logger.warn("pay: a saved method refused, the contact has no portal access", offer.actor);
    reply.errors.method = "pay.error.savedNeedsAccess";
    return { payMethod, feeMethod };
  }
  if (method.kind === "held") {
    const held = offer.held?.card;
    if (!held || held.id !== method.heldCardId || !offer.held?.holderHash) {
      // Expired, another browser's or made up: ask for the card again; nothing is charged.
      reply.method = { kind: "new" };
      reply.message = "pay.error.heldExpired";
      reply.errors.cardNumber = "pay.error.heldExpired.field";
    } else {
      payMethod = { kind: "held-card", heldCardId: held.id, holderHash: offer.held.holderHash };
      feeMethod = { kind: "card", brand: held.brand };
    }
  } else if (method.kind === "card") {
    const card = offer.cards.find((c) => c.cardId === method.cardId);
    if (!card) reply.errors.method = "pay.error.method";
    else {
      payMethod = { kind: "saved-card", cardId: card.cardId };
      feeMethod = { kind: "card", brand: card.brand };
    }
  } else if (method.kind === "payto") {
    // Only an ACTIVE agreement of this account; a pending or paused one is listed but not offered.
    const agreement = offer.agreements.find((a) => a.id === method.agreementId && a.status === "ACTIVE");
    if (!agreement) reply.errors.method = "paytoPay.error.agreement";
    else payMethod = { kind: "payto", agreementId: agreement.id };
  } else if (method.kind === "promise") {
    const date = reply.promiseDate;
    const max = addDaysTo(offer.today, 90);
    if (!offer.promise) reply.errors.method = "pay.error.method";
    else if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)) || date <= offer.today || date > max)
      reply.errors.promiseDate = "pay.error.promiseDate";
    else {
      payMethod = { kind: "promise", promiseDate: date };
      feeMethod = { kind: "promise" };
    }
  } else {
    // A quote carries only the number's first digits (cardPrefix): the brand prices the surcharge,
    // and the whole number travels only when paying (to the gateway) or with "Update total".
    const digits = intent === "quote" ? null : cardDigits(text("cardNumber", 30));
    const brand = digits ? detectBrand(digits) : intent === "quote" ? brandFromPrefix(text("cardPrefix", 30)) : null;
    if (brand) feeMethod = { kind: "card", brand };
    if (intent === "pay") {
      const askedToSave = form.get("saveCard") === "on";
      if (askedToSave && !offer.mayManagePaymentMethods) {
        // The box is not shown to this contact: a crafted POST. Pay, but save nothing.
        logger.warn("pay: saveCard ignored, the contact may not manage payment methods", offer.actor);
      }
      const parsed = payCardSchema(offer.today).safeParse({
        cardNumber: text("cardNumber", 30) || undefined,
        cardHolderName: reply.holder || undefined,
        expiryMonth: text("expiryMonth", 2) || undefined,
        expiryYear: text("expiryYear", 4) || undefined,
        cvn: text("cvn", 4) || undefined,
        saveCard: askedToSave && offer.mayManagePaymentMethods,
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) reply.errors[String(issue.path[0])] ??= issue.message as MessageKey;
      } else {
        payMethod = {
          kind: "new-card",
          card: { ...parsed.data, authorityReference: `WEB-PAY-${reply.requestGuid.slice(0, 8)}` },
        };
      }
    }
  }
  return { payMethod, feeMethod };
}

/**
 * True when the action may go on to charge; otherwise the reply's status: a quote or a review
 * is a 200 (the page again, with the new total), a pay with errors a 400.
 */
export function readyToPay(intent: PayIntent, reply: PayFormReply, payMethod: PayMethod | null): number | true {
  if (intent !== "pay" || Object.keys(reply.errors).length > 0 || !payMethod || !reply.breakdown) {
    if (intent === "pay" && !reply.message) reply.message = "pay.error.form";
    return intent === "pay" ? 400 : 200;
  }
  return true;
}

/** What a method's button does: pay by card, pull by PayTo, or record a promise. */
const actionOf = (method: PayMethod): PayAction =>
  method.kind === "payto" ? "payto" : method.kind === "promise" ? "promise" : "card";

/** A surcharge rate as people read it: "1.5%", "1.5% + $0.30". */
function rateLabel(rules: FeeRules, brand: CardBrand, currency: string): string | null {
  const fee = rules.surcharge[brand] ?? rules.surcharge.default;
  return fee ? feeRateLabel(fee, currency) : null;
}

/**
 * The confirm step (decision 071), where a pay action used to refuse with "the total is now…".
 * The posted form says what its button showed: `expectedAmount` (the total) and `shownAction`
 * (card, payto or promise). When the server's total and the chosen method's action are those,
 * the payment goes ahead (`pay: true`), as it always did. Otherwise nothing is charged and nothing
 * is refused: a new card is tokenised and held for this requestGuid (its number and CVN go to the
 * gateway and nowhere else), and the reply carries `confirm` — the method, the exact breakdown,
 * the surcharge's reason — with the same requestGuid, so the page shows one "Confirm and pay $X"
 * button whose tap pays at most once. A gateway refusal while holding is the decline, as paying
 * would have been.
 */
export async function confirmOrPay(
  request: Request,
  form: FormData,
  reply: PayFormReply,
  payMethod: PayMethod,
  page: {
    holder: { businessId: string; accountId: string; contactId: string | null };
    context: GatewayContext;
    feeMethod: FeeMethod;
    feeRules: FeeRules;
    currency: string;
    timeZone: string;
    /** The held card a confirm paid with (`heldChoice`), to name it again. */
    held?: HeldCard | null;
  },
): Promise<
  | { pay: true; payMethod: PayMethod; expectedAmountCents: number }
  | { pay: false; status: number; headers?: Record<string, string> }
> {
  const breakdown = reply.breakdown!;
  const shownTotal = Number(String(form.get("expectedAmount") ?? "").slice(0, 14));
  const action = actionOf(payMethod);
  // A form rendered before the confirm step posts no action: it is held to its total alone.
  const posted = String(form.get("shownAction") ?? "").slice(0, 10);
  const shownAction = posted === "" ? action : posted;
  if (shownTotal === breakdown.totalCents && shownAction === action) {
    return { pay: true, payMethod, expectedAmountCents: shownTotal };
  }
  const postedGuid = String(form.get("requestGuid") ?? "").slice(0, 40);
  if (isUuid(postedGuid)) reply.requestGuid = postedGuid.toLowerCase();
  let card: PayConfirmView["card"] = null;
  let headers: Record<string, string> | undefined;
  if (payMethod.kind === "new-card") {
    const held = await holdCard(request, page.holder, reply.requestGuid, payMethod.card, page.context);
    if (!held.ok) {
      reply.requestGuid = randomUUID();
      reply.message = `pay.refusal.${held.refusal}` as MessageKey;
      return { pay: false, status: 402 };
    }
    reply.method = { kind: "held", heldCardId: held.held.id };
    card = heldView(held.held);
    headers = { "Set-Cookie": held.setCookie };
  } else if (payMethod.kind === "held-card" && page.held) {
    card = heldView(page.held);
  }
  const brand = page.feeMethod.kind === "card" ? page.feeMethod.brand : null;
  const rate = brand && breakdown.surcharge ? rateLabel(page.feeRules, brand, page.currency) : null;
  reply.confirm = {
    action,
    method: methodValueOf(reply.method),
    card,
    promiseDate: payMethod.kind === "promise" ? (await pageDates(request, page)).date(payMethod.promiseDate) : null,
    shownTotal:
      Number.isSafeInteger(shownTotal) && shownTotal > 0 && shownTotal !== breakdown.totalCents
        ? formatMoney(shownTotal, { currency: page.currency })
        : null,
    surcharge: brand && rate ? { brand: BRAND_LABELS[brand], rate } : null,
  };
  reply.message = null;
  return { pay: false, status: 200, headers };
}

const heldView = (held: HeldCard) => ({
  brand: BRAND_LABELS[held.brand],
  last4: held.last4,
  expiry: formatExpiry(held.expiryMonth, held.expiryYear),
});

/**
 * The held card a posted `held:<id>` names, if it is still good for this browser, account and
 * contact (`findHeldCard`), and the browser's binding: what `resolvePayMethod` checks.
 */
export async function heldChoice(
  request: Request,
  reply: PayFormReply,
  holder: { businessId: string; accountId: string; contactId: string | null },
  requestGuid: string,
): Promise<{ card: HeldCard | null; holderHash: string | null } | undefined> {
  if (reply.method.kind !== "held") return undefined;
  const card = await findHeldCard(request, holder, reply.method.heldCardId, requestGuid);
  return { card, holderHash: card ? await holderHashOf(request) : null };
}

/** The messages of the engine's refusals every pay page shares; a page overrides what it words better. */
export const INVALID_MESSAGES: Record<Extract<PaymentOutcome, { kind: "invalid" }>["problem"], MessageKey> = {
  amount: "pay.error.totalChanged",
  card: "pay.error.method",
  invoice: "pay.error.nothing",
  request: "pay.error.nothing",
  agreement: "paytoPay.error.agreement",
  agreementInactive: "paytoPay.error.agreementInactive",
  limit: "paytoPay.error.limit",
  method: "paytoPay.error.disabled",
  requestClosed: "request.error.closed",
  fullPaymentRequired: "request.error.fullPaymentRequired",
  belowMinimum: "request.error.belowMinimum",
  aboveRemaining: "request.error.aboveRemaining",
  adhocDisabled: "adhoc.error.disabled",
  aboveMaximum: "adhoc.error.aboveMaximum",
  instalment: "pay.error.nothing",
  heldCard: "pay.error.heldExpired",
};

/**
 * What became of a submission: `{ reference, paymentId }` to redirect to the receipt, or the
 * reply's status with its message. The receipt email was written with the payment's success (or
 * the promise) in its transaction, and sent after it committed (decision 044).
 */
export async function finishPayment(
  outcome: PaymentOutcome,
  context: {
    branding: HostBranding;
    payMethod: PayMethod;
    reply: PayFormReply;
    /** A page's own words for a refusal, and the values they need ({remaining}, {min}, {max}). */
    invalidMessages?: Partial<typeof INVALID_MESSAGES>;
    messageParams?: Record<string, string>;
  },
): Promise<{ reference: string; paymentId: string } | { status: number }> {
  const { reply } = context;
  switch (outcome.kind) {
    case "succeeded":
    case "promised":
    case "pending":
    case "submitted":
      return { reference: outcome.reference, paymentId: outcome.paymentId };
    case "declined":
      declinedMessage(outcome, reply);
      return { status: 402 };
    case "conflict":
      reply.message = "pay.error.conflict";
      return { status: 409 };
    case "invalid":
      reply.message = context.invalidMessages?.[outcome.problem] ?? INVALID_MESSAGES[outcome.problem];
      reply.messageParams = { total: reply.breakdown?.total ?? "", ...context.messageParams };
      return { status: 409 };
  }
}
