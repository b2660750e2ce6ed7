import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { BusinessContact } from "~/components/BusinessContact";
import * as buttons from "~/components/Button.css";
import * as styles from "./components/Credit.css";
import { StepNotice } from "./components/CreditPage";
import * as formStyles from "~/components/Form.css";
import { useT, withElements } from "~/components/useT";
import { stepPath } from "~/lib/credit-steps";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { CREDIT_PAGE_HEADERS, startAction, startView, requireSameOrigin } from "./credit.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * `/credit`: apply for a trade account with the business of this host (issue 17; decision 038),
 * signed out. What you'll need and how long it takes, then "Start now" — or, when this browser
 * has an application in progress, "Continue your application" and "Start again". A business
 * that has published no terms of trade takes no applications: the page says so, with its
 * contact details.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return startView(request);
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return startAction(request);
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

const NOTICES: Record<string, MessageKey> = {
  discarded: "credit.notice.discarded",
  none: "credit.notice.none",
};

/** No script at all (decision 084): a signed-out form that posts as HTML does, its error summary focused with `autofocus`. */
export const handle = STATIC_PAGE;

export default function CreditStart() {
  const view = useLoaderData<typeof loader>();
  const t = useT();
  if (!view.open) {
    return (
      <>
        <h1>{t("credit.closed.title")}</h1>
        <p>{t("credit.closed.text", { business: view.businessName })}</p>
        <BusinessContact businessName={view.businessName} contact={view.contact} />
      </>
    );
  }
  const notice = view.notice && Object.hasOwn(NOTICES, view.notice) ? NOTICES[view.notice]! : null;
  return (
    <>
      <h1>{t("credit.title")}</h1>
      <StepNotice notice={notice} />
      <p className={styles.lead}>{t("credit.start.lead", { business: view.businessName })}</p>
      {view.draft ? (
        <div className={styles.panel}>
          <p>
            {t("credit.start.draft", { answered: view.draft.answered, total: view.total, expires: view.draft.expires })}
          </p>
          <p>
            <Link to={view.draft.continueHref} className={buttons.button}>
              {t("credit.start.continue")}
            </Link>
          </p>
        </div>
      ) : (
        <p>
          <Link to={stepPath("business")} className={buttons.button}>
            {t("credit.start.start")}
          </Link>
        </p>
      )}
      <h2>{t("credit.start.need")}</h2>
      <ul className={styles.lead}>
        <li>{t(view.country === "AU" ? "credit.start.need.business.AU" : "credit.start.need.business.NZ")}</li>
        <li>{t("credit.start.need.address")}</li>
        <li>{t("credit.start.need.contacts")}</li>
        <li>{t("credit.start.need.directors")}</li>
        <li>{t("credit.start.need.credit")}</li>
        <li>{t("credit.start.need.references")}</li>
        <li>{t("credit.start.need.bank")}</li>
        <li>{t("credit.start.need.documents", { size: view.maxSize })}</li>
        <li>{t("credit.start.need.terms", { business: view.businessName })}</li>
      </ul>
      <p className={styles.lead}>{t("credit.start.time", { days: view.draftDays })}</p>
      <p className={styles.lead}>
        {withElements(t("credit.start.privacy", { business: view.businessName }), {
          policy: <Link to="/privacy-policy">{t("credit.start.privacyLink")}</Link>,
        })}
      </p>
      {view.draft ? (
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="intent" value="discard" />
          <p className={formStyles.hint}>{t("credit.start.discard.hint")}</p>
          <div className={formStyles.actions}>
            <button type="submit" className={buttons.secondaryButton}>
              {t("credit.start.discard")}
            </button>
          </div>
        </Form>
      ) : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t(data.open ? "credit.title" : "credit.closed.title")} · ${data.businessName}` },
    metaDescription(matches, data.open ? "meta.credit" : "meta.creditClosed", data.businessName),
  ];
};
