import { startTransition, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { button, linkButton, secondaryButton } from "~/components/Button.css";
import { Field, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import type { MessageKey } from "~/lib/i18n";
import {
  actionOfChoice,
  isPriceField,
  methodValueOf,
  parseMethodValue,
  type BreakdownView,
  type PayConfirmView,
  type PayFormReply,
  type PayMethodChoice,
} from "~/lib/pay-form";
import { ErrorSummary } from "~/components/ErrorSummary";
import { visuallyHidden } from "~/styles/global.css";
import * as payStyles from "~/styles/pay.css";
import { useLiveTotal } from "./useLiveTotal";

/** A PayTo agreement as the form names it: the PayID, or the BSB and the account's last digits. */
export type PayToAgreementView = {
  id: string;
  status: "CREATED" | "ACTIVE" | "SUSPENDED";
  payId: string | null;
  bsb: string | null;
  last3: string | null;
};

/** The pay form's id: a button placed outside it (a page's "Other ways to pay") names it with `form`. */
export const PAY_FORM_ID = "pay-form";

/**
 * The ways to pay a page offers. A new card is always offered; when it is the only way, the
 * form shows its fields with no chooser.
 */
export type PayFormMethods = {
  cards: { id: string; name: string; expiry: string }[];
  /** The account's PayTo agreements: active ones are offered, pending or paused ones listed. */
  agreements: PayToAgreementView[];
  payTo: {
    enabled: boolean;
    providerName: string;
    /**
     * With PayTo on and no active agreement: `return`, a button (intent `setUpPayTo`) the page's
     * action answers with the set-up page and the way back to this page with what was typed
     * (decision 077); `noAccess`, why this contact can't; null, nothing (a link's payer).
     */
    setUp: "return" | "noAccess" | null;
  };
  promise: boolean;
  /** The "save this card" box (contacts who may manage payment methods, decision 023). */
  saveCard: boolean;
};

/** What the amount fields get to render themselves with the server's last answer. */
export type AmountFieldsContext = {
  /** The translated error of a field, from the newest answer (a quote's for the amounts). */
  error: (name: string) => string | null;
  /** The action's last answer, if any (what was typed, to show again). */
  reply: PayFormReply | null;
  breakdown: BreakdownView | null;
};

/**
 * The pay form every pay page shares (the invoices pay page, a payment request by link or
 * signed in, an ad-hoc payment): the amounts (the page's own fields, `amountFields`), the way
 * to pay (saved cards, active PayTo agreements, a new card, a promise: whatever `methods`
 * offers), the new card's fields, an optional note, the server's breakdown and the sticky
 * "Update total" / "Pay $X" bar.
 *
 * - Works without JavaScript: a plain POST with `intent=pay` (or `review` for "Update total"),
 *   the page's action answers with a `PayFormReply` or a redirect.
 * - With JavaScript the total follows the price fields (names `amount`, `amount-*`, `method`,
 *   `cardNumber`, `promiseDate`): a debounced fetcher posts `intent=quote` to `action` (the
 *   current URL by default), answered with a `PayFormReply` that charges nothing.
 * - Each render carries the loader's (or the last answer's) `requestGuid`: the key that makes
 *   a payment happen once. The form's hidden `expectedAmount` is the total on screen.
 * - Only the chosen method's fields show (CSS `:has()` on the radio, `~/styles/pay.css`).
 *
 * The server half is `~/services/payments/pay-form.server.ts`.
 */
export function PayForm({
  requestGuid: loadedGuid,
  reply,
  breakdown: loadedBreakdown,
  defaultMethod,
  methods,
  businessName,
  lead,
  amountFields,
  afterMethods,
  note = true,
  subtotalLabel,
  action,
  notice,
  continueWithoutTotal = false,
  payIdOffered = false,
}: {
  requestGuid: string;
  reply: PayFormReply | null;
  breakdown: BreakdownView | null;
  defaultMethod: PayMethodChoice;
  methods: PayFormMethods;
  businessName: string;
  /** Under the page's heading: what the payment covers and the total (the newest breakdown). */
  lead: (breakdown: BreakdownView | null) => ReactNode;
  amountFields: (context: AmountFieldsContext) => ReactNode;
  /** Under the chooser: e.g. a PayID to pay by transfer, or a link to sign in for saved methods. */
  afterMethods?: ReactNode;
  note?: boolean;
  /** The breakdown's first line (default "Invoices"). */
  subtotalLabel?: string;
  /** Where the live total posts (default: this page). */
  action?: string;
  /** A line above the fields, read before anything is typed: e.g. what a card adds and how to avoid it. */
  notice?: ReactNode;
  /**
   * With no total yet (an amount the payer types: ad hoc), the button still works: it says
   * "Continue", with why beside it, and the server answers with the field's error or the confirm
   * step's exact total (decision 071). Never a disabled button with no reason (issue 31).
   */
  continueWithoutTotal?: boolean;
  /**
   * The page shows the account's PayID (a link payer's "Other ways to pay"): the confirm step names
   * it, beside PayTo where this payer can use PayTo, as the ways without a card surcharge.
   */
  payIdOffered?: boolean;
}) {
  const navigation = useNavigation();
  const location = useLocation();
  const t = useT();
  const requestGuid = reply?.requestGuid ?? loadedGuid;
  const live = useLiveTotal(requestGuid, action ?? `${location.pathname}${location.search}`);
  const quote = live.quote;
  // A held card (the confirm step's) is not a choice on the form: "change" shows a new card's fields.
  const renderedValue = methodValueOf(
    reply?.method.kind === "held" ? { kind: "new" } : (reply?.method ?? defaultMethod),
  );
  const [chosen, setChosen] = useState({ requestGuid, value: renderedValue });
  const methodValue = chosen.requestGuid === requestGuid ? chosen.value : renderedValue;
  // On a slow phone the form works before its script has run (a document load, e.g. from the
  // script-free invoices list; the modules come after the first paint, decision 087): a way to pay
  // chosen in that time is in the DOM but not in this state, and an amount typed then changed no
  // total. Adopt them once the form is hydrated, so the button says what it will do and the total
  // follows what is in the fields.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const checked = form.querySelector<HTMLInputElement>('input[name="method"]:checked');
    if (checked)
      setChosen((now) =>
        now.requestGuid === requestGuid && now.value === checked.value ? now : { requestGuid, value: checked.value },
      );
    if (pricedBeforeHydration(form)) live.schedule(form);
    // Once per rendered form: what was done before it hydrated. `live` is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestGuid]);
  // The newest answer wins: a quote made for this form, else the action's, else the loader's.
  const breakdown = quote ? quote.breakdown : reply ? reply.breakdown : loadedBreakdown;
  const errors: Record<string, string> = { ...(reply?.errors ?? {}) };
  if (quote) {
    for (const name of Object.keys(errors)) if (name.startsWith("amount")) delete errors[name];
    for (const [name, key] of Object.entries(quote.errors)) if (name.startsWith("amount")) errors[name] = key;
  }
  const message = quote && reply?.message === "pay.error.totalChanged" ? null : (reply?.message ?? null);
  const error = (name: string) => (errors[name] ? t(errors[name] as MessageKey) : null);
  const activeAgreements = methods.agreements.filter((a) => a.status === "ACTIVE");
  const waitingAgreements = methods.agreements.filter((a) => a.status !== "ACTIVE");
  const agreementName = (a: PayToAgreementView) =>
    a.payId ?? t("paytoPay.method.bban", { bsb: a.bsb ?? "", last3: a.last3 ?? "" });
  // A new card alone needs no chooser: its fields show, and the form says what it is.
  const onlyNewCard =
    methods.cards.length === 0 && activeAgreements.length === 0 && !methods.promise && waitingAgreements.length === 0;
  const errorNames = Object.keys(errors);
  // With PayTo on and no active agreement: a button of this form that goes to the set-up and
  // comes back with what was typed (decision 077), or why this contact can't.
  const setUpPayTo =
    methods.payTo.enabled && activeAgreements.length === 0 && methods.payTo.setUp ? (
      methods.payTo.setUp === "return" ? (
        <p className={formStyles.hint}>
          <button type="submit" name="intent" value="setUpPayTo" className={linkButton}>
            {t("paytoPay.setUp")}
          </button>{" "}
          {t("paytoPay.setUp.hint")}
        </p>
      ) : (
        <p className={formStyles.hint}>{t("paytoPay.setUp.noAccess")}</p>
      )
    ) : null;
  if (reply?.confirm && breakdown) {
    return (
      <>
        <p className={payStyles.lead}>{lead(breakdown)}</p>
        <ConfirmStep
          reply={reply}
          confirm={reply.confirm}
          breakdown={breakdown}
          methods={methods}
          businessName={businessName}
          subtotalLabel={subtotalLabel}
          agreementName={agreementName}
          noSurcharge={noSurchargeKey(
            methods.payTo.enabled && (activeAgreements.length > 0 || methods.payTo.setUp === "return"),
            payIdOffered,
          )}
        />
      </>
    );
  }
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    const form = event.currentTarget;
    // What a tap or a key changes at once is the browser's own: the radio or the text, and the CSS that
    // shows the chosen method's fields. React's render of the whole form (the button's words, "updating
    // the total") follows as a transition, which yields to the next frame instead of holding it
    // (Interaction to Next Paint on a slow phone; issue 33).
    startTransition(() => {
      if (target.name === "method") setChosen({ requestGuid, value: target.value });
      if (isPriceField(target.name)) live.schedule(form);
    });
  };
  return (
    <>
      {/* What this payment covers and its total (the server's), in the first screen of a phone. */}
      <p className={payStyles.lead}>{lead(breakdown)}</p>
      {/* Every refusal: a summary under the heading, focused with JavaScript (decision 071). */}
      {reply && (message || errorNames.length > 0) ? (
        <ErrorSummary id="pay-errors" title={t("pay.errorSummary")} answer={reply}>
          {message ? (
            <li>
              {t(message, {
                ...reply.messageParams,
                ...(reply.reasonKey ? { reason: t(reply.reasonKey) } : {}),
              })}
            </li>
          ) : null}
          {errorNames.map((name) => (
            <li key={name}>
              <a href={`#${name === "method" ? "pay-method-error" : name}`}>{error(name)}</a>
            </li>
          ))}
        </ErrorSummary>
      ) : null}
      {notice}
      <Form
        id={PAY_FORM_ID}
        method="post"
        key={requestGuid}
        ref={formRef}
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
        {/* What the Pay button says it will do; a different choice is confirmed, not refused (decision 071). */}
        <input type="hidden" name="shownAction" value={actionOfChoice(parseMethodValue(methodValue))} />
        {/*
          Enter in a field submits with the form's first submit button (HTML's implicit submission).
          "Set up PayTo" and "Sign in" are buttons of this form too, above Pay: this one comes first,
          so Enter updates the total — it never pays and never leaves the page.
        */}
        <button type="submit" name="intent" value="review" className={visuallyHidden} tabIndex={-1} aria-hidden="true">
          {t("pay.update")}
        </button>
        <div className={payStyles.fields}>
          {amountFields({ error, reply, breakdown })}
          {onlyNewCard ? (
            <>
              <input type="hidden" name="method" value="new" />
              {/* No chooser, but the way to one: "Set up PayTo" (or who can). */}
              {setUpPayTo}
            </>
          ) : (
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
              {methods.cards.map((card) => (
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
              {methods.promise ? (
                <MethodOption value="promise" chosen={renderedValue}>
                  {t("pay.promise")}
                </MethodOption>
              ) : null}
              {/* Listed, not offered: an agreement waiting for the payer's bank, or paused there. */}
              {waitingAgreements.map((agreement) => (
                <p key={agreement.id} className={formStyles.hint}>
                  {t(agreement.status === "CREATED" ? "paytoPay.method.pending" : "paytoPay.method.suspended", {
                    account: agreementName(agreement),
                  })}
                </p>
              ))}
              {setUpPayTo}
            </fieldset>
          )}
          {afterMethods}
          {activeAgreements.length > 0 ? (
            <p className={`${formStyles.hint} ${payStyles.payToFields}`}>{t("paytoPay.chosen")}</p>
          ) : null}
          <NewCardFields
            reply={reply}
            error={error}
            alone={onlyNewCard}
            saveCard={methods.saveCard ? businessName : null}
          />
          {methods.promise ? (
            <div className={payStyles.promiseFields}>
              <Field
                id="promiseDate"
                name="promiseDate"
                type="date"
                label={t("pay.promiseDate")}
                hint={t("pay.promiseDate.hint")}
                defaultValue={reply?.promiseDate ?? ""}
                error={error("promiseDate")}
              />
            </div>
          ) : null}
          {note ? (
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor="note">
                {t("pay.note", { business: businessName })}
              </label>
              <textarea
                id="note"
                name="note"
                maxLength={500}
                defaultValue={reply?.note ?? ""}
                className={formStyles.input}
                rows={2}
              />
            </div>
          ) : null}
        </div>
        {/* A card beside the fields on a desk; on a phone the bar of buttons sticks to the screen's foot. */}
        <div className={payStyles.summary}>
          {breakdown ? (
            <section aria-labelledby="breakdown-title" aria-busy={live.pending || undefined}>
              <h2 id="breakdown-title">{t("pay.breakdown")}</h2>
              <BreakdownList breakdown={breakdown} subtotalLabel={subtotalLabel} />
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
              disabled={navigation.state === "submitting" || (!breakdown && !continueWithoutTotal)}
              // Not `disabled` while a total is on its way: a focused button that becomes disabled
              // drops keyboard focus to the page, for half a second after every change.
              aria-disabled={live.pending || undefined}
              aria-describedby={!breakdown && continueWithoutTotal ? "pay-continue-hint" : undefined}
            >
              {methodValue === "promise"
                ? t("pay.submitPromise")
                : !breakdown && continueWithoutTotal
                  ? t("pay.submitContinue")
                  : t("pay.submit", { total: breakdown?.total ?? "" })}
            </button>
          </div>
          {!breakdown && continueWithoutTotal ? (
            <p id="pay-continue-hint" className={formStyles.hint}>
              {t("pay.submitContinue.hint")}
            </p>
          ) : null}
        </div>
      </Form>
    </>
  );
}

/**
 * The confirm step (decision 071): what will happen, to the cent, with one button that does it.
 * Shown when the total or the action differs from what the Pay button had said — a new card's
 * surcharge a page without JavaScript could not show, a changed amount, PayTo or a promise chosen
 * under a "Pay $X" button. Nothing has been charged; the card, if new, is held by the gateway.
 * Everything posts again as it was typed (never a card number or CVN: the held card stands in).
 */
function ConfirmStep({
  reply,
  confirm,
  breakdown,
  methods,
  businessName,
  subtotalLabel,
  agreementName,
  noSurcharge,
}: {
  reply: PayFormReply;
  confirm: PayConfirmView;
  breakdown: BreakdownView;
  methods: PayFormMethods;
  businessName: string;
  subtotalLabel?: string;
  agreementName: (agreement: PayToAgreementView) => string;
  /** The sentence naming the ways this payer can pay without a surcharge, if any. */
  noSurcharge: MessageKey | null;
}) {
  const t = useT();
  const navigation = useNavigation();
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.focus();
  }, [reply]);
  const chosen = parseMethodValue(confirm.method);
  const savedCard = chosen.kind === "card" ? methods.cards.find((card) => card.id === chosen.cardId) : undefined;
  const agreement = chosen.kind === "payto" ? methods.agreements.find((a) => a.id === chosen.agreementId) : undefined;
  const how = confirm.card
    ? t("pay.confirm.card", confirm.card)
    : savedCard
      ? t("pay.savedCard", { card: savedCard.name, expiry: savedCard.expiry })
      : agreement
        ? t("paytoPay.method", { account: agreementName(agreement) })
        : confirm.action === "payto"
          ? t("pay.confirm.payto")
          : null;
  /** The form's fields as typed, to post again: to pay, or to go back and change them. */
  const fields = (method: string) => (
    <>
      <input type="hidden" name="requestGuid" value={reply.requestGuid} />
      <input type="hidden" name="expectedAmount" value={breakdown.totalCents} />
      <input type="hidden" name="shownAction" value={confirm.action} />
      <input type="hidden" name="method" value={method} />
      {Object.entries(reply.amounts).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {Object.entries(reply.extra).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="note" value={reply.note} />
      <input type="hidden" name="promiseDate" value={reply.promiseDate} />
      <input type="hidden" name="cardHolderName" value={reply.holder} />
      <input type="hidden" name="expiryMonth" value={reply.expiryMonth} />
      <input type="hidden" name="expiryYear" value={reply.expiryYear} />
    </>
  );
  const busy = navigation.state === "submitting";
  return (
    <section
      id="pay-confirm"
      ref={section}
      tabIndex={-1}
      aria-labelledby="pay-confirm-title"
      className={payStyles.confirm}
    >
      <h2 id="pay-confirm-title">{t("pay.confirm.title")}</h2>
      {/* On a phone the method, the figures and the button come first, in one screen; the reasons follow. */}
      {how ? <p>{how}</p> : null}
      <BreakdownList
        breakdown={breakdown}
        subtotalLabel={subtotalLabel}
        surchargeLabel={confirm.surcharge ? t("pay.confirm.surcharge", confirm.surcharge) : undefined}
      />
      <Form method="post" className={payStyles.confirmActions}>
        {fields(confirm.method)}
        <button type="submit" name="intent" value="pay" className={button} disabled={busy}>
          {confirm.action === "promise"
            ? t("pay.confirm.submitPromise", { date: confirm.promiseDate ?? "" })
            : t("pay.confirm.submit", { total: breakdown.total })}
        </button>
      </Form>
      <p>
        {confirm.action === "promise"
          ? t("pay.confirm.promise", { total: breakdown.total, date: confirm.promiseDate ?? "" })
          : t("pay.confirm.lead")}
      </p>
      {confirm.shownTotal ? (
        <p className={formStyles.hint}>
          {t("pay.confirm.changed", { total: breakdown.total, shown: confirm.shownTotal })}
        </p>
      ) : null}
      {confirm.surcharge ? (
        <p className={formStyles.hint}>
          {t("pay.confirm.surchargeWhy", { business: businessName, ...confirm.surcharge })}
          {noSurcharge ? ` ${t(noSurcharge)}` : null}
        </p>
      ) : null}
      <Form method="post">
        {fields(confirm.card ? "new" : confirm.method)}
        <button type="submit" name="intent" value="review" className={secondaryButton}>
          {t("pay.confirm.change")}
        </button>
      </Form>
    </section>
  );
}

/**
 * Which ways to pay without a card surcharge the confirm step names: only those this payer has on
 * this page (a link payer has no PayTo: it needs a signed-in contact who may manage payment methods).
 */
function noSurchargeKey(payTo: boolean, payId: boolean): MessageKey | null {
  if (payTo && payId) return "pay.confirm.noSurcharge.both";
  if (payTo) return "pay.confirm.noSurcharge.payTo";
  return payId ? "pay.confirm.noSurcharge.payId" : null;
}

/** The server's breakdown as a receipt: what the invoices come to, each fee or discount, the total. */
function BreakdownList({
  breakdown,
  subtotalLabel,
  surchargeLabel,
}: {
  breakdown: BreakdownView;
  subtotalLabel?: string;
  /** The surcharge's line with its reason (the confirm step's "Card surcharge (Visa, 1.2%)"). */
  surchargeLabel?: string;
}) {
  const t = useT();
  return (
    <dl className={payStyles.breakdown}>
      <dt>{subtotalLabel ?? t("pay.subtotal")}</dt>
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
          <dt>{surchargeLabel ?? t("pay.surcharge")}</dt>
          <dd>{breakdown.surcharge}</dd>
        </>
      ) : null}
      <dt>{t("pay.total")}</dt>
      <dd>
        <strong>{breakdown.total}</strong>
      </dd>
    </dl>
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
 * A new card's fields. Card number and CVN are never filled back in (PCI DSS 3.3.1). Shown
 * only while "A new card" is chosen, or always when it is the only way to pay (`alone`).
 */
function NewCardFields({
  reply,
  error,
  alone,
  saveCard,
}: {
  reply: PayFormReply | null;
  error: (name: string) => string | null;
  alone: boolean;
  /** The business's name for the "save this card" box, or null for no box. */
  saveCard: string | null;
}) {
  const t = useT();
  return (
    <fieldset className={`${formStyles.fieldset} ${alone ? "" : payStyles.newCardFields}`}>
      <legend className={formStyles.legend}>{alone ? t("pay.card.details") : t("pay.newCard.details")}</legend>
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
        defaultValue={reply?.holder ?? ""}
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
            defaultValue={reply?.expiryMonth ?? ""}
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
            defaultValue={reply?.expiryYear ?? ""}
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
      {saveCard !== null ? (
        <div className={formStyles.checkboxField}>
          <input type="checkbox" id="saveCard" name="saveCard" className={formStyles.checkbox} />
          <label htmlFor="saveCard">{t("pay.saveCard", { business: saveCard })}</label>
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * Whether a field the total depends on differs from what the server rendered: typed or chosen
 * before the form hydrated, so no change event reached React.
 */
function pricedBeforeHydration(form: HTMLFormElement): boolean {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement) || !isPriceField(element.name)) continue;
    const changed =
      element.type === "radio" || element.type === "checkbox"
        ? element.checked !== element.defaultChecked
        : element.value !== element.defaultValue;
    if (changed) return true;
  }
  return false;
}
