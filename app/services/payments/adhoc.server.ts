import { randomUUID } from "node:crypto";
import { businessToday } from "../platform/clock.server";
import { adhocAmountProblem, readPayerReference } from "~/lib/adhoc";
import { BRAND_LABELS, formatExpiry, isExpired } from "~/lib/card";
import { formatMoney, parseMoneyToCents } from "~/lib/format";
import { computeCreditPayment, type FeeRules } from "~/lib/payment-calc";
import { breakdownView, decimal, type PayFormReply, type PayMethodChoice } from "~/lib/pay-form";
import { adhocPagePath, type AmountPageChoice } from "~/lib/pay-return";
import { todayIso } from "~/lib/payment-method-schemas";
import type { CardBrand } from "~/lib/payment-method-types";
import { requireAccountAccess, type AccountDetails } from "../accounts/account-access.server";
import type { AdhocSettings } from "../accounts/customer-home.server";
import type { HostBranding } from "../host/host.server";
import { checkLinkAccess, type LinkToken } from "../links/link-tokens.server";
import { gatewayContextFrom, listCards } from "../payment-methods/payment-methods.server";
import { requestOrigin } from "../platform/request-context.server";
import {
  agreementView,
  confirmOrPay,
  heldChoice,
  finishPayment,
  priorAnswer,
  readyToPay,
  resolvePayMethod,
  startPayReply,
  typedAmount,
} from "./pay-form.server";
import { submitPayment } from "./submit.server";
import { payToChoices, type PayToChoice } from "./payto/payto-payments.server";
import { payToConfigurationOf } from "./payto/settings.server";
import { peekAccountPayId } from "./payto/payids.server";
import { getDb } from "../platform/database.server";
import { businessContact } from "../links/request-links.server";
import { sql } from "kysely";

/**
 * Ad-hoc payments (issue 14; decision 033): any amount the business allows, with a reference
 * the payer types, paid into one account as credit. Two doors, one flow:
 *
 * - `/payment/adhoc/<account id>`, signed in: the slug is the account's id, and the contact must
 *   be allowed to see that account (`requireAccountAccess`: joined to it, or its parent when
 *   the business shows child accounts). Anything else — another account's or business's id,
 *   a malformed id — is "Page not found", in the loader and in the action. Saved cards, a new
 *   card (saved only by contacts who may manage payment methods) and active PayTo agreements.
 * - `/customer/adhoc/<token>`, by an emailed link (decision 031): purpose `adhoc`, subject the
 *   account, payer the link's contact, who must still be allowed to see that account. A new
 *   card only: a forwarded link must not spend the account's stored methods.
 *
 * The engine (`submitPayment` with `paymentFor: { kind: "adhoc" }`) checks the business's
 * settings and limits again under its transaction: what the page says is never the last word.
 */
export type { AdhocSettings };

type Actor = { businessId: string; accountId: string; contactId: string; clientIp: string };

/** The account of the signed-in page, or a thrown 404. */
export function requireAdhocAccount(businessId: string, contactId: string, slug: unknown): Promise<AccountDetails> {
  return requireAccountAccess(businessId, contactId, slug);
}

/**
 * What an ad-hoc link opens. `unknown` is one answer for every token that is not this business's
 * real ad-hoc link (no hint whether it ever existed). The holder of the real link is told when
 * it expired or was revoked — or no longer opens anything because its contact may no longer
 * act for the account (removed from it, or disabled: `checkLinkAccess`), which reads as revoked.
 */
export type AdhocLinkCheck =
  | { status: "valid"; link: LinkToken; account: AccountDetails }
  | { status: "expired" | "revoked"; link: LinkToken }
  | { status: "unknown" };

// eslint-disable-next-line no-restricted-syntax -- a link token's expiry keeps the system's time like links/** (left for the link-service merge)
export async function checkAdhocLink(businessId: string, token: unknown, now = new Date()): Promise<AdhocLinkCheck> {
  // The record is the account itself; checkLinkAccess asks whether the contact may still act
  // for it (not disabled, still on the account), as every link page does (decision 031).
  const check = await checkLinkAccess(businessId, "adhoc", token, async (link) => ({ accountId: link.subjectId }), now);
  if (check.status === "unknown") return check;
  if (check.status !== "valid") {
    return { status: check.status === "expired" ? "expired" : "revoked", link: check.link };
  }
  const account = await requireAccountAccess(businessId, check.link.contactId, check.link.subjectId).catch(() => null);
  if (!account) return { status: "revoked", link: check.link };
  return { status: "valid", link: check.link, account };
}

/** The breakdown of an ad-hoc amount paid by a card of `brand` (its surcharge) or by PayTo (none). */
export function previewAdhoc(
  amountCents: number,
  method: { kind: "card"; brand: CardBrand } | { kind: "payto" } | { kind: "promise" },
  rules: FeeRules,
) {
  return computeCreditPayment(amountCents, method.kind === "card" ? method : { kind: "payto" }, rules);
}

/** What the page may offer as ways to pay: the signed-in contact's, or a link payer's (a new card only). */
export type AdhocOffer = {
  cards: {
    cardId: string;
    brand: CardBrand;
    last4: string;
    expiryMonth: number;
    expiryYear: number;
    isDefault: boolean;
  }[];
  payTo: { enabled: boolean; providerName: string; agreements: PayToChoice[] };
  mayManagePaymentMethods: boolean;
  /** A signed-in page may link to PayTo's set-up; a link page offers nothing beyond its one form. */
  signedIn: boolean;
};

/**
 * A signed-in contact's ways to pay into the account: with portal access its saved cards (not
 * expired) and PayTo agreements; without, a new card only (decision 056).
 */
export async function signedInOffer(
  branding: HostBranding,
  actor: Actor,
  mayManagePaymentMethods: boolean,
): Promise<AdhocOffer> {
  const [cards, payTo] = await Promise.all([
    mayManagePaymentMethods ? listCards(actor) : [],
    payToChoices(actor, payToConfigurationOf(branding)),
  ]);
  // Card expiry is the card network's date, as the gateway judges it (decision 078).
  const today = todayIso();
  return {
    cards: cards.filter((card) => !isExpired(card.expiryMonth, card.expiryYear, today)),
    payTo: mayManagePaymentMethods ? payTo : { ...payTo, agreements: [] },
    mayManagePaymentMethods,
    signedIn: true,
  };
}

/** A link payer's only way: a new card, never saved (decision 031). */
export function linkOffer(branding: HostBranding): AdhocOffer {
  return {
    cards: [],
    payTo: { enabled: false, providerName: payToConfigurationOf(branding).providerName, agreements: [] },
    mayManagePaymentMethods: false,
    signedIn: false,
  };
}

/** The business's limits as the page words them. */
function limitsOf(branding: HostBranding, settings: AdhocSettings) {
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  return { min: money(settings.minCents), max: money(settings.maxCents), business: branding.businessName };
}

/** Nothing chosen before: how a page opens from a link, a menu or the home. */
const NOTHING_CHOSEN: AmountPageChoice = { amountCents: null, reference: null, agreementId: null };

/**
 * What both ad-hoc pages render: the account, the limits, and the pay form's ways to pay. The
 * signed-in page passes what its address says was chosen before (the way back from "Set up
 * PayTo", decision 077): an amount within the business's limits and a payer's reference fill
 * the fields (and the amount prices the total), and an active agreement of the account is the
 * way to pay; anything else is left out, as if it had not been there.
 */
export function adhocPageData(
  branding: HostBranding,
  account: Pick<AccountDetails, "name" | "number">,
  settings: AdhocSettings,
  offer: AdhocOffer,
  chosen: AmountPageChoice = NOTHING_CHOSEN,
) {
  const namedAgreement = offer.payTo.agreements.find((a) => a.id === chosen.agreementId && a.status === "ACTIVE");
  const defaultCard = namedAgreement ? undefined : (offer.cards.find((card) => card.isDefault) ?? offer.cards[0]);
  const activeAgreement = namedAgreement ?? offer.payTo.agreements.find((a) => a.status === "ACTIVE");
  const amountCents =
    chosen.amountCents !== null && adhocAmountProblem(chosen.amountCents, settings) === null
      ? chosen.amountCents
      : null;
  const breakdown =
    amountCents !== null && settings.enabled
      ? previewAdhoc(
          amountCents,
          defaultCard ? { kind: "card", brand: defaultCard.brand } : { kind: "payto" },
          branding.feeRules,
        )
      : null;
  return {
    businessName: branding.businessName,
    account: { name: account.name, number: account.number },
    adhoc: { enabled: settings.enabled, ...limitsOf(branding, settings) },
    requestGuid: randomUUID(),
    /** The fields' values: empty, or what was typed before "Set up PayTo". */
    amount: amountCents === null ? "" : decimal(amountCents),
    reference: chosen.reference ?? "",
    breakdown: breakdown ? breakdownView(breakdown, branding.currency) : null,
    methods: {
      cards: offer.cards.map((card) => ({
        id: card.cardId,
        name: `${BRAND_LABELS[card.brand]} •••• ${card.last4}`,
        expiry: formatExpiry(card.expiryMonth, card.expiryYear),
      })),
      agreements: offer.payTo.agreements.map(agreementView),
      payTo: {
        enabled: offer.payTo.enabled,
        providerName: offer.payTo.providerName,
        // A button of the pay form that comes back here with what was typed (decision 077).
        setUp: offer.signedIn ? (offer.mayManagePaymentMethods ? ("return" as const) : ("noAccess" as const)) : null,
      },
      // A promise moves no money: there is nothing to promise on an amount of the payer's choice.
      promise: false,
      saveCard: offer.mayManagePaymentMethods,
    },
    method: (defaultCard
      ? { kind: "card", cardId: defaultCard.cardId }
      : activeAgreement
        ? { kind: "payto", agreementId: activeAgreement.id }
        : { kind: "new" }) as PayMethodChoice,
  };
}

/**
 * A brand preview of an ad-hoc link's page (decision 082): the business's first account (parents
 * first) as a link's payer sees it, with its PayID only if one is registered already (nothing is
 * registered, nothing written); null when the business has no account.
 */
export async function adhocLinkPreview(branding: HostBranding) {
  const db = await getDb();
  const account = await db
    .selectFrom("accounts")
    .select(["id", "name", "number"])
    .where("business_id", "=", branding.businessId)
    .orderBy(sql`parent_account_id IS NOT NULL`)
    .orderBy("number")
    .limit(1)
    .executeTakeFirst();
  if (!account) return null;
  const [payId, contact] = await Promise.all([
    payToConfigurationOf(branding).enabled
      ? peekAccountPayId({
          businessId: branding.businessId,
          hostname: branding.hostname,
          accountId: account.id,
          accountNumber: account.number,
        })
      : null,
    businessContact(branding.businessId),
  ]);
  const page = {
    kind: "open" as const,
    ...adhocPageData(branding, account, branding.adhoc, linkOffer(branding)),
    payId: payId && (payId.status === "ready" || payId.status === "unavailable") ? payId : null,
    contact,
  };
  return { source: account.number, page };
}

/**
 * "Set up PayTo" (a button of the signed-in page's pay form): the way back to the page with the
 * amount typed (when it is one the business would take) and the payer's reference (when it is
 * one the page would take), written afresh. Nothing is charged and the card fields are not read.
 * Null where the button is not offered: a link's payer, a contact who may not manage payment
 * methods, PayTo off, or a business that takes no ad-hoc payments.
 */
export function adhocPayToReturn(
  form: FormData,
  context: { accountId: string; settings: AdhocSettings; offer: AdhocOffer },
): string | null {
  const { offer, settings } = context;
  if (!offer.signedIn || !offer.mayManagePaymentMethods || !offer.payTo.enabled || !settings.enabled) return null;
  return adhocPageWithTyped(form, context.accountId, settings);
}

/**
 * "Sign in to use a saved card" on an ad-hoc link's page (a button of its pay form, decision 077):
 * the signed-in ad-hoc page of the link's account with the amount and reference typed, written
 * afresh. Signed out, that page sends to sign-in and sign-in comes back to it. Nothing is charged
 * and the card fields are not read.
 */
export function adhocSignInReturn(form: FormData, context: { accountId: string; settings: AdhocSettings }): string {
  return adhocPageWithTyped(form, context.accountId, context.settings);
}

/** The signed-in ad-hoc page with what was typed: an amount the business would take, a reference the page would. */
function adhocPageWithTyped(form: FormData, accountId: string, settings: AdhocSettings): string {
  const typed = parseMoneyToCents(String(form.get("amount") ?? "").slice(0, 40));
  const amountCents = typed.ok && adhocAmountProblem(typed.cents, settings) === null ? typed.cents : null;
  const reference = readPayerReference(form.get("reference"));
  return adhocPagePath(accountId, {
    amountCents,
    reference: reference.ok ? reference.value : null,
    agreementId: null,
  });
}

export type AdhocPayResult =
  | { kind: "paid"; reference: string }
  | { kind: "reply"; reply: PayFormReply; status: number; headers?: Record<string, string> };

/**
 * The ad-hoc action, after the page has checked who may pay into which account: the amount
 * (exact, within the business's limits), the payer's reference, the way to pay, the total
 * the payer saw, then the engine. `quote` and `review` never charge.
 */
export async function payAdhoc(
  request: Request,
  form: FormData,
  context: {
    branding: HostBranding;
    actor: Actor;
    settings: AdhocSettings;
    offer: AdhocOffer;
    /** The emailed link the payment is made from (its payer's receipt follows it). */
    linkTokenId?: string;
  },
): Promise<AdhocPayResult> {
  const { branding, actor, settings, offer } = context;
  const { intent, text, reply } = startPayReply(form);
  const limits = limitsOf(branding, settings);
  const answer = (status: number): AdhocPayResult => ({ kind: "reply", reply, status });
  reply.extra.reference = text("reference", 200);
  if (!intent) return answer(400);
  if (intent === "pay") {
    const prior = await priorAnswer(actor, text("requestGuid", 40), reply);
    if (prior && "reference" in prior) return { kind: "paid", reference: prior.reference };
    if (prior) return answer(prior.status);
  }
  // The page says so and shows no form; a crafted POST is told the same, and nothing moves.
  if (!settings.enabled) {
    reply.message = "adhoc.error.disabled";
    reply.messageParams = { business: branding.businessName };
    return answer(409);
  }

  // The amount, typed as a decimal, exact to the cent, within the business's limits.
  const typed = typedAmount(reply, "amount", text("amount", 40), settings.maxCents, "adhoc.error.amount.aboveMaximum");
  const cents = typed !== null && adhocAmountProblem(typed, settings) === null ? typed : null;
  if (typed !== null && cents === null) reply.errors.amount = "adhoc.error.amount.belowMinimum";

  // The reference is checked when paying: a quote does not carry it, and "Update total" need not.
  let payerReference: string | null = null;
  if (intent === "pay") {
    const reference = readPayerReference(form.get("reference"));
    if (reference.ok) payerReference = reference.value;
    else reply.errors.reference = reference.error;
  }

  const holder = { businessId: actor.businessId, accountId: actor.accountId, contactId: actor.contactId };
  const held = await heldChoice(request, reply, holder, text("requestGuid", 40));
  const { payMethod, feeMethod } = resolvePayMethod(form, intent, reply, {
    cards: offer.cards,
    agreements: offer.payTo.agreements,
    promise: false,
    mayManagePaymentMethods: offer.mayManagePaymentMethods,
    today: businessToday(branding.timeZone),
    actor,
    held,
  });
  if (cents !== null)
    reply.breakdown = breakdownView(previewAdhoc(cents, feeMethod, branding.feeRules), branding.currency);
  const ready = readyToPay(intent, reply, payMethod);
  if (ready !== true || !payMethod || cents === null || payerReference === null) {
    return answer(ready === true ? 400 : ready);
  }
  const gateway = gatewayContextFrom(request, actor.clientIp, requestOrigin(request));
  // The total or the action differs from what the button showed: confirm, never refuse (decision 071).
  const step = await confirmOrPay(request, form, reply, payMethod, {
    holder,
    context: gateway,
    feeMethod,
    feeRules: branding.feeRules,
    currency: branding.currency,
    timeZone: branding.timeZone,
    held: held?.card,
  });
  if (!step.pay) return { kind: "reply", reply, status: step.status, headers: step.headers };
  const outcome = await submitPayment(
    actor,
    {
      requestGuid: text("requestGuid", 40),
      selection: [],
      paymentFor: { kind: "adhoc", creditCents: cents, payerReference },
      ...(context.linkTokenId ? { linkTokenId: context.linkTokenId } : {}),
      method: step.payMethod,
      note: "",
      currency: branding.currency,
      today: businessToday(branding.timeZone),
      expectedAmountCents: step.expectedAmountCents,
    },
    gateway,
  );
  const done = await finishPayment(outcome, {
    branding,
    payMethod,
    reply,
    invalidMessages: {
      belowMinimum: "adhoc.error.belowMinimum",
      aboveMaximum: "adhoc.error.aboveMaximum",
      adhocDisabled: "adhoc.error.disabled",
    },
    messageParams: limits,
  });
  if ("reference" in done) return { kind: "paid", reference: done.reference };
  // Over a PayTo agreement's limit: the message's {max} is the agreement's, not the business's ad-hoc maximum.
  if (reply.message === "paytoPay.error.limit" && payMethod.kind === "payto") {
    const chosen = payMethod.agreementId;
    const agreement = offer.payTo.agreements.find((a) => a.id === chosen);
    reply.messageParams = {
      ...reply.messageParams,
      max: formatMoney(agreement?.maxCents ?? 0, { currency: branding.currency }),
    };
  }
  return answer(done.status);
}
