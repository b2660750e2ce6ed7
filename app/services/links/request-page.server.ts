import { randomUUID } from "node:crypto";
import { businessToday } from "../platform/clock.server";
import { data, redirect, type TypedResponse } from "@remix-run/node";
import { BRAND_LABELS, formatExpiry, isExpired } from "~/lib/card";
import { surchargeRates } from "~/lib/surcharges";
import { formatMoney, parseMoneyToCents, type PageDates } from "~/lib/format";
import { pageDates } from "../host/language.server";
import type { MessageKey } from "~/lib/i18n";
import { breakdownView, decimal, type PayFormReply, type PayMethodChoice } from "~/lib/pay-form";
import { payToSetUpPath, requestPagePath, type AmountPageChoice } from "~/lib/pay-return";
import { computeCreditPayment, requestFeeRules } from "~/lib/payment-calc";
import { todayIso } from "~/lib/payment-method-schemas";
import type { HostBranding } from "../host/host.server";
import { gatewayContextFrom, listCards } from "../payment-methods/payment-methods.server";
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
  type FeeMethod,
} from "../payments/pay-form.server";
import { requestAmountProblem } from "../payments/claim.server";
import { previewPayment } from "../payments/payable.server";
import { submitPayment } from "../payments/submit.server";
import { getAccountPayId, peekAccountPayId } from "../payments/payto/payids.server";
import { payToChoices } from "../payments/payto/payto-payments.server";
import { payToConfigurationOf } from "../payments/payto/settings.server";
import { readForm } from "../platform/http.server";
import { findInvoice } from "../payments/invoices.server";
import { invoiceFacts } from "../payments/invoice-view.server";
import { getPageContext } from "../auth/auth.server";
import { LINK_PAGE_HEADERS, linkInvalid, notUnderThisLink } from "./link-pages.server";
import { checkLinkAccess } from "./link-tokens.server";
import { requestOrigin } from "../platform/request-context.server";
import {
  businessContact,
  closedReason,
  loadPayerRequest,
  previewableRequest,
  type ClosedReason,
  spreadOverInvoices,
  type PayerRequest,
} from "./request-links.server";

/**
 * One payment request's page, for both ways in (issue 14; decision 031):
 * - by its emailed link (`/customer/payment-request/<token>`): the link's contact pays, with a
 *   new card only (no saving), or by transfer to the account's PayID;
 * - signed in (`/payment/payment-request/<reference>`): a contact of the account pays with the
 *   account's saved cards, its active PayTo agreements or a new card (saved if they may).
 * The routes decide who the payer is; this module shows the request and takes the payment.
 */
export type RequestPayer = {
  branding: HostBranding;
  request: PayerRequest;
  actor: { businessId: string; accountId: string; contactId: string; clientIp: string };
  /** The link paid from (its payments' receipts follow the browser), or null when signed in. */
  linkTokenId: string | null;
  /** Signed in with portal access: the account's saved methods are offered; else a new card only (decision 056). */
  signedIn: boolean;
  mayManagePaymentMethods: boolean;
  /** The way in no longer takes money (a link that expired or was replaced), whatever the request's state. */
  closed?: boolean;
  /** The link's contact may no longer act for the account: the action answers nothing, not even a repeat. */
  withdrawn?: boolean;
  /**
   * Signed in: makes the request's account the selected one, which the payment-methods pages act
   * on, before "Set up PayTo" goes there (the request's account need not be the selected one).
   */
  selectAccount?: () => Promise<void>;
  /** A brand preview of the link's page (decision 082): the view writes nothing (no PayID is registered). */
  readOnly?: boolean;
};

/** What the closed page shows: why, and whom to ask. */
export async function closedView(
  branding: HostBranding,
  reference: string,
  reason: ClosedReason | "replaced" | "withdrawn",
) {
  return {
    kind: "closed" as const,
    reason,
    reference,
    businessName: branding.businessName,
    contact: await businessContact(branding.businessId),
  };
}

async function methodsFor(payer: RequestPayer) {
  const { branding, actor } = payer;
  if (!payer.signedIn) return { cards: [], payTo: { enabled: false, providerName: "", agreements: [] } };
  // Card expiry is the card network's date, as the gateway judges it (decision 078).
  const today = todayIso();
  const [cards, payTo] = await Promise.all([listCards(actor), payToChoices(actor, payToConfigurationOf(branding))]);
  // The account's saved cards and agreements are for contacts with portal access (decision 056).
  if (!payer.mayManagePaymentMethods) return { cards: [], payTo: { ...payTo, agreements: [] } };
  return { cards: cards.filter((card) => !isExpired(card.expiryMonth, card.expiryYear, today)), payTo };
}

/** The breakdown of paying `cents` of the request with `method` (the engine's own arithmetic). */
async function preview(payer: RequestPayer, cents: number, method: FeeMethod, today: string) {
  const { request, branding, actor } = payer;
  if (request.kind === "amount") {
    return computeCreditPayment(cents, method.kind === "card" ? method : { kind: "payto" }, branding.feeRules);
  }
  const selection = spreadOverInvoices(request, cents);
  if (!selection) return null;
  const invoices = request.invoices.filter((i) => selection.some((s) => s.invoiceId === i.id));
  const amounts = Object.fromEntries(selection.map((s) => [s.invoiceId, s.amountCents]));
  // What the email asked, plus a card's surcharge: no late fee, no discount (decision 075).
  return previewPayment(actor, invoices, amounts, method, today, requestFeeRules(branding.feeRules));
}

/**
 * A part payment the payer chose, in cents, when the request allows one and the amount is one it
 * would take (within what is left, not below its minimum); else null, and the page offers all of it.
 */
function partAmount(request: PayerRequest, cents: number | null): number | null {
  if (!request.allowPartPayment || cents === null || !Number.isSafeInteger(cents)) return null;
  if (cents <= 0 || cents >= request.remainingCents) return null;
  return requestAmountProblem({ ...request, open: true }, cents, request.remainingCents) ? null : cents;
}

/**
 * The request's signed-in page (`/payment/payment-request/<reference>`), with the part payment
 * typed as whole cents (`?amount=`): "Sign in to use a saved card" comes back to the same amount
 * after signing in, and "Set up PayTo" after the agreement is approved (with `agreement=<id>`
 * added by the agreement's page; decision 077). The query is read back by `amountPageChoiceOf`.
 */
export function signedInRequestPath(request: PayerRequest, cents: number | null = null): string {
  return requestPagePath(request.reference, {
    amountCents: partAmount(request, cents),
    reference: null,
    agreementId: null,
  });
}

/**
 * The page's data while the request takes money; `chosen`, what its signed-in address says was
 * chosen before: a part payment (checked here as any typed one) and an agreement (chosen only if
 * it is an active one of the account the contact may use).
 */
export async function openView(
  payer: RequestPayer,
  dates: PageDates,
  links: { invoiceHref: (id: string) => string; signInHref: string | null },
  chosen: Pick<AmountPageChoice, "amountCents" | "agreementId"> = { amountCents: null, agreementId: null },
) {
  const { branding, request } = payer;
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const { date } = dates;
  const today = businessToday(branding.timeZone);
  const config = payToConfigurationOf(branding);
  const [methods, payId] = await Promise.all([
    methodsFor(payer),
    config.enabled
      ? (payer.readOnly ? peekAccountPayId : getAccountPayId)({
          businessId: branding.businessId,
          hostname: branding.hostname,
          accountId: request.accountId,
          accountNumber: request.accountNumber,
        })
      : null,
  ]);
  // An agreement named in the address (the way back from "Set up PayTo") is chosen, and prices the total.
  const namedAgreement = methods.payTo.agreements.find((a) => a.id === chosen.agreementId && a.status === "ACTIVE");
  const defaultCard = namedAgreement ? undefined : (methods.cards.find((card) => card.isDefault) ?? methods.cards[0]);
  const activeAgreement = namedAgreement ?? methods.payTo.agreements.find((a) => a.status === "ACTIVE");
  const feeMethod: FeeMethod = defaultCard ? { kind: "card", brand: defaultCard.brand } : { kind: "payto" };
  const amountCents = partAmount(request, chosen.amountCents) ?? request.remainingCents;
  const breakdown = await preview(payer, amountCents, feeMethod, today);
  return {
    kind: "open" as const,
    businessName: branding.businessName,
    requestGuid: randomUUID(),
    request: {
      reference: request.reference,
      description: request.description,
      kind: request.kind,
      owing: money(request.remainingCents),
      remaining: decimal(request.remainingCents),
      // What earlier payments (or others, on its invoices) have paid of what the email first asked.
      paidSoFar:
        request.amountCents > request.remainingCents ? money(request.amountCents - request.remainingCents) : null,
      /** The amount field's value: all that is left, or the part payment chosen before signing in. */
      amount: decimal(amountCents),
      dueDate: request.dueDate ? date(request.dueDate) : null,
      expires: date(request.expiresAt),
      // The part-payment field shows only where the request allows one.
      partPayment: request.allowPartPayment
        ? {
            min: request.minPartPaymentCents
              ? money(Math.min(request.minPartPaymentCents, request.remainingCents))
              : null,
          }
        : null,
    },
    invoices: request.invoices.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      dueDate: date(invoice.dueDate),
      asked: money(invoice.askedCents),
      balance: money(invoice.balanceCents),
      href: links.invoiceHref(invoice.id),
    })),
    methods: {
      cards: methods.cards.map((card) => ({
        id: card.cardId,
        name: `${BRAND_LABELS[card.brand]} •••• ${card.last4}`,
        expiry: formatExpiry(card.expiryMonth, card.expiryYear),
      })),
      agreements: methods.payTo.agreements.map(agreementView),
      payTo: {
        enabled: methods.payTo.enabled,
        providerName: methods.payTo.providerName,
        // A button of the pay form that comes back here with the amount typed (decision 077).
        setUp: payer.signedIn ? (payer.mayManagePaymentMethods ? ("return" as const) : ("noAccess" as const)) : null,
      },
      promise: false,
      saveCard: payer.signedIn && payer.mayManagePaymentMethods,
    },
    method: (defaultCard
      ? { kind: "card", cardId: defaultCard.cardId }
      : activeAgreement
        ? { kind: "payto", agreementId: activeAgreement.id }
        : { kind: "new" }) as PayMethodChoice,
    breakdown: breakdown ? breakdownView(breakdown, branding.currency) : null,
    payId: payId && (payId.status === "ready" || payId.status === "unavailable") ? payId : null,
    // The line before the button: what a card adds, and that the PayID adds nothing (decision 075).
    surcharges: surchargeRates(branding.feeRules, branding.currency),
    signInHref: links.signInHref,
  };
}

/**
 * A brand preview of the link's page (decision 082): the business's newest open request as its
 * link's payer sees it (a new card only), built without the link's token and writing nothing;
 * null when no request takes money. The invoices' pages open only under a real token: "#" here.
 */
export async function requestLinkPreview(request: Request, branding: HostBranding) {
  const open = await previewableRequest(branding.businessId);
  if (!open) return null;
  const page = await openView(
    {
      branding,
      request: open,
      actor: { businessId: branding.businessId, accountId: open.accountId, contactId: "", clientIp: "" },
      linkTokenId: null,
      signedIn: false,
      mayManagePaymentMethods: false,
      readOnly: true,
    },
    await pageDates(request, branding),
    { invoiceHref: () => "#", signInHref: `/payment/payment-request/${open.reference}` },
  );
  return { source: open.reference, page };
}

/**
 * The request's pay action: quote, review or pay. A payment that goes through calls `paid`
 * (the route redirects to the receipt, with what it must remember); anything else is the
 * form again with what went wrong, and nothing charged.
 */
export async function requestPayAction(
  httpRequest: Request,
  payer: RequestPayer,
  paid: (reference: string) => Promise<TypedResponse<never>>,
): Promise<TypedResponse<never> | ReturnType<typeof data<PayFormReply>>> {
  const { branding, request, actor } = payer;
  const form = await readForm(httpRequest);
  const { intent, text, reply } = startPayReply(form);
  if (payer.withdrawn) {
    reply.message = "request.error.closed";
    return data(reply, { status: 409 });
  }
  // "Sign in to use a saved card" from the link's page: a button of the form, so the part payment
  // typed comes along (decision 077). Nothing is charged and the card fields are not read.
  if (form.get("intent") === "signIn" && !payer.signedIn) {
    const typed = parseMoneyToCents(text("amount", 40));
    return redirect(signedInRequestPath(request, typed.ok ? typed.cents : null));
  }
  // "Set up PayTo", signed in: to the set-up with the way back here and the part payment typed
  // (decision 077). Offered only to a contact who may manage payment methods where PayTo is on,
  // while the request takes money; a crafted POST otherwise is a 400 and changes nothing.
  if (form.get("intent") === "setUpPayTo") {
    const offered =
      payer.signedIn &&
      payer.mayManagePaymentMethods &&
      payer.selectAccount !== undefined &&
      payToConfigurationOf(branding).enabled &&
      !payer.closed &&
      !closedReason(request);
    if (!offered) return data(reply, { status: 400 });
    const typed = parseMoneyToCents(text("amount", 40));
    await payer.selectAccount!();
    return redirect(payToSetUpPath(signedInRequestPath(request, typed.ok ? typed.cents : null)));
  }
  if (!intent) return data(reply, { status: 400 });
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  if (intent === "pay") {
    const prior = await priorAnswer(actor, text("requestGuid", 40), reply);
    if (prior && "reference" in prior) return paid(prior.reference);
    if (prior) return data(reply, { status: prior.status });
  }
  if (payer.closed || closedReason(request)) {
    reply.message = "request.error.closed";
    return data(reply, { status: 409 });
  }
  const remaining = request.remainingCents;
  const params = {
    remaining: money(remaining),
    min: money(Math.min(request.minPartPaymentCents ?? 1, remaining)),
  };
  // In full unless the request allows part-payment: then the typed amount, within its rules.
  let cents: number | null = remaining;
  if (request.allowPartPayment) {
    cents = typedAmount(reply, "amount", text("amount", 40), remaining, "requestPage.error.amount.aboveRemaining");
    const problem = cents === null ? null : requestAmountProblem({ ...request, open: true }, cents, remaining);
    if (problem) {
      reply.errors.amount = `requestPage.error.amount.${problem}` as MessageKey;
      reply.message = `request.error.${problem === "requestClosed" ? "closed" : problem}` as MessageKey;
      reply.messageParams = params;
      cents = null;
    } else if (reply.errors.amount === "requestPage.error.amount.aboveRemaining") {
      reply.message = "request.error.aboveRemaining";
      reply.messageParams = params;
    }
  }
  const methods = await methodsFor(payer);
  const today = businessToday(payer.branding.timeZone);
  const holder = { businessId: actor.businessId, accountId: actor.accountId, contactId: actor.contactId };
  const held = await heldChoice(httpRequest, reply, holder, text("requestGuid", 40));
  const { payMethod, feeMethod } = resolvePayMethod(form, intent, reply, {
    cards: methods.cards,
    agreements: methods.payTo.agreements,
    promise: false,
    mayManagePaymentMethods: payer.signedIn && payer.mayManagePaymentMethods,
    today,
    actor,
    held,
  });
  const breakdown = cents === null ? null : await preview(payer, cents, feeMethod, today);
  if (breakdown) reply.breakdown = breakdownView(breakdown, branding.currency);
  const ready = readyToPay(intent, reply, payMethod);
  if (ready !== true || !payMethod || cents === null) return data(reply, { status: ready === true ? 400 : ready });
  const gateway = gatewayContextFrom(httpRequest, actor.clientIp, requestOrigin(httpRequest));
  // The total or the action differs from what the button showed: confirm, never refuse (decision 071).
  const step = await confirmOrPay(httpRequest, form, reply, payMethod, {
    holder,
    context: gateway,
    feeMethod,
    feeRules: branding.feeRules,
    currency: branding.currency,
    timeZone: branding.timeZone,
    held: held?.card,
  });
  if (!step.pay) return data(reply, { status: step.status, headers: step.headers });
  const selection = request.kind === "invoices" ? (spreadOverInvoices(request, cents) ?? []) : [];
  const outcome = await submitPayment(
    actor,
    {
      requestGuid: text("requestGuid", 40),
      selection,
      paymentFor:
        request.kind === "amount"
          ? { kind: "request", requestId: request.id, creditCents: cents }
          : { kind: "request", requestId: request.id },
      ...(payer.linkTokenId ? { linkTokenId: payer.linkTokenId } : {}),
      method: step.payMethod,
      note: "",
      currency: branding.currency,
      today,
      expectedAmountCents: step.expectedAmountCents,
    },
    gateway,
  );
  // A refusal names what is owing now (another tab may have paid some of it meanwhile).
  const fresh = outcome.kind === "invalid" ? await loadPayerRequest(branding.businessId, { id: request.id }) : null;
  const done = await finishPayment(outcome, {
    branding,
    payMethod,
    reply,
    messageParams: fresh
      ? {
          remaining: money(fresh.remainingCents),
          min: money(Math.min(fresh.minPartPaymentCents ?? 1, fresh.remainingCents)),
        }
      : params,
  });
  if ("reference" in done) return paid(done.reference);
  return data(reply, { status: done.status });
}

/**
 * One invoice the request covers, to view and print, or "Page not found" for any other id
 * (another account's invoice, or one of this account the request does not cover).
 */
export async function requestInvoiceView(
  branding: HostBranding,
  request: PayerRequest,
  invoiceId: string | undefined,
  backHref: string,
  dates: PageDates,
) {
  if (!request.invoices.some((invoice) => invoice.id === invoiceId)) throw notUnderThisLink();
  const invoice = await findInvoice({ businessId: branding.businessId, accountId: request.accountId }, invoiceId);
  if (!invoice) throw notUnderThisLink();
  return {
    kind: "invoice" as const,
    businessName: branding.businessName,
    reference: request.reference,
    account: { name: request.accountName, number: request.accountNumber },
    invoice: invoiceFacts(branding, invoice, dates),
    backHref,
    /** The same invoice as a PDF, under the same link (issue 34). */
    pdfHref: `${backHref}/invoice/${invoice.id}/pdf`,
  };
}

/**
 * One invoice a payment request covers, through the request's own link, for its page and its PDF alike
 * (issue 34): only the request's invoices (any other id is "Page not found"); a token that does not check
 * out is "This link isn't valid"; a link that no longer opens the request goes back to the request's page,
 * which says why.
 */
export async function payerRequestInvoice(request: Request, token: string | undefined, invoiceId: string | undefined) {
  const { branding } = await getPageContext(request);
  const access = await checkLinkAccess(branding.businessId, "payment-request", token, (link) =>
    loadPayerRequest(branding.businessId, { id: link.subjectId }),
  );
  if (access.status === "unknown") throw linkInvalid();
  const requestPage = `/customer/payment-request/${token}`;
  if (access.status !== "valid") throw redirect(requestPage, { headers: LINK_PAGE_HEADERS });
  const dates = await pageDates(request, branding);
  return { branding, view: await requestInvoiceView(branding, access.record, invoiceId, requestPage, dates) };
}

/** The receipt after paying: a plain redirect (the route adds the headers and cookies it needs). */
export const toReceipt = (reference: string, headers: HeadersInit = {}) =>
  redirect(`/payment/complete/${encodeURIComponent(reference)}`, { headers });
