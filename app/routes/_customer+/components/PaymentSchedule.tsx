import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MessageKey } from "~/lib/i18n";
import {
  retrySteps,
  scheduleAuthority,
  type AcceptanceData,
  type AgreementName,
  type ClosedData,
  type FeeRow,
  type MethodsForm,
  type ProgressData,
  type ScheduleSummary,
  type WayToPayRefusal,
} from "~/lib/schedule-pages";
import type { Translate } from "~/lib/i18n";
import { button, secondaryButton } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import * as styles from "./PaymentSchedule.css";
import * as table from "~/components/Table.css";
import { useLanguage, useT } from "~/components/useT";
import { ordinalIn } from "~/lib/format";
import { StackedTable } from "~/components/StackedTable";

/**
 * A payment schedule as its contact sees it (issue 15; decision 034): the proposal to review and
 * accept, its progress, and the plain page of a schedule or link that no longer opens. Plain
 * forms (POST, then a redirect or the page again with what went wrong), so every step works
 * without JavaScript. The data comes formatted from `schedule-pages.server.ts`.
 */

/** Refusals that belong to the way-to-pay radios; the rest are about the proposal itself. */
const WAY_ERRORS: readonly WayToPayRefusal[] = ["method", "cardExpired", "agreementInactive", "payToOff", "payToLimit"];

/** A PayTo agreement by its PayID, or its BSB and the account's last digits. */
const agreementLabel = (t: Translate, agreement: AgreementName) =>
  agreement.payId ?? t("paytoPay.method.bban", { bsb: agreement.bsb ?? "", last3: agreement.last3 ?? "" });

export function ScheduleAcceptance({ data }: { data: AcceptanceData }) {
  const t = useT();
  if (data.kind === "closed") return <ScheduleClosed data={data} />;
  const { schedule } = data;
  // The same words the accept action stores (`scheduleAuthority` over the same facts).
  const authority = scheduleAuthority(t, data.authority);
  return (
    <>
      <h1>{t("schedules.accept.title", { reference: schedule.reference })}</h1>
      {data.mode === "signedIn" && data.refusal ? (
        <FormMessage kind="error">
          {t(`schedules.refusal.${data.refusal}` as MessageKey, { business: data.businessName })}
        </FormMessage>
      ) : null}
      <Lead data={data} />
      <div className={styles.actions}>
        {data.mode === "link" ? (
          <Link to={data.signInHref} className={button}>
            {t("schedules.accept.signIn")}
          </Link>
        ) : (
          <a href="#accept" className={button}>
            {t("schedules.accept.jump")}
          </a>
        )}
      </div>
      <p className={styles.hint}>
        {data.mode === "link" ? t("schedules.accept.signInHint") : null}{" "}
        {t("schedules.accept.by", { date: data.expires })}
      </p>
      <ScheduleFacts schedule={schedule} />
      <InstalmentTable schedule={schedule} caption={t("schedules.instalments")} />
      <Fees rows={data.fees} />
      <section aria-labelledby="schedule-retry" className={styles.section}>
        <h2 id="schedule-retry">{t("schedules.retry.title")}</h2>
        <p>{t("schedules.retry.text", { steps: retrySteps(t), business: data.businessName })}</p>
      </section>
      {data.mode === "link" ? (
        <section aria-labelledby="schedule-authority" className={styles.section}>
          <h2 id="schedule-authority">{t("schedules.authority.title")}</h2>
          <p className={styles.authority}>{authority}</p>
          <Link to={data.signInHref} className={button}>
            {t("schedules.accept.signIn")}
          </Link>
        </section>
      ) : (
        <AcceptForm form={data.form} refusal={data.refusal} authority={authority} business={data.businessName} />
      )}
    </>
  );
}

function Lead({ data }: { data: Extract<AcceptanceData, { kind: "review" }> }) {
  const t = useT();
  const { schedule } = data;
  return (
    <p className={styles.lead}>
      {t("schedules.lead", { business: data.businessName })}
      <strong className={styles.amount}>{schedule.total}</strong>
      {schedule.count === 1
        ? t("schedules.lead.one", { date: schedule.first.date })
        : t("schedules.lead.many", { count: schedule.count, amount: schedule.first.amount, date: schedule.first.date })}
    </p>
  );
}

function ScheduleFacts({ schedule }: { schedule: ScheduleSummary }) {
  const t = useT();
  return (
    <dl className={table.details}>
      <dt>{t("schedules.reference")}</dt>
      <dd>{schedule.reference}</dd>
      {schedule.description ? (
        <>
          <dt>{t("schedules.description")}</dt>
          <dd>{schedule.description}</dd>
        </>
      ) : null}
      <dt>{t("schedules.account")}</dt>
      <dd>{schedule.account}</dd>
      <dt>{t("schedules.total")}</dt>
      <dd>
        <strong>{schedule.total}</strong>
      </dd>
      {schedule.invoices.length ? (
        <>
          <dt>{t("schedules.invoices")}</dt>
          <dd>
            <ul className={table.list}>
              {schedule.invoices.map((invoice) => (
                <li key={invoice.number}>
                  {t("schedules.invoice", { number: invoice.number, amount: invoice.amount })}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** Every instalment's day, amount and state: a table, stacked rows on a phone. */
export function InstalmentTable({ schedule, caption }: { schedule: ScheduleSummary; caption: string }) {
  const t = useT();
  const language = useLanguage();
  return (
    // Not a landmark of its own: the scrolling region below is the one named by the heading.
    <section className={styles.section}>
      <h2 id="schedule-instalments">{caption}</h2>
      <div className={table.scroll} tabIndex={0} role="region" aria-labelledby="schedule-instalments">
        <StackedTable
          rows={schedule.instalments}
          rowKey={(row) => row.id}
          columns={[
            {
              label: t("schedules.col.instalment"),
              kind: "title",
              cell: (row) => t("schedules.instalment", { seq: ordinalIn(row.seq, language), count: schedule.count }),
            },
            { label: t("schedules.col.due"), cell: (row) => row.date },
            { label: t("schedules.col.amount"), kind: "amount", cell: (row) => row.amount },
            {
              label: t("schedules.col.state"),
              cell: (row) => (
                <span>
                  <span className={table.badge}>{t(`schedules.view.${row.view}` as MessageKey)}</span>
                  {row.nextTry ? <> {t("schedules.view.nextTry", { date: row.nextTry })}</> : null}
                  {row.receiptHref ? (
                    <>
                      {" "}
                      <Link to={row.receiptHref}>{t("schedules.receipt")}</Link>
                    </>
                  ) : null}
                </span>
              ),
            },
          ]}
        />
      </div>
    </section>
  );
}

function Fees({ rows }: { rows: FeeRow[] }) {
  const t = useT();
  return (
    <section aria-labelledby="schedule-fees" className={styles.section}>
      <h2 id="schedule-fees">{t("schedules.fees.title")}</h2>
      <p>{t("schedules.fees.intro")}</p>
      <div className={table.scroll}>
        <StackedTable
          rows={rows}
          rowKey={(row) => `${row.kind}:${row.brands ?? ""}`}
          columns={[
            {
              label: t("schedules.fees.way"),
              kind: "title",
              cell: (row) =>
                row.kind === "brands"
                  ? row.brands
                  : t(
                      row.kind === "other"
                        ? "schedules.fees.otherCards"
                        : row.kind === "cards"
                          ? "schedules.fees.cards"
                          : "schedules.fees.payTo",
                    ),
            },
            { label: t("schedules.fees.rate"), cell: (row) => row.rate ?? t("schedules.fees.none") },
            { label: t("schedules.fees.first"), kind: "number", cell: (row) => row.first },
            { label: t("schedules.fees.total"), kind: "amount", cell: (row) => row.total },
          ]}
        />
      </div>
    </section>
  );
}

/** The saved cards and active PayTo agreements to choose from, as radios named `way`. */
function WayChoice({
  form,
  error,
  legend,
  business,
}: {
  form: MethodsForm;
  error: string | null;
  legend: string;
  business: string;
}) {
  const t = useT();
  return (
    <fieldset
      className={formStyles.fieldset}
      aria-describedby={error ? "way-error" : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className={formStyles.legend}>{legend}</legend>
      {error ? (
        <p id="way-error" className={formStyles.error}>
          {error}
        </p>
      ) : null}
      {form.options.map((option) => {
        const id = `way-${option.value.replace(":", "-")}`;
        return (
          <div key={option.value} className={formStyles.checkboxField}>
            <input
              type="radio"
              id={id}
              name="way"
              value={option.value}
              defaultChecked={form.chosen === option.value}
              className={formStyles.checkbox}
            />
            <label htmlFor={id}>
              {option.kind === "card"
                ? t("schedules.way.card", {
                    card: option.name,
                    expiry: option.expiry,
                    surcharge: option.surcharge,
                  })
                : t("schedules.way.payto", { account: agreementLabel(t, option.agreement) })}
            </label>
          </div>
        );
      })}
      {form.options.length === 0 ? <p className={formStyles.hint}>{t("schedules.way.none")}</p> : null}
      {form.waiting.map((waiting) => (
        <p key={agreementLabel(t, waiting.agreement)} className={formStyles.hint}>
          {t(waiting.status === "CREATED" ? "paytoPay.method.pending" : "paytoPay.method.suspended", {
            account: agreementLabel(t, waiting.agreement),
          })}
        </p>
      ))}
      {form.addCardHref || form.setUpPayToHref ? (
        <p className={formStyles.hint}>
          {form.addCardHref ? <Link to={form.addCardHref}>{t("schedules.way.addCard")}</Link> : null}
          {form.addCardHref && form.setUpPayToHref ? " · " : null}
          {form.setUpPayToHref ? <Link to={form.setUpPayToHref}>{t("schedules.way.setUpPayTo")}</Link> : null}
        </p>
      ) : null}
      {form.noAccess ? <p className={formStyles.hint}>{t("schedules.way.noAccess", { business })}</p> : null}
    </fieldset>
  );
}

function AcceptForm({
  form,
  refusal,
  authority,
  business,
}: {
  form: MethodsForm;
  refusal: WayToPayRefusal | null;
  authority: string;
  business: string;
}) {
  const t = useT();
  const navigation = useNavigation();
  const wayError = refusal && WAY_ERRORS.includes(refusal) ? t(`schedules.error.${refusal}` as MessageKey) : null;
  const authorityError = refusal === "authority" ? t("schedules.error.authority") : null;
  return (
    <Form method="post" id="accept" className={styles.form} aria-labelledby="accept-title">
      <h2 id="accept-title">{t("schedules.accept.formTitle")}</h2>
      <input type="hidden" name="intent" value="accept" />
      <WayChoice form={form} error={wayError} legend={t("schedules.way.legend")} business={business} />
      <div>
        <h3>{t("schedules.authority.title")}</h3>
        <p className={styles.authority} id="authority-text">
          {authority}
        </p>
      </div>
      <div className={formStyles.checkboxField}>
        <input
          type="checkbox"
          id="authority"
          name="authority"
          className={formStyles.checkbox}
          aria-invalid={authorityError ? true : undefined}
          aria-describedby={authorityError ? "authority-text authority-error" : "authority-text"}
        />
        <label htmlFor="authority">{t("schedules.authority.agree")}</label>
        {authorityError ? (
          <p id="authority-error" className={formStyles.checkboxError}>
            {authorityError}
          </p>
        ) : null}
      </div>
      <div className={formStyles.actions}>
        <button type="submit" className={button} disabled={navigation.state === "submitting"}>
          {t("schedules.accept.submit")}
        </button>
      </div>
    </Form>
  );
}

/** A proposal or link that no longer opens: what became of it, and whom to ask. */
export function ScheduleClosed({ data }: { data: ClosedData }) {
  const t = useT();
  const params = { reference: data.reference, business: data.businessName, date: data.acceptedOn ?? "" };
  return (
    <>
      <h1>{t(`schedules.closed.${data.reason}.title` as MessageKey)}</h1>
      {data.refused ? <FormMessage kind="error">{t("schedules.closed.refused")}</FormMessage> : null}
      <p>{t(`schedules.closed.${data.reason}.text` as MessageKey, params)}</p>
      {data.progressHref ? (
        <p>
          <Link to={data.progressHref} className={button}>
            {t("schedules.closed.progress")}
          </Link>
        </p>
      ) : null}
      {data.contact.email || data.contact.phone ? (
        <>
          <p>{t("requestPage.contact", { business: data.businessName })}</p>
          <dl className={table.details}>
            {data.contact.email ? (
              <>
                <dt>{t("requestPage.contact.email")}</dt>
                <dd>
                  <a href={`mailto:${data.contact.email}`}>{data.contact.email}</a>
                </dd>
              </>
            ) : null}
            {data.contact.phone ? (
              <>
                <dt>{t("requestPage.contact.phone")}</dt>
                <dd>
                  <a href={`tel:${data.contact.phone.replace(/[^\d+]/g, "")}`}>{data.contact.phone}</a>
                </dd>
              </>
            ) : null}
          </dl>
        </>
      ) : null}
    </>
  );
}

/**
 * One schedule's progress: what is paid and left, the next instalment with "Pay now", every
 * instalment's state, the way to pay with "Change". `payAnotherWay` is the link page's new-card
 * form for a declined instalment.
 */
export function ScheduleProgress({ data, payAnotherWay }: { data: ProgressData; payAnotherWay?: ReactNode }) {
  const t = useT();
  const language = useLanguage();
  const navigation = useNavigation();
  const { schedule } = data;
  const changeError =
    data.change?.refusal && WAY_ERRORS.includes(data.change.refusal)
      ? t(`schedules.error.${data.change.refusal}` as MessageKey)
      : null;
  return (
    <>
      <h1>{t("schedules.progress.title", { reference: schedule.reference })}</h1>
      {data.notice ? (
        <FormMessage kind="notice">
          {t(`schedules.notice.${data.notice}` as MessageKey)}
          {data.receiptHref ? (
            <>
              {" "}
              <Link to={data.receiptHref}>{t("schedules.receipt.open")}</Link>
            </>
          ) : null}
        </FormMessage>
      ) : null}
      {data.message ? (
        <FormMessage kind="error">
          {t(data.message as MessageKey, {
            ...data.messageParams,
            ...(data.reasonKey ? { reason: t(data.reasonKey as MessageKey) } : {}),
          })}
        </FormMessage>
      ) : null}
      {data.change?.refusal ? (
        <FormMessage kind="error">
          {t(`schedules.refusal.${data.change.refusal}` as MessageKey, { business: data.businessName })}
        </FormMessage>
      ) : null}
      <p className={styles.lead}>
        <span className={table.badge}>{t(`schedules.state.${schedule.state}` as MessageKey)}</span>{" "}
        {t("schedules.progress.lead", { paid: schedule.paid, total: schedule.total })}
        <strong className={styles.amount}>{t("schedules.progress.left", { remaining: schedule.remaining })}</strong>
      </p>
      {data.pay.length ? (
        <div className={styles.actions}>
          {data.pay.map((pay) => (
            <Form method="post" key={pay.instalmentId}>
              <input type="hidden" name="intent" value="pay" />
              <input type="hidden" name="instalmentId" value={pay.instalmentId} />
              <input type="hidden" name="expectedAmount" value={pay.totalCents} />
              <input type="hidden" name="requestGuid" value={data.requestGuid} />
              <button
                type="submit"
                className={pay.failed || !data.pay.some((p) => p.failed) ? button : secondaryButton}
                disabled={navigation.state === "submitting"}
              >
                {t(pay.failed ? "schedules.pay.failed" : "schedules.pay.next", {
                  seq: ordinalIn(pay.seq, language),
                  total: pay.total,
                })}
              </button>
            </Form>
          ))}
        </div>
      ) : null}
      {payAnotherWay}
      <InstalmentTable schedule={schedule} caption={t("schedules.instalments")} />
      <section aria-labelledby="schedule-way" className={styles.section}>
        <h2 id="schedule-way">{t("schedules.way.title")}</h2>
        <p>
          {data.wayToPay
            ? data.wayToPay.kind === "card"
              ? t("schedules.way.currentCard", { card: data.wayToPay.name })
              : t("schedules.way.currentPayTo", { account: agreementLabel(t, data.wayToPay.agreement) })
            : t("schedules.way.noneChosen")}
          {data.wayToPay?.status ? <> {t("schedules.way.notActive")}</> : null}
        </p>
        {data.change ? (
          <details className={styles.change} open={Boolean(data.change.refusal)}>
            <summary className={styles.summary}>{t("schedules.way.change")}</summary>
            <Form method="post" className={styles.form}>
              <input type="hidden" name="intent" value="change" />
              <WayChoice
                form={data.change}
                error={changeError}
                legend={t("schedules.way.changeLegend")}
                business={data.businessName}
              />
              <div className={formStyles.actions}>
                <button type="submit" className={button} disabled={navigation.state === "submitting"}>
                  {t("schedules.way.changeSubmit")}
                </button>
              </div>
            </Form>
          </details>
        ) : null}
      </section>
      <ScheduleFacts schedule={schedule} />
    </>
  );
}
