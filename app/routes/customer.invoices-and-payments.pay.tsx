import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { BRAND_LABELS, detectBrand, cardDigits, formatExpiry, isExpired } from "~/lib/card";
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
} from "~/services/payments/payments.server";
import { sendReceipt } from "~/services/payments/receipts.server";
import { clientAddress, requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
import { gatewayContextFrom } from "~/services/payment-methods/payment-methods.server";
import { requireCustomerAccountPage } from "~/services/accounts/portal.server";

/**
 * Pay invoices (issue 3): choose amounts (in full or part), a saved card, a new card or a
 * promise to pay; the server computes fees, late fees and discounts and shows the total, and
 * charges only the total the customer saw. Each render carries a new requestGuid: a double
 * click, a reload of the POST or a second tab never charges twice. Works without JavaScript.
 */
type Method = { kind: "card"; cardId: string } | { kind: "new" } | { kind: "promise" };

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
  const [invoices, cards] = await Promise.all([loadPayable(actor, ids), listCards(actor)]);
  const today = todayIso();
  const usable = cards.filter((card) => !isExpired(card.expiryMonth, card.expiryYear, today));
  return { ...context, actor, invoices, cards: usable, today };
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
  const { branding, actor, invoices, cards, today } = await pageContext(request);
  const defaultCard = cards.find((card) => card.isDefault) ?? cards[0];
  const amounts = Object.fromEntries(invoices.map((i) => [i.id, i.availableCents]));
  const payable = invoices.filter((i) => i.availableCents > 0);
  const breakdown = payable.length
    ? await previewPayment(
        actor,
        payable,
        amounts,
        defaultCard ? { kind: "card", brand: defaultCard.brand } : { kind: "payto" },
        today,
      )
    : null;
  return {
    businessName: branding.businessName,
    currency: branding.currency,
    requestGuid: randomUUID(),
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
    method: (defaultCard ? { kind: "card", cardId: defaultCard.cardId } : { kind: "new" }) as Method,
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
  const { branding, actor, invoices, cards, today } = await pageContext(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const text = (name: string, max = 200) => String(form.get(name) ?? "").slice(0, max);
  const methodValue = text("method", 60);
  const method: Method =
    methodValue === "new"
      ? { kind: "new" }
      : methodValue === "promise"
        ? { kind: "promise" }
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
      result.message = `pm.refusal.${prior.refusal}` as MessageKey;
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
    const digits = cardDigits(text("cardNumber", 30));
    const brand = digits ? detectBrand(digits) : null;
    if (brand) brandForFees = { kind: "card", brand };
    if (intent === "pay") {
      const parsed = payCardSchema(today).safeParse({
        cardNumber: text("cardNumber", 30) || undefined,
        cardHolderName: result.holder || undefined,
        expiryMonth: text("expiryMonth", 2) || undefined,
        expiryYear: text("expiryYear", 4) || undefined,
        cvn: text("cvn", 4) || undefined,
        saveCard: form.get("saveCard") === "on",
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
      await previewPayment(actor, invoices, amounts, brandForFees, today),
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
      if (outcome.kind !== "pending") await sendReceipt(branding, outcome.paymentId);
      return redirect(`/payment/complete/${outcome.reference}`);
    case "declined":
      result.message = `pm.refusal.${outcome.refusal}` as MessageKey;
      return reply(402);
    case "conflict":
      result.message = "pay.error.conflict";
      return reply(409);
    case "invalid":
      result.message =
        outcome.problem === "amount"
          ? "pay.error.totalChanged"
          : outcome.problem === "card"
            ? "pay.error.method"
            : "pay.error.nothing";
      result.messageParams = { total: result.breakdown.total };
      return reply(409);
  }
}

export default function Pay() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const state = actionData ?? null;
  const method = state?.method ?? loaded.method;
  const breakdown = state ? state.breakdown : loaded.breakdown;
  const errors = state?.errors ?? {};
  const requestGuid = state?.requestGuid ?? loaded.requestGuid;
  const error = (name: string) => (errors[name] ? t(errors[name] as MessageKey) : null);
  if (loaded.invoices.length === 0) {
    return (
      <>
        <h1>{t("pay.title")}</h1>
        <p>{t("pay.error.nothing")}</p>
        <Link to="/customer/invoices-and-payments/invoices">{t("pay.backToInvoices")}</Link>
      </>
    );
  }
  const methodValue = method.kind === "card" ? `card:${method.cardId}` : method.kind;
  return (
    <>
      <h1>{t("pay.title")}</h1>
      {state?.message ? (
        <FormMessage kind="error">
          {t(state.message as MessageKey, state.messageParams as Record<string, string> | undefined)}
        </FormMessage>
      ) : null}
      <Form method="post" key={requestGuid} className={formStyles.form} noValidate>
        <input type="hidden" name="requestGuid" value={requestGuid} />
        <input type="hidden" name="expectedAmount" value={breakdown?.totalCents ?? ""} />
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
        <fieldset className={formStyles.fieldset}>
          <legend className={formStyles.legend}>{t("pay.method")}</legend>
          {error("method") ? <p className={formStyles.error}>{error("method")}</p> : null}
          {loaded.cards.map((card) => (
            <div key={card.id} className={formStyles.checkboxField}>
              <input
                type="radio"
                id={`method-${card.id}`}
                name="method"
                value={`card:${card.id}`}
                defaultChecked={methodValue === `card:${card.id}`}
                className={formStyles.checkbox}
              />
              <label htmlFor={`method-${card.id}`}>
                {t("pay.savedCard", { card: card.name, expiry: card.expiry })}
              </label>
            </div>
          ))}
          <div className={formStyles.checkboxField}>
            <input
              type="radio"
              id="method-new"
              name="method"
              value="new"
              defaultChecked={methodValue === "new"}
              className={formStyles.checkbox}
            />
            <label htmlFor="method-new">{t("pay.newCard")}</label>
          </div>
          <div className={formStyles.checkboxField}>
            <input
              type="radio"
              id="method-promise"
              name="method"
              value="promise"
              defaultChecked={methodValue === "promise"}
              className={formStyles.checkbox}
            />
            <label htmlFor="method-promise">{t("pay.promise")}</label>
          </div>
        </fieldset>
        <fieldset className={formStyles.fieldset}>
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
          <div className={formStyles.row}>
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
          <div className={formStyles.checkboxField}>
            <input type="checkbox" id="saveCard" name="saveCard" className={formStyles.checkbox} />
            <label htmlFor="saveCard">{t("pay.saveCard", { business: loaded.businessName })}</label>
          </div>
        </fieldset>
        <Field
          id="promiseDate"
          name="promiseDate"
          type="date"
          label={t("pay.promiseDate")}
          hint={t("pay.promiseDate.hint")}
          defaultValue={state?.promiseDate ?? ""}
          error={error("promiseDate")}
        />
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
        {breakdown ? (
          <section aria-labelledby="breakdown-title">
            <h2 id="breakdown-title">{t("pay.breakdown")}</h2>
            <dl className={styles.details}>
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
        <div className={formStyles.actions}>
          <button type="submit" name="intent" value="review" className={secondaryButton}>
            {t("pay.update")}
          </button>
          <button
            type="submit"
            name="intent"
            value="pay"
            className={button}
            disabled={navigation.state === "submitting" || !breakdown}
          >
            {method.kind === "promise" ? t("pay.submitPromise") : t("pay.submit", { total: breakdown?.total ?? "" })}
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [{ title: data ? `${t("pay.title")} · ${data.businessName}` : t("errors.notFound.title") }];
};
