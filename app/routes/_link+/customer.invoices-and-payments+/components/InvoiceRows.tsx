import { Link } from "@remix-run/react";
import { formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import type { MessageKey } from "~/lib/i18n";
import { visuallyHidden } from "~/styles/global.css";
import { number } from "~/components/Table.css";
import * as styles from "./InvoiceRows.css";

export type InvoiceRow = {
  id: string;
  number: string;
  issueDate: string;
  dueDate: string;
  amount: string;
  balance: string;
  /** The one status the row shows (`invoiceRowStatus`, decision 072). */
  status: { key: MessageKey; params?: Record<string, string> };
  payable: boolean;
  overdue: boolean;
};

/**
 * The invoices to choose from (issue 31). Still a real table for screen readers; below 600 px each
 * row is one compact block: number and balance, then the due date, then its one status. A payable
 * row's checkbox has a label stretched over the whole row (CSS), so a tap anywhere on the row ticks
 * it — everywhere but the invoice's number, which opens the invoice. A row that cannot be paid
 * online has no checkbox and says why. No script: the form is the browser's own.
 */
export function InvoiceRows({ rows }: { rows: readonly InvoiceRow[] }) {
  const t = useT();
  return (
    <table role="table" className={styles.table}>
      <thead role="rowgroup">
        <tr role="row">
          <th role="columnheader" scope="col" className={styles.pickHeader}>
            {t("inv.col.pay")}
          </th>
          <th role="columnheader" scope="col">
            {t("inv.col.number")}
          </th>
          <th role="columnheader" scope="col">
            {t("inv.col.status")}
          </th>
          <th role="columnheader" scope="col" className={styles.wideOnly}>
            {t("inv.col.issued")}
          </th>
          <th role="columnheader" scope="col">
            {t("inv.col.due")}
          </th>
          <th role="columnheader" scope="col" className={`${number} ${styles.wideOnly}`}>
            {t("inv.col.amount")}
          </th>
          <th role="columnheader" scope="col" className={number}>
            {t("inv.col.balance")}
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((invoice) => (
          <tr
            role="row"
            key={invoice.id}
            className={`${styles.row} ${invoice.payable ? styles.payableRow : ""} ${invoice.overdue ? styles.overdueRow : ""}`}
          >
            <td role="cell" className={styles.pick}>
              {invoice.payable ? (
                <>
                  <input
                    id={`pick-${invoice.id}`}
                    type="checkbox"
                    name="invoice"
                    value={invoice.id}
                    className={`${formStyles.checkbox} ${styles.checkbox}`}
                    // The label below names it too; this keeps the name when a browser drops the label's hidden text.
                    aria-label={t("inv.select", { number: invoice.number })}
                    aria-describedby={`status-${invoice.id}`}
                  />
                  <label htmlFor={`pick-${invoice.id}`} className={styles.rowLabel}>
                    <span className={visuallyHidden}>{t("inv.select", { number: invoice.number })}</span>
                  </label>
                </>
              ) : null}
            </td>
            <td role="cell" className={styles.title}>
              <Link to={`/customer/invoices-and-payments/invoice/${invoice.id}`} className={styles.link}>
                {invoice.number}
              </Link>
            </td>
            <td role="cell" id={`status-${invoice.id}`} className={styles.status}>
              {t(invoice.status.key, invoice.status.params)}
            </td>
            <td role="cell" className={styles.wideOnly}>
              {invoice.issueDate}
            </td>
            <td role="cell" className={styles.due} data-label={t("inv.col.due")}>
              {invoice.dueDate}
            </td>
            <td role="cell" className={`${number} ${styles.wideOnly}`}>
              {invoice.amount}
            </td>
            <td role="cell" className={`${number} ${styles.balance}`}>
              {invoice.balance}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
