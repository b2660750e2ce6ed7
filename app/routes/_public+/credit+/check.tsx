import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import * as buttons from "~/components/Button.css";
import * as styles from "./components/Credit.css";
import { ErrorSummary, Honeypot, StepHeading, StepNotice } from "./components/CreditPage";
import { useT } from "~/components/useT";
import { formatBusinessNumber } from "~/lib/business-numbers";
import { CREDIT_STEPS, stepPath, type CreditAddress, type CreditStep } from "~/lib/credit-steps";
import { metaTranslator } from "~/lib/i18n";
import { visuallyHidden } from "~/styles/global.css";
import { checkView, CREDIT_PAGE_HEADERS, submitAction, requireSameOrigin } from "./credit.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * Check your answers (issue 17; decision 038; GOV.UK's pattern): every step's answers, each
 * with "Change" back to its step (which then returns here), and "Send application". A step not
 * answered yet says so with a link to answer it; sending with one missing opens that step with a
 * notice. Sending is one transaction; a second press does nothing more (decision 038).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return checkView(request);
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return submitAction(request);
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

type View = ReturnType<typeof useLoaderData<typeof loader>>;

function Section({ view, step, children }: { view: View; step: CreditStep; children: ReactNode }) {
  const t = useT();
  const title = t(`credit.step.${step}.title`);
  const answered = view.answered.includes(step);
  return (
    <section className={styles.section} aria-labelledby={`check-${step}`}>
      <div className={styles.sectionHead}>
        <h2 id={`check-${step}`}>{title}</h2>
        {answered ? (
          <Link to={`${stepPath(step)}?change=1`}>
            {t("credit.check.change")}
            <span className={visuallyHidden}> {title}</span>
          </Link>
        ) : null}
      </div>
      {answered ? (
        <dl className={styles.summary}>{children}</dl>
      ) : (
        <p>
          <span className={styles.missing}>{t("credit.check.notAnswered")}</span>{" "}
          <Link to={`${stepPath(step)}?change=1`}>
            {t("credit.check.answer")}
            <span className={visuallyHidden}> {title}</span>
          </Link>
        </p>
      )}
    </section>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

function addressLines(address: CreditAddress) {
  const locality = [address.suburb, address.city, address.state, address.postcode].filter(Boolean).join(" ");
  return [address.line1, address.line2, locality].filter(Boolean).join("\n");
}

/** No script at all (decision 084): a signed-out form that posts as HTML does, its error summary focused with `autofocus`. */
export const handle = STATIC_PAGE;

export default function CreditCheck() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const t = useT();
  const navigation = useNavigation();
  const { answers, country } = view;
  const business = answers.business;
  const address = answers.address;
  const contacts = answers.contacts;
  const bank = answers.bank;
  const complete = CREDIT_STEPS.every((step) => view.answered.includes(step));
  return (
    <>
      <StepHeading data={view} title={t("credit.check.title")}>
        <ErrorSummary errors={[]} formError={reply?.formError ?? null} />
        <StepNotice notice={view.notice === "missing" ? "credit.notice.missing" : null} />
        <p className={styles.lead}>{t("credit.check.lead")}</p>
      </StepHeading>

      <Section view={view} step="business">
        {business ? (
          <>
            <Row label={t("credit.field.legalName")} value={business.legalName} />
            {business.tradingName ? <Row label={t("credit.check.tradingName")} value={business.tradingName} /> : null}
            <Row label={t("credit.check.entityType")} value={t(`credit.entity.${business.entityType}`)} />
            {business.abn ? (
              <Row label={t("credit.field.abn")} value={formatBusinessNumber("abn", business.abn)} />
            ) : null}
            {business.acn ? (
              <Row label={t("credit.field.acn")} value={formatBusinessNumber("acn", business.acn)} />
            ) : null}
            {business.nzbn ? <Row label={t("credit.field.nzbn")} value={business.nzbn} /> : null}
          </>
        ) : null}
      </Section>

      <Section view={view} step="address">
        {address ? (
          <>
            <Row label={t("credit.address.trading")} value={addressLines(address.trading)} />
            <Row
              label={t("credit.address.postal")}
              value={address.postal ? addressLines(address.postal) : t("credit.check.postalSame")}
            />
          </>
        ) : null}
      </Section>

      <Section view={view} step="contacts">
        {contacts ? (
          <>
            <Row
              label={t("credit.contacts.you")}
              value={[
                `${contacts.applicant.name}, ${contacts.applicant.position}`,
                contacts.applicant.email,
                contacts.applicant.phone,
              ].join("\n")}
            />
            <Row
              label={t("credit.contacts.ap")}
              value={
                contacts.accountsPayableIsApplicant
                  ? t("credit.check.apIsApplicant")
                  : [
                      contacts.accountsPayable.name,
                      contacts.accountsPayable.email,
                      contacts.accountsPayable.phone,
                    ].join("\n")
              }
            />
          </>
        ) : null}
      </Section>

      <Section view={view} step="directors">
        {answers.directors?.people.map((person, index) => (
          <Row
            key={index}
            label={t("credit.directors.person", { n: index + 1 })}
            value={`${person.name} (${t(`credit.role.${person.role}`)})`}
          />
        ))}
      </Section>

      <Section view={view} step="credit">
        {answers.credit ? (
          <>
            <Row label={t("credit.field.limit")} value={view.money?.limit} />
            <Row label={t("credit.field.monthly")} value={view.money?.monthly} />
          </>
        ) : null}
      </Section>

      <Section view={view} step="references">
        {answers.references?.referees.map((referee, index) => (
          <Row
            key={index}
            label={t("credit.references.referee", { n: index + 1 })}
            value={[referee.business, referee.contactName, referee.email, referee.phone].join("\n")}
          />
        ))}
      </Section>

      <Section view={view} step="bank">
        {bank ? (
          bank.directDebit ? (
            <>
              <Row label={t("pm.field.accountName")} value={bank.accountName} />
              <Row
                label={t(country === "AU" ? "pm.field.bsb" : "credit.check.nzAccount")}
                value={view.bankShown?.routing}
              />
              {country === "AU" ? <Row label={t("pm.field.auAccountNumber")} value={view.bankShown?.account} /> : null}
            </>
          ) : (
            <Row label={t("credit.field.directDebit")} value={t("credit.check.noDirectDebit")} />
          )
        ) : null}
      </Section>

      <Section view={view} step="documents">
        {view.documents.length === 0 ? (
          <Row label={t("credit.documents.list")} value={t("credit.check.noDocuments")} />
        ) : (
          view.documents.map((document) => (
            <Row
              key={document.id}
              label={t(`credit.kind.${document.kind}`)}
              value={`${document.fileName} (${document.size})`}
            />
          ))
        )}
      </Section>

      <Section view={view} step="terms">
        {view.terms ? (
          <Row
            label={view.terms.title}
            value={
              view.terms.version === null
                ? t("credit.check.termsChanged")
                : t("credit.check.termsAccepted", { version: view.terms.version, name: view.terms.name })
            }
          />
        ) : null}
      </Section>

      <section className={styles.panel} aria-labelledby="check-send">
        <h2 id="check-send">{t("credit.check.send.title")}</h2>
        <p>{t("credit.check.send.text", { business: view.businessName })}</p>
        {complete ? null : <p className={styles.missing}>{t("credit.check.incomplete")}</p>}
        <Form method="post">
          <Honeypot />
          <button type="submit" className={buttons.button} disabled={navigation.state === "submitting"}>
            {t("credit.check.submit")}
          </button>
        </Form>
      </section>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("credit.check.title")} · ${t("credit.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.creditCheck", data.businessName),
  ];
};
