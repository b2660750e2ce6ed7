import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { HONEYPOT_FIELD } from "~/lib/credit-steps";
import type { MessageKey } from "~/lib/i18n";
import { FormMessage } from "~/components/Form";
import { useT } from "~/components/useT";
import * as styles from "./Credit.css";

/**
 * The parts of a credit application page that need no form library (decision 038): the heading
 * with its back link and progress, a notice after a redirect, the error summary, the honeypot.
 * Kept apart from CreditForm.tsx (conform) so the start, documents, terms and check pages ship
 * without it.
 */
/** "There is a problem" with a link to each field that has one (GOV.UK's error summary). */
export function ErrorSummary({
  errors,
  formError,
  params,
}: {
  errors: [string, MessageKey][];
  formError?: MessageKey | null;
  params?: Record<string, string | number>;
}) {
  const t = useT();
  if (errors.length === 0 && !formError) return null;
  return (
    <FormMessage kind="error" id="credit-errors">
      <strong>{t("credit.error.summary")}</strong>
      <ul className={styles.errorList}>
        {formError ? <li>{t(formError, params)}</li> : null}
        {errors.map(([id, message]) => (
          <li key={id}>
            <a href={`#${id}`}>{t(message, params)}</a>
          </li>
        ))}
      </ul>
    </FormMessage>
  );
}

/** A notice after a redirect (a step to answer first, a file added…). */
export function StepNotice({
  notice,
  params,
}: {
  notice: MessageKey | null;
  params?: Record<string, string | number>;
}) {
  const t = useT();
  if (!notice) return null;
  const problem = !["credit.notice.uploaded", "credit.notice.removed", "credit.notice.discarded"].includes(notice);
  return <FormMessage kind={problem ? "error" : "notice"}>{t(notice, params)}</FormMessage>;
}

/**
 * The honeypot (decision 038): people never see or reach it; a robot that fills it is refused.
 * Hidden from screen readers too (`aria-hidden`), or it is announced on every step (issue 32).
 */
export function Honeypot() {
  const t = useT();
  return (
    <div className={styles.honeypot} aria-hidden="true">
      <label htmlFor="credit-honeypot">{t("credit.honeypot")}</label>
      <input id="credit-honeypot" type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export type StepFrameData = {
  step: string;
  position: number;
  total: number;
  backHref: string;
  change: boolean;
};

/** Back, "Step n of 9", the heading and what comes before the form. */
export function StepHeading({ data, title, children }: { data: StepFrameData; title: string; children?: ReactNode }) {
  const t = useT();
  return (
    <>
      <Link to={data.backHref} className={styles.back}>
        {t("credit.back")}
      </Link>
      {data.position <= data.total ? (
        <p className={styles.progress}>{t("credit.progress", { n: data.position, total: data.total })}</p>
      ) : null}
      <h1>{title}</h1>
      {children}
    </>
  );
}
