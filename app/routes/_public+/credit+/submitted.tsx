import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import * as styles from "./components/Credit.css";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { CREDIT_PAGE_HEADERS, submittedView } from "./credit.server";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * The confirmation after sending a credit application (issue 17; decision 038): the reference,
 * where the confirmation email went, and what happens next. Opened by the redirect after the
 * submission, which set a short-lived cookie naming the reference (the draft's cookie is gone):
 * a refresh reads the page again and sends nothing; without that cookie, the start page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return submittedView(request);
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

/** Read-only: the document carries no script (decision 049). */
export const handle = STATIC_PAGE;

export default function CreditSubmitted() {
  const view = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("credit.submitted.title")}</h1>
      <div className={styles.panel}>
        <p>{t("credit.submitted.reference")}</p>
        <p className={styles.reference} data-testid="credit-reference">
          {view.reference}
        </p>
        <p>{t("credit.submitted.email", { email: view.applicantEmail, date: view.submitted })}</p>
      </div>
      <h2>{t("credit.submitted.next")}</h2>
      <ul>
        <li>{t("credit.submitted.next.referees")}</li>
        <li>{t("credit.submitted.next.review", { business: view.businessName })}</li>
        <li>{t("credit.submitted.next.quote")}</li>
      </ul>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("credit.submitted.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.creditSubmitted", data.businessName),
  ];
};
