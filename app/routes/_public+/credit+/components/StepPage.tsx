import type { SubmissionResult } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import type { PlainCreditStep } from "~/lib/credit-steps";
import { DRAFT_DAYS } from "~/lib/credit-steps";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { useT } from "~/components/useT";
import * as styles from "./Credit.css";
import { errorsOf, StepForm, useCreditForm, type StepMessages } from "./CreditForm";
import { ErrorSummary, StepHeading, StepNotice, type StepFrameData } from "./CreditPage";
import type { StepBodyProps } from "./steps/shared";
import { metaDescription } from "~/lib/meta";

/**
 * One step of the credit application with plain fields (decision 038), as each of their routes
 * (`/credit/business`, `address`, `contacts`, `directors`, `credit`, `references`, `bank`) shows
 * it: back, "Step n of 9", the heading, a notice after a redirect, the error summary, a lead,
 * then the step's own fields in its form. Each route passes its fields, so a page loads only
 * its own step's code.
 */
export type StepView = StepFrameData & {
  step: PlainCreditStep;
  notice: string | null;
  country: "AU" | "NZ";
  currency: string;
  businessName: string;
  values: Record<string, unknown>;
  constraint: Record<string, Record<string, unknown>>;
};

export type StepReply = { result: SubmissionResult<string[]>; formError: MessageKey | null };

const NOTICES: Record<string, MessageKey> = {
  start: "credit.notice.start",
  incomplete: "credit.notice.incomplete",
  missing: "credit.notice.missing",
  recheck: "credit.notice.recheck",
};

export function CreditStepPage({
  view,
  reply,
  messages,
  lead,
  children,
}: {
  view: StepView;
  reply: StepReply | undefined;
  messages: StepMessages;
  lead?: MessageKey;
  children: (props: StepBodyProps) => ReactNode;
}) {
  const t = useT();
  const [form, fields] = useCreditForm({
    // Not the step's name alone: a field may share it (the bank step's `bank`), and ids are unique.
    id: `credit-${view.step}-form`,
    lastResult: reply?.result,
    constraint: view.constraint,
    messages,
    defaultValue: view.values,
  });
  const notice = view.notice && Object.hasOwn(NOTICES, view.notice) ? NOTICES[view.notice]! : null;
  return (
    <>
      <StepHeading data={view} title={t(`credit.step.${view.step}.title`)}>
        <StepNotice notice={notice} params={{ days: DRAFT_DAYS }} />
        <ErrorSummary errors={errorsOf(form)} formError={reply?.formError} />
        {lead ? <p className={styles.lead}>{t(lead, { business: view.businessName })}</p> : null}
      </StepHeading>
      <StepForm form={form} change={view.change}>
        {children({
          form,
          fields,
          country: view.country,
          currency: view.currency,
          businessName: view.businessName,
        })}
      </StepForm>
    </>
  );
}

/** A step's title: the step, the form, the business. */
export const stepMeta: MetaFunction<() => Promise<StepView>> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  const step = t(`credit.step.${data.step}.title`);
  return [
    { title: `${step} · ${t("credit.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.creditStep", data.businessName, { step }),
  ];
};
