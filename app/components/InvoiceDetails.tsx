import { secondaryButton } from "./Button.css";
import * as styles from "./Table.css";
import { useT } from "./useT";
import { invoiceStatusKey } from "~/lib/invoice-query";

/** One invoice's facts, as a loader words them for the page (dates and money already formatted). */
export type InvoiceFacts = {
  number: string;
  description: string;
  status: number;
  issueDate: string;
  dueDate: string;
  amount: string;
  balance: string;
  daysOverdue: number;
  promiseDate: string | null;
  disputeReason: string | null;
};

/**
 * An invoice laid out to print (the shell's menus are hidden in print): the heading, who it is
 * from and for, and its facts as a summary list. The signed-in invoice page and the pages a
 * link opens (a request's invoices, the invoice link) show the same thing.
 */
export function InvoiceDetails({
  businessName,
  account,
  invoice,
}: {
  businessName: string;
  account: { name: string; number: string; address?: string | null };
  invoice: InvoiceFacts;
}) {
  const t = useT();
  return (
    <>
      <h1>{t("invoice.title", { number: invoice.number })}</h1>
      <p>
        {businessName} · {account.name} ({account.number})
        {account.address ? (
          <>
            <br />
            {account.address}
          </>
        ) : null}
      </p>
      <dl className={styles.details}>
        <dt>{t("invoice.description")}</dt>
        <dd>{invoice.description}</dd>
        <dt>{t("invoice.status")}</dt>
        <dd>{t(invoiceStatusKey(invoice.status))}</dd>
        <dt>{t("invoice.issued")}</dt>
        <dd>{invoice.issueDate}</dd>
        <dt>{t("invoice.due")}</dt>
        <dd>{invoice.dueDate}</dd>
        <dt>{t("invoice.amount")}</dt>
        <dd>{invoice.amount}</dd>
        <dt>{t("invoice.balance")}</dt>
        <dd>
          <strong>{invoice.balance}</strong>
        </dd>
        {invoice.daysOverdue > 0 ? (
          <>
            <dt>{t("invoice.overdue")}</dt>
            <dd>{t("inv.days", { days: invoice.daysOverdue })}</dd>
          </>
        ) : null}
        {invoice.promiseDate ? (
          <>
            <dt>{t("invoice.promiseDate")}</dt>
            <dd>{invoice.promiseDate}</dd>
          </>
        ) : null}
        {invoice.disputeReason ? (
          <>
            <dt>{t("invoice.dispute")}</dt>
            <dd>{invoice.disputeReason}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

/**
 * The invoice as an A4 PDF to file (issue 34), and the page's own print: at the foot of every page that
 * shows an invoice, signed in or through an emailed link, each with its own address (the same access).
 */
export function InvoicePdfLink({ href }: { href: string }) {
  const t = useT();
  return (
    <>
      <p>
        <a href={href} download className={secondaryButton}>
          {t("pdf.download")}
        </a>{" "}
        {t("pdf.download.hint")}
      </p>
      <p>{t("invoice.print")}</p>
    </>
  );
}
