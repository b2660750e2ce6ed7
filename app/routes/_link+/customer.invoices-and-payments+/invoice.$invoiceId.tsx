import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { button } from "~/components/Button.css";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { signedInInvoiceView } from "./invoices-and-payments.server";
import { metaTranslator } from "~/lib/i18n";
import { PayIdPanel } from "~/components/PayIdPanel";
import { InvoiceDetails, InvoicePdfLink } from "~/components/InvoiceDetails";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * One invoice of the selected account, laid out to print (the shell's menus are hidden in
 * print), with the payments made on it. Another account's invoice is 'Page not found'.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // The page and its PDF read the same view (issue 34); the brand stays on the server.
  const { branding: _branding, ...view } = await signedInInvoiceView(request, params.invoiceId);
  return view;
}

/** Read-only: the document carries no script (decision 049). */
export const handle = STATIC_PAGE;

export default function InvoiceDetail() {
  const { businessName, account, invoice, payId } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <InvoiceDetails businessName={businessName} account={account} invoice={invoice} />
      <h2>{t("invoice.payments")}</h2>
      {invoice.payments.length === 0 ? (
        <p>{t("invoice.payments.none")}</p>
      ) : (
        <ul className={styles.list} aria-label={t("invoice.payments")}>
          {invoice.payments.map((payment) => (
            <li key={payment.reference} className={styles.listItem}>
              <span>
                {payment.reference} · {payment.date} ·{" "}
                {payment.promised ? t("inv.payment.promised") : t("inv.payment.paid")}
              </span>
              <span>{payment.amount}</span>
            </li>
          ))}
        </ul>
      )}
      {invoice.payable ? (
        <p>
          <Link to={`/customer/invoices-and-payments/pay?invoice=${invoice.id}`} className={button}>
            {t("invoice.pay")}
          </Link>
        </p>
      ) : null}
      {payId ? <PayIdPanel data={payId} invoiceNumber={invoice.number} /> : null}
      <InvoicePdfLink href={`/customer/invoices-and-payments/invoice/${invoice.id}/pdf`} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("invoice.title", { number: data.invoice.number })} · ${data.businessName}` },
    metaDescription(matches, "meta.invoice", data.businessName),
  ];
};
