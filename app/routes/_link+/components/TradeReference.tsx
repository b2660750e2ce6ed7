import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MessageKey } from "~/lib/i18n";
import {
  COMMENTS_MAX,
  DISHONOUR_DETAILS_MAX,
  EMPTY_REFEREE_FORM,
  PAYMENT_BEHAVIOURS,
  REFEREE_FIELDS,
  REFEREE_NAME_MAX,
  REFEREE_POSITION_MAX,
  TERMS_OTHER_MAX,
  TRADE_TERMS,
  TRADING_LENGTHS,
  type RefereeField,
  type RefereeFormValues,
} from "~/lib/trade-reference";
import * as buttonStyles from "~/components/Button.css";
import { BusinessContact } from "~/components/BusinessContact";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Field, FormMessage, formStyles } from "~/components/Form";
import * as tableStyles from "~/components/Table.css";
import * as styles from "./TradeReference.css";
import { useT } from "~/components/useT";

/**
 * A trade referee's page (issue 17; decision 041): who asks about whom, then the questions AU/NZ
 * trade references ask, answered once; or, when the link no longer takes an answer, why. The form
 * is a plain POST that works without JavaScript; the server checks it (`noValidate`: one set of
 * messages, the same with JavaScript on or off), and its errors are listed in a summary at the top
 * whose links go to each field, and said again at the field.
 */
export type TradeReferenceOpenData = {
  kind: "open";
  businessName: string;
  applicant: string;
  reference: string;
  referee: { name: string; business: string };
  expires: string;
  currency: string;
};

export type TradeReferenceClosedData = {
  kind: "closed";
  reason: "thanks" | "answered" | "closed" | "expired";
  businessName: string;
  applicant: string;
  reference: string;
  date: string;
  contact: { email: string | null; phone: string | null };
};

export type TradeReferenceReply = {
  errors: Partial<Record<RefereeField, MessageKey>>;
  values: RefereeFormValues;
};

type Option = { value: string; label: string };

function Choices({
  name,
  legend,
  options,
  value,
  error,
  reveals,
  children,
}: {
  name: RefereeField;
  legend: string;
  options: Option[];
  value: string;
  error: string | null;
  /** The option whose choice shows `children` (the follow-up field). */
  reveals?: string;
  children?: ReactNode;
}) {
  const errorId = `${name}-error`;
  return (
    <div className={`${styles.question}${reveals ? ` ${styles.revealing}` : ""}`}>
      <fieldset
        className={formStyles.fieldset}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
      >
        <legend className={formStyles.legend}>{legend}</legend>
        {error ? (
          <p id={errorId} className={formStyles.error}>
            {error}
          </p>
        ) : null}
        <div className={styles.choices}>
          {options.map((option, index) => {
            // The first choice carries the question's id: the error summary links to it.
            const id = index === 0 ? name : `${name}-${option.value}`;
            return (
              <div key={option.value} className={styles.choice}>
                <input
                  type="radio"
                  id={id}
                  name={name}
                  value={option.value}
                  defaultChecked={value === option.value}
                  className={styles.radio}
                  data-reveals={reveals === option.value ? "" : undefined}
                />
                <label htmlFor={id}>{option.label}</label>
              </div>
            );
          })}
        </div>
      </fieldset>
      {children ? <div className={styles.more}>{children}</div> : null}
    </div>
  );
}

function TextArea({
  id,
  label,
  hint,
  error,
  maxLength,
  defaultValue,
}: {
  id: RefereeField;
  label: string;
  hint?: string;
  error: string | null;
  maxLength: number;
  defaultValue: string;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={formStyles.hint}>
          {hint}
        </p>
      ) : null}
      <textarea
        id={id}
        name={id}
        rows={4}
        maxLength={maxLength}
        defaultValue={defaultValue}
        className={`${formStyles.input} ${styles.textarea}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
      />
      {error ? (
        <p id={errorId} className={formStyles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TradeReferenceOpen({
  data,
  reply,
}: {
  data: TradeReferenceOpenData;
  reply: TradeReferenceReply | null;
}) {
  const t = useT();
  const navigation = useNavigation();
  const errors = reply?.errors ?? {};
  const values = reply?.values ?? EMPTY_REFEREE_FORM;
  const problems = REFEREE_FIELDS.filter((field) => errors[field]);
  const error = (field: RefereeField) => (errors[field] ? t(errors[field]!) : null);
  const params = { applicant: data.applicant, business: data.businessName };
  const yesNo: Option[] = [
    { value: "yes", label: t("tradeReference.yes") },
    { value: "no", label: t("tradeReference.no") },
  ];

  return (
    <>
      <h1>{t("tradeReference.title", { applicant: data.applicant })}</h1>
      {/* Right under the heading: the first thing read after a refused send, on a phone's first screen too. */}
      {problems.length ? (
        <ErrorSummary id="reference-errors" title={t("tradeReference.error.summary")} answer={reply}>
          {problems.map((field) => (
            <li key={field}>
              <a href={`#${field}`}>{t(errors[field]!)}</a>
            </li>
          ))}
        </ErrorSummary>
      ) : null}
      <p className={styles.lead}>{t("tradeReference.lead", { ...params, referee: data.referee.business })}</p>
      <dl className={tableStyles.details}>
        <dt>{t("tradeReference.fact.business")}</dt>
        <dd>{data.businessName}</dd>
        <dt>{t("tradeReference.fact.applicant")}</dt>
        <dd>{data.applicant}</dd>
        <dt>{t("tradeReference.fact.reference")}</dt>
        <dd>{data.reference}</dd>
        <dt>{t("tradeReference.fact.referee")}</dt>
        <dd>{t("tradeReference.fact.refereeValue", { name: data.referee.name, business: data.referee.business })}</dd>
        <dt>{t("tradeReference.fact.expires")}</dt>
        <dd>{data.expires}</dd>
      </dl>
      <p>{t("tradeReference.privacy", params)}</p>
      <h2>{t("tradeReference.form")}</h2>
      <Form method="post" noValidate className={styles.form}>
        <Choices
          name="tradingLength"
          legend={t("tradeReference.tradingLength", params)}
          options={TRADING_LENGTHS.map((value) => ({ value, label: t(`tradeReference.tradingLength.${value}`) }))}
          value={values.tradingLength}
          error={error("tradingLength")}
        />
        <Choices
          name="terms"
          legend={t("tradeReference.terms")}
          options={TRADE_TERMS.map((value) => ({ value, label: t(`tradeReference.terms.${value}`) }))}
          value={values.terms}
          error={error("terms")}
          reveals="other"
        >
          <Field
            id="termsOther"
            name="termsOther"
            label={t("tradeReference.termsOther")}
            hint={t("tradeReference.termsOther.hint")}
            maxLength={TERMS_OTHER_MAX}
            defaultValue={values.termsOther}
            error={error("termsOther")}
          />
        </Choices>
        <Field
          id="creditLimit"
          name="creditLimit"
          label={t("tradeReference.creditLimit")}
          hint={t("tradeReference.creditLimit.hint", { currency: data.currency })}
          inputMode="decimal"
          autoComplete="off"
          className={`${formStyles.input} ${styles.money}`}
          defaultValue={values.creditLimit}
          error={error("creditLimit")}
        />
        <Field
          id="highestBalance"
          name="highestBalance"
          label={t("tradeReference.highestBalance")}
          hint={t("tradeReference.highestBalance.hint", { currency: data.currency })}
          inputMode="decimal"
          autoComplete="off"
          className={`${formStyles.input} ${styles.money}`}
          defaultValue={values.highestBalance}
          error={error("highestBalance")}
        />
        <Choices
          name="paymentBehaviour"
          legend={t("tradeReference.paymentBehaviour")}
          options={PAYMENT_BEHAVIOURS.map((value) => ({ value, label: t(`tradeReference.paymentBehaviour.${value}`) }))}
          value={values.paymentBehaviour}
          error={error("paymentBehaviour")}
        />
        <Choices
          name="dishonours"
          legend={t("tradeReference.dishonours")}
          options={yesNo}
          value={values.dishonours}
          error={error("dishonours")}
          reveals="yes"
        >
          <TextArea
            id="dishonourDetails"
            label={t("tradeReference.dishonourDetails")}
            hint={t("tradeReference.dishonourDetails.hint")}
            maxLength={DISHONOUR_DETAILS_MAX}
            defaultValue={values.dishonourDetails}
            error={error("dishonourDetails")}
          />
        </Choices>
        <Choices
          name="recommend"
          legend={t("tradeReference.recommend", params)}
          options={yesNo}
          value={values.recommend}
          error={error("recommend")}
        />
        <TextArea
          id="comments"
          label={t("tradeReference.comments", params)}
          maxLength={COMMENTS_MAX}
          defaultValue={values.comments}
          error={error("comments")}
        />
        <Field
          id="name"
          name="name"
          label={t("tradeReference.name")}
          autoComplete="name"
          maxLength={REFEREE_NAME_MAX}
          defaultValue={values.name}
          error={error("name")}
        />
        <Field
          id="position"
          name="position"
          label={t("tradeReference.position")}
          hint={t("tradeReference.position.hint")}
          autoComplete="organization-title"
          maxLength={REFEREE_POSITION_MAX}
          defaultValue={values.position}
          error={error("position")}
        />
        <div>
          <button type="submit" className={buttonStyles.button} disabled={navigation.state === "submitting"}>
            {t("tradeReference.submit")}
          </button>
          <p className={`${formStyles.hint} ${styles.submitHint}`}>{t("tradeReference.submit.hint")}</p>
        </div>
      </Form>
    </>
  );
}

/** Answered (just now, or before), no longer needed, or expired: one sentence each and who to ask. */
export function TradeReferenceClosed({ data }: { data: TradeReferenceClosedData }) {
  const t = useT();
  const params = {
    applicant: data.applicant,
    business: data.businessName,
    reference: data.reference,
    date: data.date,
  };
  return (
    <>
      {data.reason === "thanks" ? (
        <FormMessage kind="notice">
          <h1>{t("tradeReference.thanks.title")}</h1>
          <p>{t("tradeReference.thanks.text", params)}</p>
        </FormMessage>
      ) : (
        <>
          <h1>{t(`tradeReference.${data.reason}.title`)}</h1>
          <p>{t(`tradeReference.${data.reason}.text`, params)}</p>
        </>
      )}
      {data.reason === "thanks" || data.reason === "closed" ? null : (
        <BusinessContact businessName={data.businessName} contact={data.contact} />
      )}
    </>
  );
}
