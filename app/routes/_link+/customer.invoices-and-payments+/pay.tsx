import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PayForm } from "~/components/PayForm/PayForm";
import { useT } from "~/components/useT";
import * as payStyles from "~/styles/pay.css";
import { Field, formStyles } from "~/components/Form";
import { BRAND_LABELS, formatExpiry, isExpired } from "~/lib/card";
import { formatMoney, parseMoneyToCents } from "~/lib/format";
import { CHOOSE_INVOICES_PATH } from "~/lib/invoice-query";
import { metaTranslator } from "~/lib/i18n";
import { breakdownView, decimal, payFormShouldRevalidate, type PayMethodChoice } from "~/lib/pay-form";
import { payPageChoiceOf, payPagePath, payToSetUpPath } from "~/lib/pay-return";
import { todayIso } from "~/lib/payment-method-schemas";
import {
  pageDates,
  businessToday,
  readForm,
  listCards,
  loadPayable,
  previewPayment,
  submitPayment,
  agreementView,
  confirmOrPay,
  heldChoice,
  finishPayment,
  priorAnswer,
  readyToPay,
  resolvePayMethod,
  startPayReply,
  typedAmount,
  payToConfigurationOf,
  payToChoices,
  clientAddress,
  requestOrigin,
  requireSameOrigin,
  gatewayContextFrom,
  requireCustomerAccountPage,
  hasPortalAccess,
} from "./invoices-and-payments.server";
import { metaDescription } from "~/lib/meta";

/**
 * Pay invoices (issue 3): choose amounts (in full or part), a saved card, a new card or a
 * promise to pay; the server computes fees, late fees and discounts and shows the total, and
 * charges only the total the customer saw. Each render carries a new requestGuid: a double
 * click, a reload of the POST or a second tab never charges twice. Works without JavaScript.
 *
 * The form and its live total are the shared `PayForm` (`~/components/PayForm`), and the
 * action's steps `~/services/payments/pay-form.server.ts`; this page adds the invoices.
 */
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
  // Amounts and an agreement chosen before (the way back from "Set up PayTo", decision 077):
  // bounded and checked here, then against the invoices and agreements below.
  const chosen = payPageChoiceOf(params)!;
  const [invoices, cards, payTo] = await Promise.all([
    loadPayable(actor, ids),
    listCards(actor),
    payToChoices(actor, payToConfigurationOf(branding)),
  ]);
  const today = businessToday(branding.timeZone);
  // Anyone signed in may pay here (spec §2 customer-style), but the account's saved cards and
  // PayTo agreements are for contacts with portal access: saving one is managing payment methods
  // (decision 023), and paying with one is spending them (decision 056). Others pay by new card.
  const mayManagePaymentMethods = hasPortalAccess(session.contact);
  const usable = mayManagePaymentMethods
    ? // Card expiry is the card network's date, as the gateway judges it (decision 078).
      cards.filter((card) => !isExpired(card.expiryMonth, card.expiryYear, todayIso()))
    : [];
  const agreements = mayManagePaymentMethods ? payTo.agreements : [];
  return {
    ...context,
    actor,
    invoices,
    cards: usable,
    payTo: { ...payTo, agreements },
    today,
    mayManagePaymentMethods,
    chosen,
  };
}

const money = (cents: number, currency: string) => formatMoney(cents, { currency });

export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, actor, invoices, cards, payTo, today, mayManagePaymentMethods, chosen } =
    await pageContext(request);
  // An agreement named in the address is chosen only if it is an active one of this account.
  const namedAgreement = payTo.agreements.find((a) => a.id === chosen.agreementId && a.status === "ACTIVE");
  const defaultCard = namedAgreement ? undefined : (cards.find((card) => card.isDefault) ?? cards[0]);
  const activeAgreement = namedAgreement ?? payTo.agreements.find((a) => a.status === "ACTIVE");
  // A typed amount in the address counts only within the invoice's balance; else the whole of it.
  const amountOf = (invoice: { id: string; availableCents: number }) => {
    const cents = chosen.amounts[invoice.id];
    return cents !== undefined && cents > 0 && cents <= invoice.availableCents ? cents : invoice.availableCents;
  };
  const amounts = Object.fromEntries(invoices.map((i) => [i.id, amountOf(i)]));
  const payable = invoices.filter((i) => i.availableCents > 0);
  const { date } = await pageDates(request, branding);
  // Nothing chosen that can be paid: back to the list, which says so at the top (issue 31).
  if (payable.length === 0) throw redirect(CHOOSE_INVOICES_PATH);
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
    requestGuid: randomUUID(),
    mayManagePaymentMethods,
    invoices: payable.map((i) => ({
      id: i.id,
      number: i.number,
      dueDate: date(i.dueDate),
      balance: money(i.availableCents, branding.currency),
      amount: decimal(amounts[i.id]!),
      partial: amounts[i.id] !== i.availableCents,
    })),
    methods: {
      cards: cards.map((card) => ({
        id: card.cardId,
        name: `${BRAND_LABELS[card.brand]} •••• ${card.last4}`,
        expiry: formatExpiry(card.expiryMonth, card.expiryYear),
      })),
      agreements: payTo.agreements.map(agreementView),
      payTo: {
        enabled: payTo.enabled,
        providerName: payTo.providerName,
        // A button that comes back here with what was chosen (decision 077).
        setUp: mayManagePaymentMethods ? ("return" as const) : ("noAccess" as const),
      },
      promise: true,
      saveCard: mayManagePaymentMethods,
    },
    method: (defaultCard
      ? { kind: "card", cardId: defaultCard.cardId }
      : activeAgreement
        ? { kind: "payto", agreementId: activeAgreement.id }
        : { kind: "new" }) as PayMethodChoice,
    breakdown: breakdown ? breakdownView(breakdown, branding.currency) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, actor, invoices, cards, payTo, today, mayManagePaymentMethods, chosen } =
    await pageContext(request);
  const form = await readForm(request);
  if (form.get("intent") === "setUpPayTo") {
    const back = payToReturn(form, { invoices, chosen, mayManagePaymentMethods, payToEnabled: payTo.enabled });
    if (back) return redirect(payToSetUpPath(back));
    return data(startPayReply(form).reply, { status: 400 });
  }
  const { intent, text, reply } = startPayReply(form);
  // pay: charge; review ("Update total"): the page again with the new total; quote (the live
  // total's fetcher): the same answer without a page. Only "pay" ever charges.
  if (!intent) return data(reply, { status: 400 });
  if (intent === "pay") {
    const prior = await priorAnswer(actor, text("requestGuid", 40), reply);
    if (prior && "reference" in prior) return redirect(`/payment/complete/${prior.reference}`);
    if (prior) return data(reply, { status: prior.status });
  }
  if (invoices.length === 0) {
    reply.message = "pay.error.nothing";
    return data(reply, { status: 400 });
  }

  // Amounts, typed as decimals, exact to the cent, 0 < amount ≤ balance.
  const amounts: Record<string, number> = {};
  for (const invoice of invoices) {
    const cents = typedAmount(reply, `amount-${invoice.id}`, text(`amount-${invoice.id}`, 40), invoice.availableCents);
    if (cents !== null) amounts[invoice.id] = cents;
  }
  const holder = { businessId: actor.businessId, accountId: actor.accountId, contactId: actor.contactId };
  const held = await heldChoice(request, reply, holder, text("requestGuid", 40));
  const { payMethod, feeMethod } = resolvePayMethod(form, intent, reply, {
    cards,
    agreements: payTo.agreements,
    promise: true,
    mayManagePaymentMethods,
    today,
    actor,
    held,
  });
  if (Object.keys(amounts).length === invoices.length) {
    reply.breakdown = breakdownView(
      await previewPayment(actor, invoices, amounts, feeMethod, today, branding.feeRules),
      branding.currency,
    );
  }
  const ready = readyToPay(intent, reply, payMethod);
  if (ready !== true || !payMethod) return data(reply, { status: ready === true ? 400 : ready });
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
  if (!step.pay) return data(reply, { status: step.status, headers: step.headers });
  const outcome = await submitPayment(
    actor,
    {
      requestGuid: text("requestGuid", 40),
      selection: invoices.map((i) => ({ invoiceId: i.id, amountCents: amounts[i.id]! })),
      method: step.payMethod,
      note: reply.note,
      currency: branding.currency,
      today,
      expectedAmountCents: step.expectedAmountCents,
    },
    gateway,
  );
  const chosenAgreement = payMethod.kind === "payto" ? payMethod.agreementId : null;
  const done = await finishPayment(outcome, {
    branding,
    payMethod,
    reply,
    // This page pays invoices only: it never names a request or an ad-hoc amount.
    invalidMessages: {
      fullPaymentRequired: "pay.error.nothing",
      belowMinimum: "pay.error.nothing",
      aboveRemaining: "pay.error.nothing",
      adhocDisabled: "pay.error.nothing",
      aboveMaximum: "pay.error.nothing",
    },
    messageParams: {
      max: money(payTo.agreements.find((a) => a.id === chosenAgreement)?.maxCents ?? 0, branding.currency),
    },
  });
  if ("reference" in done) return redirect(`/payment/complete/${done.reference}`);
  return data(reply, { status: done.status });
}

/**
 * "Set up PayTo" (a button of the pay form, so it works without JavaScript and keeps what was
 * typed) goes to the set-up page with the way back here: these invoices and the amounts typed
 * that are not the whole balance (valid ones; any other is left at the balance). Nothing is
 * charged and the card fields are not read. Null where the button is not offered. Decision 077.
 */
function payToReturn(
  form: FormData,
  page: {
    invoices: { id: string; availableCents: number }[];
    chosen: { invoices: string[] | "all" };
    mayManagePaymentMethods: boolean;
    payToEnabled: boolean;
  },
) {
  // Offered only to a contact who may manage payment methods, where PayTo is on.
  if (!page.mayManagePaymentMethods || !page.payToEnabled || page.invoices.length === 0) return null;
  const amounts: Record<string, number> = {};
  for (const invoice of page.invoices) {
    const parsed = parseMoneyToCents(String(form.get(`amount-${invoice.id}`) ?? "").slice(0, 40));
    if (parsed.ok && parsed.cents > 0 && parsed.cents < invoice.availableCents) amounts[invoice.id] = parsed.cents;
  }
  const invoices = page.chosen.invoices === "all" ? ("all" as const) : page.invoices.map((i) => i.id);
  return payPagePath({ invoices, amounts, agreementId: null });
}

/** A quote changes nothing the loader reads: no reload of the page's data for it. */
export const shouldRevalidate = payFormShouldRevalidate;

export default function Pay() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  const t = useT();
  if (loaded.invoices.length === 0) {
    return (
      <>
        <h1>{t("pay.title")}</h1>
        <p>{t("pay.error.nothing")}</p>
        <Link to="/customer/invoices-and-payments/invoices">{t("pay.backToInvoices")}</Link>
      </>
    );
  }
  // Several invoices' amounts fold under one line (the method comes up the page), open when
  // the server answered about them: an amount with an error, or one not paid in full.
  const several = loaded.invoices.length > 1;
  const amountsOpen =
    !several ||
    loaded.invoices.some(
      (invoice) =>
        Boolean(reply?.errors[`amount-${invoice.id}`]) ||
        invoice.partial ||
        (reply?.amounts[`amount-${invoice.id}`] ?? invoice.amount) !== invoice.amount,
    );
  const covers = several
    ? t("pay.covers.other", { count: String(loaded.invoices.length) })
    : t("pay.covers.one", { number: loaded.invoices[0]!.number });
  return (
    <>
      <h1>{t("pay.title")}</h1>
      <PayForm
        requestGuid={loaded.requestGuid}
        reply={reply}
        breakdown={loaded.breakdown}
        defaultMethod={loaded.method}
        methods={loaded.methods}
        businessName={loaded.businessName}
        lead={(breakdown) => (
          <>
            {covers}
            {breakdown ? (
              <>
                {" · "}
                {t("pay.totalToPay")} <strong>{breakdown.total}</strong>
              </>
            ) : null}
          </>
        )}
        amountFields={({ error, breakdown }) => {
          const fields = (
            <fieldset className={formStyles.fieldset}>
              <legend className={formStyles.legend}>{t("pay.invoices")}</legend>
              {loaded.invoices.map((invoice) => (
                <Field
                  key={invoice.id}
                  id={`amount-${invoice.id}`}
                  name={`amount-${invoice.id}`}
                  label={t("pay.amountFor", { number: invoice.number })}
                  hint={t("pay.amountHint", { balance: invoice.balance, due: invoice.dueDate })}
                  defaultValue={reply?.amounts[`amount-${invoice.id}`] ?? invoice.amount}
                  inputMode="decimal"
                  autoComplete="off"
                  error={error(`amount-${invoice.id}`)}
                />
              ))}
            </fieldset>
          );
          if (!several) return fields;
          return (
            <details className={payStyles.fold} open={amountsOpen}>
              <summary className={payStyles.foldSummary}>
                {breakdown
                  ? t("pay.amounts.summaryTotal", {
                      count: String(loaded.invoices.length),
                      subtotal: breakdown.subTotal,
                    })
                  : t("pay.amounts.summary", { count: String(loaded.invoices.length) })}
                <span className={payStyles.change}>{t("pay.amounts.change")}</span>
              </summary>
              {fields}
            </details>
          );
        }}
      />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pay.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.pay", data.businessName),
  ];
};
