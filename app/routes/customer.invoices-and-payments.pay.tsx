import { randomUUID } from "node:crypto";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import * as payStyles from "~/styles/pay.css";
import { visuallyHidden } from "~/styles/global.css";
import {
  BRAND_LABELS,
  brandFromPrefix,
  CARD_PREFIX_MAX,
  cardDigits,
  detectBrand,
  formatExpiry,
  isExpired,
} from "~/lib/card";
import { formatDate, formatMoney, MONEY_ERRORS, parseMoneyToCents } from "~/lib/format";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { payCardSchema, todayIso } from "~/lib/payment-method-schemas";
import type { PaymentBreakdown } from "~/lib/payment-calc";
import { readForm } from "~/services/platform/http.server";
import { listCards } from "~/services/payment-methods/payment-methods.server";
import {
  findPaymentByGuid,
  loadPayable,
  previewPayment,
  submitPayment,
  type PayMethod,
  type PaymentOutcome,
} from "~/services/payments/payments.server";
import { sendReceipt } from "~/services/payments/receipts.server";
import { payToConfigurationOf } from "~/services/payments/payto/settings.server";
import { payToChoices, type PayToChoice } from "~/services/payments/payto/payto-payments.server";
import { clientAddress, requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
import { gatewayContextFrom } from "~/services/payment-methods/payment-methods.server";
import { requireCustomerAccountPage } from "~/services/accounts/portal.server";
import { hasPortalAccess } from "~/services/auth/access.server";
import { logger } from "~/services/platform/logger.server";

/**
 * Pay invoices (issue 3): choose amounts (in full or part), a saved card, a new card or a
 * promise to pay; the server computes fees, late fees and discounts and shows the total, and
 * charges only the total the customer saw. Each render carries a new requestGuid: a double
 * click, a reload of the POST or a second tab never charges twice. Works without JavaScript.
 *
 * Only the chosen method's fields show (CSS `:has()`, no script). With JavaScript the total
 * follows the amounts and the method as they change: a debounced fetcher posts
 * `intent=quote`, which the action answers with the server's breakdown and never charges.
 */
type Method =
  { kind: "card"; cardId: string } | { kind: "new" } | { kind: "promise" } | { kind: "payto"; agreementId: string };

/** The radio's value for a method (the `:has()` rules look at its prefix). */
const methodValueOf = (method: Method) =>
  method.kind === "card"
    ? `card:${method.cardId}`
    : method.kind === "payto"
      ? `payto:${method.agreementId}`
      : method.kind;

async function pageContext(request: Request) {
  const context = await requireCustomerAccountPage(request);
  const { branding, account, session } = context;
  const actor = {
    businessId: branding.businessId,
    accountId: account.accountId,
    contactId: session.contact.id,
    clientIp: clientAddress(request),
  };
  const params = new URL(request.url).searchParams;
  const ids = params.get("all") === "1" ? ("all" as const) : params.getAll("invoice");
  const [invoices, cards, payTo] = await Promise.all([
    loadPayable(actor, ids),
    listCards(actor),
    payToChoices(actor, payToConfigurationOf(branding)),
  ]);
  const today = todayIso();
  const usable = cards.filter((card) => !isExpired(card.expiryMonth, card.expiryYear, today));
  // Anyone signed in may pay here (spec §2 customer-style), but a saved card is on the account
  // for every contact to use: saving one is managing payment methods, which needs portal access.
  const mayManagePaymentMethods = hasPortalAccess(session.contact);
  return { ...context, actor, invoices, cards: usable, payTo, today, mayManagePaymentMethods };
}

/** An agreement as the page names it: the PayID, or the BSB and the account's last digits. */
function agreementView(choice: PayToChoice) {
  return {
    id: choice.id,
    status: choice.status,
    payId: choice.payId,
    bsb: choice.bsb ? `${choice.bsb.slice(0, 3)}-${choice.bsb.slice(3)}` : null,
    last3: choice.accountLast3,
  };
}

const money = (cents: number, currency: string) => formatMoney(cents, { currency });
const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

function breakdownView(b: PaymentBreakdown, currency: string) {
  return {
    subTotal: money(b.subTotal, currency),
    lateFee: b.totalLateFee > 0 ? money(b.totalLateFee, currency) : null,
    discount: b.totalDiscount > 0 ? money(b.totalDiscount, currency) : null,
    surcharge: b.merchantFeeComponent > 0 ? money(b.merchantFeeComponent, currency) : null,
    total: money(b.amount, currency),
    totalCents: b.amount,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, actor, invoices, cards, payTo, today, mayManagePaymentMethods } = await pageContext(request);
  const defaultCard = cards.find((card) => card.isDefault) ?? cards[0];
  const activeAgreement = payTo.agreements.find((a) => a.status === "ACTIVE");
  const amounts = Object.fromEntries(invoices.map((i) => [i.id, i.availableCents]));
  const payable = invoices.filter((i) => i.availableCents > 0);
  const breakdown = payable.length
    ? await previewPayment(
        actor,
        payable,
        amounts,
        defaultCard ? { kind: "card", brand: defaultCard.brand } : { kind: "payto" },
        today,
        branding.feeRules,
      )
    : null;
  return {
    businessName: branding.businessName,
    currency: branding.currency,
    requestGuid: randomUUID(),
    mayManagePaymentMethods,
    invoices: payable.map((i) => ({
      id: i.id,
      number: i.number,
      dueDate: formatDate(i.dueDate, { timeZone: branding.timeZone }),
      balance: money(i.availableCents, branding.currency),
      amount: decimal(i.availableCents),
    })),
    cards: cards.map((card) => ({
      id: card.cardId,
      name: `${BRAND_LABELS[card.brand]} •••• ${card.last4}`,
      expiry: formatExpiry(card.expiryMonth, card.expiryYear),
      isDefault: card.isDefault,
    })),
    payTo: {
      enabled: payTo.enabled,
      providerName: payTo.providerName,
      agreements: payTo.agreements.map(agreementView),
    },
    method: (defaultCard
      ? { kind: "card", cardId: defaultCard.cardId }
      : activeAgreement
        ? { kind: "payto", agreementId: activeAgreement.id }
        : { kind: "new" }) as Method,
    breakdown: breakdown ? breakdownView(breakdown, branding.currency) : null,
  };
}

type ActionResult = {
  requestGuid: string;
  amounts: Record<string, string>;
  method: Method;
  note: string;
  promiseDate: string;
  holder: string;
  errors: Record<string, MessageKey>;
  message: MessageKey | null;
  messageParams?: Record<string, string>;
  /** A PayTo rejection's reason, translated into the message's {reason}. */
  reasonKey?: MessageKey;
  breakdown: ReturnType<typeof breakdownView> | null;
};

const MONEY_ERROR_KEYS: Record<string, MessageKey> = {
  [MONEY_ERRORS.format]: "pay.error.amount.format",
  [MONEY_ERRORS.decimals]: "pay.error.amount.decimals",
  [MONEY_ERRORS.negative]: "pay.error.amount.negative",
  [MONEY_ERRORS.tooLarge]: "pay.error.amount.tooLarge",
};

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, actor, invoices, cards, payTo, today, mayManagePaymentMethods } = await pageContext(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const text = (name: string, max = 200) => String(form.get(name) ?? "").slice(0, max);
  const methodValue = text("method", 60);
  const method: Method =
    methodValue === "new"
      ? { kind: "new" }
      : methodValue === "promise"
        ? { kind: "promise" }
        : methodValue.startsWith("payto:")
          ? { kind: "payto", agreementId: methodValue.slice("payto:".length) }
          : { kind: "card", cardId: methodValue.replace(/^card:/, "") };
  const result: ActionResult = {
    requestGuid: randomUUID(),
    amounts: {},
    method,
    note: text("note", 500),
    promiseDate: text("promiseDate", 10),
    holder: text("cardHolderName", 100),
    errors: {},
    message: null,
    breakdown: null,
  };
  const reply = (status: number) => data(result, { status });
  // pay: charge; review ("Update total"): the page again with the new total; quote (the live
  // total's fetcher): the same answer without a page. Only "pay" ever charges.
  if (intent !== "pay" && intent !== "review" && intent !== "quote") {
    result.message = "pay.error.form";
    return reply(400);
  }
  if (intent === "pay") {
    const prior = await findPaymentByGuid(actor, text("requestGuid", 40));
    if (
      prior &&
      prior.kind !== "declined" &&
      prior.kind !== "conflict" &&
      prior.kind !== "invalid" &&
      prior.reference
    ) {
      return redirect(`/payment/complete/${prior.reference}`);
    }
    if (prior?.kind === "declined") {
      if (prior.method === "payto") {
        result.message = "paytoPay.error.rejected";
        result.reasonKey = `paytoPay.reason.${prior.refusal}` as MessageKey;
      } else result.message = `pm.refusal.${prior.refusal}` as MessageKey;
      return reply(402);
    }
  }
  if (invoices.length === 0) {
    result.message = "pay.error.nothing";
    return reply(400);
  }

  // Amounts, typed as decimals, exact to the cent, 0 < amount ≤ balance.
  const amounts: Record<string, number> = {};
  for (const invoice of invoices) {
    const typed = text(`amount-${invoice.id}`, 40);
    result.amounts[invoice.id] = typed;
    const parsed = parseMoneyToCents(typed);
    if (!parsed.ok) result.errors[`amount-${invoice.id}`] = MONEY_ERROR_KEYS[parsed.error] ?? "pay.error.amount.format";
    else if (parsed.cents === 0) result.errors[`amount-${invoice.id}`] = "pay.error.amount.zero";
    else if (parsed.cents > invoice.availableCents)
      result.errors[`amount-${invoice.id}`] = "pay.error.amount.aboveBalance";
    else amounts[invoice.id] = parsed.cents;
  }

  let payMethod: PayMethod | null = null;
  let brandForFees:
    { kind: "card"; brand: NonNullable<ReturnType<typeof detectBrand>> } | { kind: "payto" } | { kind: "promise" } = {
    kind: "payto",
  };
  if (method.kind === "card") {
    const card = cards.find((c) => c.cardId === method.cardId);
    if (!card) result.errors.method = "pay.error.method";
    else {
      payMethod = { kind: "saved-card", cardId: card.cardId };
      brandForFees = { kind: "card", brand: card.brand };
    }
  } else if (method.kind === "payto") {
    // Only an ACTIVE agreement of this account; a pending or paused one is listed but not offered.
    const agreement = payTo.agreements.find((a) => a.id === method.agreementId && a.status === "ACTIVE");
    if (!agreement) result.errors.method = "paytoPay.error.agreement";
    else payMethod = { kind: "payto", agreementId: agreement.id };
  } else if (method.kind === "promise") {
    const date = result.promiseDate;
    const max = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)) || date <= today || date > max)
      result.errors.promiseDate = "pay.error.promiseDate";
    else {
      payMethod = { kind: "promise", promiseDate: date };
      brandForFees = { kind: "promise" };
    }
  } else {
    // A quote carries only the number's first digits (cardPrefix): the brand prices the surcharge,
    // and the whole number travels only when paying (to the gateway) or with "Update total".
    const digits = intent === "quote" ? null : cardDigits(text("cardNumber", 30));
    const brand = digits ? detectBrand(digits) : intent === "quote" ? brandFromPrefix(text("cardPrefix", 30)) : null;
    if (brand) brandForFees = { kind: "card", brand };
    if (intent === "pay") {
      const askedToSave = form.get("saveCard") === "on";
      if (askedToSave && !mayManagePaymentMethods) {
        // The box is not shown to this contact: a crafted POST. Pay, but save nothing.
        logger.warn("pay: saveCard ignored, the contact may not manage payment methods", {
          businessId: actor.businessId,
          contactId: actor.contactId,
        });
      }
      const parsed = payCardSchema(today).safeParse({
        cardNumber: text("cardNumber", 30) || undefined,
        cardHolderName: result.holder || undefined,
        expiryMonth: text("expiryMonth", 2) || undefined,
        expiryYear: text("expiryYear", 4) || undefined,
        cvn: text("cvn", 4) || undefined,
        saveCard: askedToSave && mayManagePaymentMethods,
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) result.errors[String(issue.path[0])] ??= issue.message as MessageKey;
      } else {
        payMethod = {
          kind: "new-card",
          card: { ...parsed.data, authorityReference: `WEB-PAY-${result.requestGuid.slice(0, 8)}` },
        };
      }
    }
  }

  const complete = Object.keys(amounts).length === invoices.length;
  if (complete) {
    result.breakdown = breakdownView(
      await previewPayment(actor, invoices, amounts, brandForFees, today, branding.feeRules),
      branding.currency,
    );
  }
  if (intent !== "pay" || Object.keys(result.errors).length > 0 || !payMethod || !result.breakdown) {
    if (intent === "pay" && !result.message) result.message = "pay.error.form";
    return reply(intent === "pay" ? 400 : 200);
  }
  // The client never sets the price: what is charged is what the server shows, and the
  // customer must have seen exactly this total.
  const expected = Number(text("expectedAmount", 14));
  if (expected !== result.breakdown.totalCents) {
    result.message = "pay.error.totalChanged";
    result.messageParams = { total: result.breakdown.total };
    return reply(409);
  }
  const outcome = await submitPayment(
    actor,
    {
      requestGuid: text("requestGuid", 40),
      selection: invoices.map((i) => ({ invoiceId: i.id, amountCents: amounts[i.id]! })),
      method: payMethod,
      note: result.note,
      currency: branding.currency,
      today,
      expectedAmountCents: expected,
    },
    gatewayContextFrom(request, actor.clientIp, requestOrigin(request)),
  );
  switch (outcome.kind) {
    case "succeeded":
    case "promised":
    case "pending":
    case "submitted":
      // A PayTo payment's receipt goes from whichever call settles it (payto-payments.server.ts).
      if ((outcome.kind === "succeeded" && payMethod.kind !== "payto") || outcome.kind === "promised") {
        await sendReceipt(branding, outcome.paymentId);
      }
      return redirect(`/payment/complete/${outcome.reference}`);
    case "declined":
      if (outcome.method === "payto") {
        result.message = "paytoPay.error.rejected";
        result.reasonKey = `paytoPay.reason.${outcome.refusal}` as MessageKey;
      } else result.message = `pm.refusal.${outcome.refusal}` as MessageKey;
      return reply(402);
    case "conflict":
      result.message = "pay.error.conflict";
      return reply(409);
    case "invalid":
      result.message = INVALID_MESSAGES[outcome.problem];
      result.messageParams = { total: result.breakdown.total };
      if (outcome.problem === "limit" && payMethod.kind === "payto") {
        const chosen = payMethod.agreementId;
        const max = payTo.agreements.find((a) => a.id === chosen)?.maxCents ?? 0;
        result.messageParams.max = money(max, branding.currency);
      }
      return reply(409);
  }
}

const INVALID_MESSAGES: Record<Extract<PaymentOutcome, { kind: "invalid" }>["problem"], MessageKey> = {
  amount: "pay.error.totalChanged",
  card: "pay.error.method",
  invoice: "pay.error.nothing",
  request: "pay.error.nothing",
  agreement: "paytoPay.error.agreement",
  agreementInactive: "paytoPay.error.agreementInactive",
  limit: "paytoPay.error.limit",
  method: "paytoPay.error.disabled",
  // This page pays invoices only: it never names a request or an ad-hoc amount.
  requestClosed: "request.error.closed",
  fullPaymentRequired: "pay.error.nothing",
  belowMinimum: "pay.error.nothing",
  aboveRemaining: "pay.error.nothing",
  adhocDisabled: "pay.error.nothing",
  aboveMaximum: "pay.error.nothing",
};

/** Spec default: wait this long after the last change before asking the server for the total. */
const LIVE_TOTAL_DEBOUNCE_MS = 500;

/** What the live total sends: what the price depends on, never the CVN, expiry or name. */
/** The fields whose change asks for a new total; the card number is sent only as its first digits. */
const QUOTE_FIELDS = ["method", "cardNumber", "promiseDate"];

/** A quote changes nothing the loader reads: no reload of the page's data for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "quote" ? false : defaultShouldRevalidate;

export default function Pay() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const t = useT();
  const state = actionData ?? null;
  const requestGuid = state?.requestGuid ?? loaded.requestGuid;
  const live = useLiveTotal(requestGuid, `${location.pathname}${location.search}`);
  const quote = live.quote;
  const rendered = state?.method ?? loaded.method;
  const renderedValue = methodValueOf(rendered);
  const [chosen, setChosen] = useState({ requestGuid, value: renderedValue });
  const methodValue = chosen.requestGuid === requestGuid ? chosen.value : renderedValue;
  // The newest answer wins: a quote made for this form, else the action's, else the loader's.
  const breakdown = quote ? quote.breakdown : state ? state.breakdown : loaded.breakdown;
  const errors: Record<string, string> = { ...(state?.errors ?? {}) };
  if (quote) {
    for (const name of Object.keys(errors)) if (name.startsWith("amount-")) delete errors[name];
    for (const [name, key] of Object.entries(quote.errors)) if (name.startsWith("amount-")) errors[name] = key;
  }
  const message = quote && state?.message === "pay.error.totalChanged" ? null : (state?.message ?? null);
  const error = (name: string) => (errors[name] ? t(errors[name] as MessageKey) : null);
  const activeAgreements = loaded.payTo.agreements.filter((a) => a.status === "ACTIVE");
  const waitingAgreements = loaded.payTo.agreements.filter((a) => a.status !== "ACTIVE");
  const agreementName = (a: (typeof loaded.payTo.agreements)[number]) =>
    a.payId ?? t("paytoPay.method.bban", { bsb: a.bsb ?? "", last3: a.last3 ?? "" });
  if (loaded.invoices.length === 0) {
    return (
      <>
        <h1>{t("pay.title")}</h1>
        <p>{t("pay.error.nothing")}</p>
        <Link to="/customer/invoices-and-payments/invoices">{t("pay.backToInvoices")}</Link>
      </>
    );
  }
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.name === "method") setChosen({ requestGuid, value: target.value });
    if (target.name === "method" || target.name.startsWith("amount-") || QUOTE_FIELDS.includes(target.name)) {
      live.schedule(event.currentTarget);
    }
  };
  // Several invoices' amounts fold under one line (the method comes up the page), open when
  // the server answered about them: an amount with an error, or one not paid in full.
  const several = loaded.invoices.length > 1;
  const amountsOpen =
    !several ||
    loaded.invoices.some(
      (invoice) =>
        Boolean(state?.errors[`amount-${invoice.id}`]) ||
        (state?.amounts[invoice.id] ?? invoice.amount) !== invoice.amount,
    );
  const covers = several
    ? t("pay.covers.other", { count: String(loaded.invoices.length) })
    : t("pay.covers.one", { number: loaded.invoices[0]!.number });
  const amountFields = (
    <fieldset className={formStyles.fieldset}>
      <legend className={formStyles.legend}>{t("pay.invoices")}</legend>
      {loaded.invoices.map((invoice) => (
        <Field
          key={invoice.id}
          id={`amount-${invoice.id}`}
          name={`amount-${invoice.id}`}
          label={t("pay.amountFor", { number: invoice.number })}
          hint={t("pay.amountHint", { balance: invoice.balance, due: invoice.dueDate })}
          defaultValue={state?.amounts[invoice.id] ?? invoice.amount}
          inputMode="decimal"
          autoComplete="off"
          error={error(`amount-${invoice.id}`)}
        />
      ))}
    </fieldset>
  );
  return (
    <>
      <h1>{t("pay.title")}</h1>
      {/* What this payment covers and its total (the server's), in the first screen of a phone. */}
      <p className={payStyles.lead}>
        {covers}
        {breakdown ? (
          <>
            {" · "}
            {t("pay.totalToPay")} <strong>{breakdown.total}</strong>
          </>
        ) : null}
      </p>
      {message ? (
        <FormMessage kind="error">
          {t(message as MessageKey, {
            ...(state?.messageParams as Record<string, string> | undefined),
            ...(state?.reasonKey ? { reason: t(state.reasonKey) } : {}),
          })}
        </FormMessage>
      ) : null}
      <Form
        method="post"
        key={requestGuid}
        className={`${payStyles.form} ${payStyles.layout}`}
        noValidate
        onChange={onChange}
        onSubmit={(event) => {
          // Pay waits for the total of the last change: the customer pays the total they see.
          const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.value === "pay" && live.pending) {
            event.preventDefault();
            return;
          }
          live.cancel();
        }}
      >
        <input type="hidden" name="requestGuid" value={requestGuid} />
        {/* The total on screen and the total confirmed come from the same answer, always together. */}
        <input type="hidden" name="expectedAmount" value={breakdown?.totalCents ?? ""} />
        <div className={payStyles.fields}>
          {several ? (
            <details className={payStyles.amounts} open={amountsOpen}>
              <summary className={payStyles.amountsSummary}>
                {breakdown
                  ? t("pay.amounts.summaryTotal", {
                      count: String(loaded.invoices.length),
                      subtotal: breakdown.subTotal,
                    })
                  : t("pay.amounts.summary", { count: String(loaded.invoices.length) })}
                <span className={payStyles.change}>{t("pay.amounts.change")}</span>
              </summary>
              {amountFields}
            </details>
          ) : (
            amountFields
          )}
          <fieldset
            className={formStyles.fieldset}
            aria-describedby={error("method") ? "pay-method-error" : undefined}
            aria-invalid={error("method") ? true : undefined}
          >
            <legend className={formStyles.legend}>{t("pay.method")}</legend>
            {error("method") ? (
              <p id="pay-method-error" className={formStyles.error}>
                {error("method")}
              </p>
            ) : null}
            {loaded.cards.map((card) => (
              <MethodOption key={card.id} value={`card:${card.id}`} chosen={renderedValue}>
                {t("pay.savedCard", { card: card.name, expiry: card.expiry })}
              </MethodOption>
            ))}
            {activeAgreements.map((agreement) => (
              <MethodOption key={agreement.id} value={`payto:${agreement.id}`} chosen={renderedValue}>
                {t("paytoPay.method", { account: agreementName(agreement) })}
              </MethodOption>
            ))}
            <MethodOption value="new" chosen={renderedValue}>
              {t("pay.newCard")}
            </MethodOption>
            <MethodOption value="promise" chosen={renderedValue}>
              {t("pay.promise")}
            </MethodOption>
            {/* Listed, not offered: an agreement waiting for the payer's bank, or paused there. */}
            {waitingAgreements.map((agreement) => (
              <p key={agreement.id} className={formStyles.hint}>
                {t(agreement.status === "CREATED" ? "paytoPay.method.pending" : "paytoPay.method.suspended", {
                  account: agreementName(agreement),
                })}
              </p>
            ))}
            {loaded.payTo.enabled && activeAgreements.length === 0 ? (
              loaded.mayManagePaymentMethods ? (
                <p className={formStyles.hint}>
                  <Link to="/payment-methods/payto/new">{t("paytoPay.setUp")}</Link> {t("paytoPay.setUp.hint")}
                </p>
              ) : (
                <p className={formStyles.hint}>{t("paytoPay.setUp.noAccess")}</p>
              )
            ) : null}
          </fieldset>
          <p className={`${formStyles.hint} ${payStyles.payToFields}`}>
            {t("paytoPay.chosen", { provider: loaded.payTo.providerName })}
          </p>
          <fieldset className={`${formStyles.fieldset} ${payStyles.newCardFields}`}>
            <legend className={formStyles.legend}>{t("pay.newCard.details")}</legend>
            {/* Card number and CVN are never filled back in (PCI DSS 3.3.1). */}
            <Field
              id="cardNumber"
              name="cardNumber"
              label={t("pm.field.cardNumber")}
              inputMode="numeric"
              autoComplete="cc-number"
              error={error("cardNumber")}
            />
            <Field
              id="cardHolderName"
              name="cardHolderName"
              label={t("pm.field.holder")}
              autoComplete="cc-name"
              defaultValue={state?.holder ?? ""}
              error={error("cardHolderName")}
            />
            <div className={payStyles.expiry}>
              <div className={formStyles.narrow}>
                <Field
                  id="expiryMonth"
                  name="expiryMonth"
                  label={t("pm.field.expiryMonth")}
                  inputMode="numeric"
                  autoComplete="cc-exp-month"
                  error={error("expiryMonth")}
                />
              </div>
              <div className={formStyles.narrow}>
                <Field
                  id="expiryYear"
                  name="expiryYear"
                  label={t("pm.field.expiryYear")}
                  inputMode="numeric"
                  autoComplete="cc-exp-year"
                  error={error("expiryYear")}
                />
              </div>
            </div>
            <Field
              id="cvn"
              name="cvn"
              label={t("pm.field.cvn")}
              inputMode="numeric"
              autoComplete="cc-csc"
              error={error("cvn")}
            />
            {loaded.mayManagePaymentMethods ? (
              <div className={formStyles.checkboxField}>
                <input type="checkbox" id="saveCard" name="saveCard" className={formStyles.checkbox} />
                <label htmlFor="saveCard">{t("pay.saveCard", { business: loaded.businessName })}</label>
              </div>
            ) : null}
          </fieldset>
          <div className={payStyles.promiseFields}>
            <Field
              id="promiseDate"
              name="promiseDate"
              type="date"
              label={t("pay.promiseDate")}
              hint={t("pay.promiseDate.hint")}
              defaultValue={state?.promiseDate ?? ""}
              error={error("promiseDate")}
            />
          </div>
          <div className={formStyles.field}>
            <label className={formStyles.label} htmlFor="note">
              {t("pay.note", { business: loaded.businessName })}
            </label>
            <textarea
              id="note"
              name="note"
              maxLength={500}
              defaultValue={state?.note ?? ""}
              className={formStyles.input}
              rows={2}
            />
          </div>
        </div>
        {/* A card beside the fields on a desk; on a phone the bar of buttons sticks to the screen's foot. */}
        <div className={payStyles.summary}>
          {breakdown ? (
            <section aria-labelledby="breakdown-title" aria-busy={live.pending || undefined}>
              <h2 id="breakdown-title">{t("pay.breakdown")}</h2>
              <dl className={payStyles.breakdown}>
                <dt>{t("pay.subtotal")}</dt>
                <dd>{breakdown.subTotal}</dd>
                {breakdown.lateFee ? (
                  <>
                    <dt>{t("pay.lateFee")}</dt>
                    <dd>{breakdown.lateFee}</dd>
                  </>
                ) : null}
                {breakdown.discount ? (
                  <>
                    <dt>{t("pay.discount")}</dt>
                    <dd>−{breakdown.discount}</dd>
                  </>
                ) : null}
                {breakdown.surcharge ? (
                  <>
                    <dt>{t("pay.surcharge")}</dt>
                    <dd>{breakdown.surcharge}</dd>
                  </>
                ) : null}
                <dt>{t("pay.total")}</dt>
                <dd>
                  <strong>{breakdown.total}</strong>
                </dd>
              </dl>
            </section>
          ) : null}
          {/* Read out once per new total, only when it follows a change (not on page load). */}
          <p role="status" className={visuallyHidden}>
            {quote?.breakdown ? t("pay.liveTotal", { total: quote.breakdown.total }) : ""}
          </p>
          <div className={payStyles.bar}>
            {/* Without JavaScript this is how the total follows a change; with it, a fallback. */}
            <button type="submit" name="intent" value="review" className={secondaryButton}>
              {t("pay.update")}
            </button>
            <button
              type="submit"
              name="intent"
              value="pay"
              className={button}
              disabled={navigation.state === "submitting" || !breakdown}
              // Not `disabled` while a total is on its way: a focused button that becomes disabled
              // drops keyboard focus to the page, for half a second after every change.
              aria-disabled={live.pending || undefined}
            >
              {methodValue === "promise" ? t("pay.submitPromise") : t("pay.submit", { total: breakdown?.total ?? "" })}
            </button>
          </div>
        </div>
      </Form>
    </>
  );
}

/** One way to pay: a radio named `method`, whose value the page's `:has()` rules look at. */
function MethodOption({ value, chosen, children }: { value: string; chosen: string; children: ReactNode }) {
  const id = `method-${value.replace(/^card:/, "").replace(/^payto:/, "payto-")}`;
  return (
    <div className={formStyles.checkboxField}>
      <input
        type="radio"
        id={id}
        name="method"
        value={value}
        defaultChecked={chosen === value}
        className={formStyles.checkbox}
      />
      <label htmlFor={id}>{children}</label>
    </div>
  );
}

/**
 * The total as the customer changes the form: after a quiet spell, the form's price inputs
 * go to this route's action as `intent=quote`, which answers with the server's breakdown and
 * charges nothing. One fetcher per rendered form (its requestGuid), so an answer for an older
 * form never shows; a new quote aborts the one in flight, so only the latest answer lands.
 * While a change waits for its total, Pay waits too: the customer pays the total they see.
 */
function useLiveTotal(requestGuid: string, url: string) {
  const fetcher = useFetcher<typeof action>({ key: `pay-total-${requestGuid}` });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Which form a change is waiting for: a new form (new requestGuid) starts with nothing waiting.
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const waiting = waitingFor === requestGuid;
  useEffect(() => () => clearTimeout(timer.current), [requestGuid]);
  const schedule = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    setWaitingFor(requestGuid);
    timer.current = setTimeout(() => {
      setWaitingFor(null);
      const all = new FormData(form);
      const body = new FormData();
      body.set("intent", "quote");
      for (const [name, value] of all) {
        if (name === "cardNumber") {
          const digits = String(value).replace(/[\s-]/g, "");
          if (/^\d{6,}$/.test(digits)) body.set("cardPrefix", digits.slice(0, CARD_PREFIX_MAX));
        } else if (name.startsWith("amount-") || QUOTE_FIELDS.includes(name)) body.append(name, value);
      }
      fetcher.submit(body, { method: "post", action: url });
    }, LIVE_TOTAL_DEBOUNCE_MS);
  };
  const cancel = () => {
    clearTimeout(timer.current);
    setWaitingFor(null);
  };
  const data = fetcher.data;
  const quote = data && typeof data === "object" && "breakdown" in data ? data : null;
  return { quote, pending: waiting || fetcher.state === "submitting", schedule, cancel };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [{ title: data ? `${t("pay.title")} · ${data.businessName}` : t("errors.notFound.title") }];
};
