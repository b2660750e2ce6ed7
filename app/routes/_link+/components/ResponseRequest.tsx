import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MessageKey, Translate } from "~/lib/i18n";
import * as styles from "./ResponseRequest.css";
import * as buttonStyles from "~/components/Button.css";
import { BusinessContact } from "~/components/BusinessContact";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Field, FormMessage, formStyles } from "~/components/Form";
import * as tableStyles from "~/components/Table.css";
import { useT, withElements } from "~/components/useT";

/**
 * A response request as its contact sees it by emailed link (issue 17; decision 040): what the
 * business asks (an address, a statement, a proposal on a disputed invoice), the answer form —
 * two choices, the fields the second one needs, a typed name where the kind is signed — and, once
 * answered, exactly what was recorded; or why the link no longer opens it. Everything works
 * without JavaScript: the form is a plain POST, and the fields of a choice show by CSS alone.
 */
type Kind = "delivery-address" | "statement" | "dispute";
type Choice = "confirmed" | "corrected" | "acknowledged" | "disputed" | "accepted" | "rejected";

export type ResponseQuestion = {
  reference: string;
  kind: Kind;
  businessName: string;
  account: string;
  expires: string;
  message: string;
  address: string[] | null;
  statement: { date: string; periodStart: string | null; balance: string; inCredit: boolean } | null;
  dispute: {
    invoice: string;
    issued: string;
    amount: string;
    disputeReason: string | null;
    resolution: { type: "credit"; amount: string; note: string } | { type: "position"; text: string };
  } | null;
};

export type ResponseOpenData = {
  kind: "open";
  question: ResponseQuestion;
  form: {
    choices: readonly Choice[];
    nameRequired: boolean;
    max: { line1: number; line2: number; locality: number; note: number; reason: number; typedName: number };
    states: readonly string[];
    country: "AU" | "NZ";
  };
};

export type ResponseCompleteData = {
  kind: "complete";
  question: ResponseQuestion;
  notice: "already" | null;
  answer: {
    choice: Choice;
    address: string[] | null;
    note: string | null;
    reason: string | null;
    typedName: string | null;
    time: string;
  };
  contact: { email: string | null; phone: string | null };
};

export type ResponseClosedData = {
  kind: "closed";
  reason: "withdrawn" | "expired" | "replaced" | "answered";
  reference: string;
  businessName: string;
  answeredOn: string | null;
  contact: { email: string | null; phone: string | null };
};

type FieldName =
  "choice" | "line1" | "line2" | "locality" | "state" | "postcode" | "country" | "note" | "reason" | "typedName";

export type ResponseReplyData = {
  errors: Partial<Record<FieldName | "form", MessageKey>>;
  values: Partial<Record<FieldName, string>>;
};

/** The order errors are listed in the summary: the page's order. */
const FIELD_ORDER: FieldName[] = [
  "choice",
  "line1",
  "line2",
  "locality",
  "state",
  "postcode",
  "country",
  "note",
  "reason",
  "typedName",
];

export function questionTitle(t: Translate, question: ResponseQuestion) {
  return t(`response.title.${question.kind}`);
}

function lead(t: Translate, question: ResponseQuestion) {
  const business = question.businessName;
  if (question.kind !== "dispute") return t(`response.lead.${question.kind}`, { business });
  const dispute = question.dispute!;
  return dispute.resolution.type === "credit"
    ? t("response.lead.dispute.credit", { business, amount: dispute.resolution.amount })
    : t("response.lead.dispute.position", { business });
}

/** A label above a text of several lines (a dispute's reason, a note, a written position). */
function Writing({ label, text }: { label: string; text: string }) {
  return (
    <div className={styles.block}>
      <p className={styles.blockLabel}>{label}</p>
      <p className={styles.writing}>{text}</p>
    </div>
  );
}

/**
 * What the business states: the address, the statement, or the proposal and its invoice. Short
 * facts side by side even on a phone (so the choice stays in the first screen); longer texts below.
 */
function QuestionFacts({ question, level = 2 }: { question: ResponseQuestion; level?: 2 | 3 }) {
  const t = useT();
  const H = level === 2 ? "h2" : "h3";
  if (question.address) {
    return (
      <section className={styles.facts} aria-labelledby="stated">
        <H id="stated">{t("response.address.stated")}</H>
        <address className={styles.address} data-testid="stated-address">
          {question.address.map((line, index) => (
            <span key={index}>
              {line}
              <br />
            </span>
          ))}
        </address>
      </section>
    );
  }
  if (question.statement) {
    const statement = question.statement;
    return (
      <section className={styles.facts} aria-labelledby="stated">
        <H id="stated">{t("response.statement.facts")}</H>
        <dl className={styles.factList}>
          <dt>{t("response.statement.date")}</dt>
          <dd>{statement.date}</dd>
          {statement.periodStart ? (
            <>
              <dt>{t("response.statement.period")}</dt>
              <dd>{t("response.statement.periodValue", { start: statement.periodStart, end: statement.date })}</dd>
            </>
          ) : null}
          <dt>{t("response.statement.balance")}</dt>
          <dd>
            <strong>
              {t(statement.inCredit ? "response.statement.credit" : "response.statement.owing", {
                amount: statement.balance,
              })}
            </strong>
          </dd>
        </dl>
      </section>
    );
  }
  const dispute = question.dispute!;
  const resolution = dispute.resolution;
  return (
    <section className={styles.facts} aria-labelledby="stated">
      <H id="stated">{t("response.dispute.facts")}</H>
      <dl className={styles.factList}>
        {resolution.type === "credit" ? (
          <>
            <dt>{t("response.dispute.proposal")}</dt>
            <dd>
              <strong>{t("response.dispute.credit", { amount: resolution.amount })}</strong>
            </dd>
            {resolution.note ? (
              <>
                <dt>{t("response.dispute.note")}</dt>
                <dd className={styles.writing}>{resolution.note}</dd>
              </>
            ) : null}
          </>
        ) : null}
        <dt>{t("response.dispute.invoice")}</dt>
        <dd>{t("response.dispute.invoiceValue", { invoice: dispute.invoice, date: dispute.issued })}</dd>
        <dt>{t("response.dispute.amount")}</dt>
        <dd>{dispute.amount}</dd>
        {dispute.disputeReason ? (
          <>
            <dt>{t("response.dispute.reason")}</dt>
            <dd className={styles.writing}>{dispute.disputeReason}</dd>
          </>
        ) : null}
      </dl>
      {resolution.type === "position" ? (
        <Writing label={t("response.dispute.position", { business: question.businessName })} text={resolution.text} />
      ) : null}
    </section>
  );
}

function Heading({ question }: { question: ResponseQuestion }) {
  const t = useT();
  return (
    <>
      <h1>{questionTitle(t, question)}</h1>
      <p className={styles.meta}>
        {withElements(t("response.meta", { date: question.expires }), {
          reference: <span className={styles.nowrap}>{question.reference}</span>,
        })}
        <br />
        {t("response.account", { account: question.account })}
      </p>
    </>
  );
}

function BusinessMessage({ question, level = 2 }: { question: ResponseQuestion; level?: 2 | 3 }) {
  const t = useT();
  if (!question.message) return null;
  const H = level === 2 ? "h2" : "h3";
  return (
    <section className={styles.message} aria-labelledby="business-message">
      <H id="business-message">{t("response.message", { business: question.businessName })}</H>
      <p className={styles.writing}>{question.message}</p>
    </section>
  );
}

function TextArea(props: {
  id: FieldName;
  label: string;
  hint: string;
  max: number;
  value: string;
  error: string | null;
}) {
  const describedBy = [`${props.id}-hint`, props.error ? `${props.id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={props.id}>
        {props.label}
      </label>
      <p id={`${props.id}-hint`} className={formStyles.hint}>
        {props.hint}
      </p>
      <textarea
        id={props.id}
        name={props.id}
        rows={4}
        maxLength={props.max}
        defaultValue={props.value}
        className={`${formStyles.input} ${styles.textarea}`}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
      />
      {props.error ? (
        <p id={`${props.id}-error`} className={formStyles.error}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function Select(props: { id: FieldName; label: string; value: string; error: string | null; children: ReactNode }) {
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={props.id}>
        {props.label}
      </label>
      <select
        id={props.id}
        name={props.id}
        defaultValue={props.value}
        className={formStyles.input}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
      >
        {props.children}
      </select>
      {props.error ? (
        <p id={`${props.id}-error`} className={formStyles.error}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function AddressFields({
  data,
  reply,
  error,
}: {
  data: ResponseOpenData;
  reply: ResponseReplyData | null;
  error: (name: FieldName) => string | null;
}) {
  const t = useT();
  const value = (name: FieldName) => reply?.values[name] ?? "";
  const { max } = data.form;
  return (
    <fieldset className={`${formStyles.fieldset} ${styles.correctedFields}`}>
      <legend className={formStyles.legend}>{t("response.address.new")}</legend>
      <Field
        id="line1"
        name="line1"
        label={t("response.address.line1")}
        hint={t("response.address.line1.hint")}
        autoComplete="address-line1"
        maxLength={max.line1}
        defaultValue={value("line1")}
        error={error("line1")}
      />
      <Field
        id="line2"
        name="line2"
        label={t("response.address.line2")}
        hint={t("response.address.line2.hint")}
        autoComplete="address-line2"
        maxLength={max.line2}
        defaultValue={value("line2")}
        error={error("line2")}
      />
      <Field
        id="locality"
        name="locality"
        label={t("response.address.locality")}
        autoComplete="address-level2"
        maxLength={max.locality}
        defaultValue={value("locality")}
        error={error("locality")}
      />
      <Select id="state" label={t("response.address.state")} value={value("state")} error={error("state")}>
        <option value="">{t("response.address.state.none")}</option>
        {data.form.states.map((state) => (
          <option key={state} value={state}>
            {state}
          </option>
        ))}
      </Select>
      <Field
        id="postcode"
        name="postcode"
        label={t("response.address.postcode")}
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={4}
        className={`${formStyles.input} ${formStyles.narrow}`}
        defaultValue={value("postcode")}
        error={error("postcode")}
      />
      <Select
        id="country"
        label={t("response.address.country")}
        value={reply?.values.country ?? data.form.country}
        error={error("country")}
      >
        <option value="AU">{t("response.country.AU")}</option>
        <option value="NZ">{t("response.country.NZ")}</option>
      </Select>
    </fieldset>
  );
}

export function ResponseOpen({ data, reply }: { data: ResponseOpenData; reply: ResponseReplyData | null }) {
  const t = useT();
  const { question, form } = data;
  const errors = reply?.errors ?? {};
  const error = (name: FieldName) =>
    errors[name] ? t(errors[name]!, { max: (form.max as Record<string, number>)[name] ?? 0 }) : null;
  const problems = FIELD_ORDER.filter((name) => errors[name]);
  const chosen = reply?.values.choice ?? "";
  const firstChoice = `choice-${form.choices[0]}`;
  return (
    <div className={styles.page}>
      <Heading question={question} />
      <p>{lead(t, question)}</p>
      <QuestionFacts question={question} />
      <BusinessMessage question={question} />
      {problems.length || errors.form ? (
        <ErrorSummary id="answer-errors" title={t("response.error.summary")} answer={reply}>
          {errors.form ? <li>{t(errors.form)}</li> : null}
          {problems.map((name) => (
            <li key={name}>
              <a href={name === "choice" ? `#${firstChoice}` : `#${name}`}>{error(name)}</a>
            </li>
          ))}
        </ErrorSummary>
      ) : null}
      <Form method="post" className={styles.form}>
        <fieldset
          className={formStyles.fieldset}
          aria-describedby={errors.choice ? "choice-error" : undefined}
          aria-invalid={errors.choice ? true : undefined}
        >
          <legend className={formStyles.legend}>{t("response.form")}</legend>
          {errors.choice ? (
            <p id="choice-error" className={formStyles.error}>
              {error("choice")}
            </p>
          ) : null}
          {form.choices.map((choice) => (
            <div key={choice} className={formStyles.checkboxField}>
              <input
                type="radio"
                id={`choice-${choice}`}
                name="choice"
                value={choice}
                defaultChecked={chosen === choice}
                className={formStyles.checkbox}
              />
              <label htmlFor={`choice-${choice}`}>{t(`response.choice.${choice}`)}</label>
            </div>
          ))}
        </fieldset>
        {question.kind === "delivery-address" ? <AddressFields data={data} reply={reply} error={error} /> : null}
        {question.kind === "statement" ? (
          <div className={styles.disputedFields}>
            <TextArea
              id="note"
              label={t("response.note")}
              hint={t("response.note.hint", { max: form.max.note })}
              max={form.max.note}
              value={reply?.values.note ?? ""}
              error={error("note")}
            />
          </div>
        ) : null}
        {question.kind === "dispute" ? (
          <div className={styles.rejectedFields}>
            <TextArea
              id="reason"
              label={t("response.reason")}
              hint={t("response.reason.hint", { max: form.max.reason })}
              max={form.max.reason}
              value={reply?.values.reason ?? ""}
              error={error("reason")}
            />
          </div>
        ) : null}
        {form.nameRequired ? (
          <Field
            id="typedName"
            name="typedName"
            label={t("response.name")}
            hint={t("response.name.hint")}
            autoComplete="name"
            maxLength={form.max.typedName}
            defaultValue={reply?.values.typedName ?? ""}
            error={error("typedName")}
          />
        ) : null}
        <div className={formStyles.actions}>
          <button type="submit" className={buttonStyles.button}>
            {t("response.submit")}
          </button>
        </div>
        <p className={formStyles.hint}>{t("response.submit.hint", { business: question.businessName })}</p>
      </Form>
    </div>
  );
}

export function ResponseComplete({ data }: { data: ResponseCompleteData }) {
  const t = useT();
  const { question, answer } = data;
  return (
    <div className={styles.page}>
      <h1>{t("response.complete.title")}</h1>
      {data.notice === "already" ? <FormMessage kind="error">{t("response.complete.already")}</FormMessage> : null}
      <p>{t("response.complete.lead", { business: question.businessName, reference: question.reference })}</p>
      <section aria-labelledby="recorded-answer">
        <h2 id="recorded-answer">{t("response.complete.answer")}</h2>
        <dl className={tableStyles.details} data-testid="recorded-answer">
          <dt>{t("response.complete.choice")}</dt>
          <dd>
            <strong>{t(`response.choice.${answer.choice}`)}</strong>
          </dd>
          {answer.address ? (
            <>
              <dt>{t("response.complete.newAddress")}</dt>
              <dd>
                <address className={styles.address}>
                  {answer.address.map((line, index) => (
                    <span key={index}>
                      {line}
                      <br />
                    </span>
                  ))}
                </address>
              </dd>
            </>
          ) : null}
          {answer.note ? (
            <>
              <dt>{t("response.complete.note")}</dt>
              <dd className={styles.writing}>{answer.note}</dd>
            </>
          ) : null}
          {answer.reason ? (
            <>
              <dt>{t("response.complete.reason")}</dt>
              <dd className={styles.writing}>{answer.reason}</dd>
            </>
          ) : null}
          {answer.typedName ? (
            <>
              <dt>{t("response.complete.name")}</dt>
              <dd>{answer.typedName}</dd>
            </>
          ) : null}
          <dt>{t("response.complete.time")}</dt>
          <dd>{answer.time}</dd>
          <dt>{t("response.complete.reference")}</dt>
          <dd>{question.reference}</dd>
        </dl>
      </section>
      <section aria-labelledby="asked">
        <h2 id="asked">{t("response.complete.question", { business: question.businessName })}</h2>
        <p>
          <strong>{questionTitle(t, question)}</strong>
          <br />
          {t("response.account", { account: question.account })}
        </p>
        <QuestionFacts question={question} level={3} />
        <BusinessMessage question={question} level={3} />
      </section>
      <BusinessContact businessName={question.businessName} contact={data.contact} />
    </div>
  );
}

/** Withdrawn, expired, replaced by a newer link, or answered under a link that no longer opens it. */
export function ResponseClosed({ data }: { data: ResponseClosedData }) {
  const t = useT();
  const params = { reference: data.reference, business: data.businessName, date: data.answeredOn ?? "" };
  return (
    <div className={styles.page}>
      <h1>{t(`response.closed.${data.reason}.title`)}</h1>
      <p>{t(`response.closed.${data.reason}.text`, params)}</p>
      <BusinessContact businessName={data.businessName} contact={data.contact} />
    </div>
  );
}
