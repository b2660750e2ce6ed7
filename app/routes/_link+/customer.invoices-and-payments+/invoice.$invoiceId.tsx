import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { button } from "~/components/Button.css";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatMoney } from "~/lib/format";
import {
  pageDates,
  accountNotFound,
  findInvoice,
  PAYABLE_STATUSES,
  requireCustomerAccountPage,
  invoiceFacts,
  getAccountPayId,
} from "./invoices-and-payments.server";
import { metaTranslator } from "~/lib/i18n";
import { PayIdPanel } from "~/components/PayIdPanel";
import { InvoiceDetails } from "~/components/InvoiceDetails";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * One invoice of the selected account, laid out to print (the shell's menus are hidden in
 * print), with the payments made on it. Another account's invoice is 'Page not found'.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, account } = await requireCustomerAccountPage(request);
  const scope = { businessId: branding.businessId, accountId: account.accountId };
  const invoice = await findInvoice(scope, params.invoiceId);
  if (!invoice) throw accountNotFound();
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const dates = await pageDates(request, branding);
  const { date } = dates;
  const payable = (PAYABLE_STATUSES as readonly number[]).includes(invoice.status) && invoice.balanceCents > 0;
  // The account's own PayID (issue 13), offered only while there is something to pay.
  const payId = payable
    ? await getAccountPayId({
        businessId: branding.businessId,
        hostname: branding.hostname,
        accountId: account.accountId,
        accountNumber: account.number,
      })
    : null;
  return {
    businessName: branding.businessName,
    account: { name: account.name, number: account.number, address: account.address },
    invoice: {
      ...invoiceFacts(branding, invoice, dates),
      id: invoice.id,
      payable,
      payments: invoice.payments.map((p) => ({
        reference: p.reference,
        date: p.completedAt ? date(p.completedAt) : "",
        amount: money(p.amountCents),
        promised: p.status === "promised",
      })),
    },
    payId: payId && payId.status !== "off" ? payId : null,
  };
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
      <p>{t("invoice.print")}</p>
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
