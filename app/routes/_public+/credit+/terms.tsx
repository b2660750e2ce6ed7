import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AgreementText, PrintControls } from "~/components/Agreement";
import * as agreementStyles from "~/components/Agreement.css";
import * as buttons from "~/components/Button.css";
import * as styles from "./components/Credit.css";
import { ErrorSummary, Honeypot, StepHeading, StepNotice } from "./components/CreditPage";
import { Field, FormMessage } from "~/components/Form";
import * as formStyles from "~/components/Form.css";
import { useT } from "~/components/useT";
import { TYPED_NAME_MAX } from "~/lib/agreements";
import { DRAFT_DAYS } from "~/lib/credit-steps";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { CREDIT_PAGE_HEADERS, termsAction, termsView, requireSameOrigin } from "./credit.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * The business's terms of trade (issue 17; decision 038; the agreements rules of decision 036):
 * the latest published version's exact text, printable, accepted with the applicant's typed full
 * name and a tick. The form posts the version it showed: when a newer one was published in the
 * meantime nothing is recorded and the page shows the new version with a notice.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return termsView(request);
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return termsAction(request);
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

const NOTICES: Record<string, MessageKey> = {
  start: "credit.notice.start",
  incomplete: "credit.notice.incomplete",
  missing: "credit.notice.missing",
  changed: "credit.terms.changed",
  stale: "credit.terms.stale",
};

/** No script at all (decision 084): a signed-out form that posts as HTML does, its error summary focused with `autofocus`. */
export const handle = STATIC_PAGE;

export default function CreditTerms() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const t = useT();
  const navigation = useNavigation();
  const { terms } = view;
  const errors = reply?.errors ?? {};
  const summary: [string, MessageKey][] = [];
  if (errors.typedName) summary.push(["typedName", errors.typedName]);
  if (errors.agreed) summary.push(["agreed", errors.agreed]);
  const notice = view.notice && Object.hasOwn(NOTICES, view.notice) ? NOTICES[view.notice]! : null;
  return (
    <>
      <StepHeading data={view} title={terms.title}>
        <StepNotice notice={notice} params={{ version: terms.version, days: DRAFT_DAYS }} />
        <ErrorSummary errors={summary} formError={errors.form ?? null} />
        <p className={agreementStyles.meta}>
          {t("credit.terms.meta", { version: terms.version, date: terms.published })}
        </p>
        <p className={styles.lead}>{t("credit.terms.lead", { business: view.businessName })}</p>
        {view.accepted ? (
          <FormMessage kind="notice">
            {t("credit.terms.accepted", { name: view.accepted.name, date: view.accepted.on })}
          </FormMessage>
        ) : null}
      </StepHeading>
      <AgreementText body={terms.body} label={t("agreement.text", { title: terms.title, version: terms.version })} />
      <PrintControls />
      <section aria-labelledby="credit-terms-accept" className={agreementStyles.decision}>
        <h2 id="credit-terms-accept">{t("credit.terms.form")}</h2>
        {/* The server judges the name and the tick, with the messages the page shows (no browser bubbles). */}
        <Form method="post" className={styles.form} noValidate>
          <input type="hidden" name="versionId" value={terms.versionId} />
          <Field
            id="typedName"
            name="typedName"
            label={t("agreement.name")}
            hint={t("agreement.name.hint")}
            autoComplete="name"
            required
            maxLength={TYPED_NAME_MAX}
            defaultValue={reply?.values.typedName ?? view.accepted?.name ?? ""}
            error={errors.typedName ? t(errors.typedName) : null}
          />
          <div className={formStyles.checkboxField}>
            <input
              type="checkbox"
              id="agreed"
              name="agreed"
              value="yes"
              defaultChecked={reply?.values.agreed ?? false}
              className={formStyles.checkbox}
              aria-invalid={errors.agreed ? true : undefined}
              aria-describedby={errors.agreed ? "agreed-error" : undefined}
            />
            <label htmlFor="agreed">{t("credit.terms.agreed", { title: terms.title, version: terms.version })}</label>
            {errors.agreed ? (
              <p id="agreed-error" className={formStyles.checkboxError}>
                {t(errors.agreed)}
              </p>
            ) : null}
          </div>
          {view.change ? <input type="hidden" name="returnTo" value="check" /> : null}
          <Honeypot />
          <div className={formStyles.actions}>
            <button type="submit" className={buttons.button} disabled={navigation.state === "submitting"}>
              {t("credit.terms.accept")}
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${data.terms.title} · ${t("credit.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.creditStep", data.businessName, { step: t("credit.step.terms.title") }),
  ];
};
