import { Link } from "@remix-run/react";
import { useT } from "./useT";
import * as styles from "./AgeingTable.css";

/** The bands as the page shows them: formatted on the server (money and the business's date). */
export type AgeingView = {
  asAt: string;
  rows: { band: "current" | "days1to30" | "days31to60" | "days61to90" | "over90"; amount: string; cents: number }[];
  total: string;
  overdue: boolean;
};

/**
 * The balance by age (issue 34) as a table with a header per row: "31–60 days overdue  $123.45". The
 * dashboard's Overdue tile lands here (#ageing); what is overdue links on to the invoices to pay.
 */
export function AgeingTable({ ageing, overdueHref }: { ageing: AgeingView; overdueHref: string }) {
  const t = useT();
  return (
    <section id="ageing" aria-labelledby="ageing-title">
      <h2 id="ageing-title">{t("ageing.title")}</h2>
      <p id="ageing-as-at">{t("ageing.asAt", { date: ageing.asAt })}</p>
      <table className={styles.ageing} aria-labelledby="ageing-title" aria-describedby="ageing-as-at">
        <thead>
          <tr>
            <th scope="col">{t("ageing.age")}</th>
            <th scope="col">{t("ageing.amount")}</th>
          </tr>
        </thead>
        <tbody>
          {ageing.rows.map((row) => (
            <tr key={row.band}>
              <th scope="row">{t(`ageing.${row.band}`)}</th>
              <td className={row.band !== "current" && row.cents > 0 ? styles.late : undefined}>{row.amount}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("ageing.total")}</th>
            <td>{ageing.total}</td>
          </tr>
        </tfoot>
      </table>
      {ageing.overdue ? (
        <p>
          <Link to={overdueHref}>{t("dashboard.seeOverdue")}</Link>
        </p>
      ) : null}
    </section>
  );
}
