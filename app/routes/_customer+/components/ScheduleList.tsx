import { Link } from "@remix-run/react";
import type { MessageKey } from "~/lib/i18n";
import type { ScheduleSummary } from "~/lib/schedule-pages";
import * as styles from "./PaymentSchedule.css";
import * as table from "~/components/Table.css";
import { useT } from "~/components/useT";

/**
 * Payment schedules as a list (issue 15): the schedules page and the customer-style home. A
 * table of its own file, so the home does not carry the schedule pages' forms.
 */
/** One schedule in a list: reference, what it is for, state and what is left. */
export type ScheduleListItem = {
  reference: string;
  href: string;
  description: string;
  account: string;
  state: ScheduleSummary["state"];
  total: string;
  remaining: string;
  next: string | null;
};

export function ScheduleList({ items, label }: { items: ScheduleListItem[]; label: string }) {
  const t = useT();
  return (
    <div className={table.scroll} tabIndex={0} role="region" aria-label={label}>
      <table role="table" className={`${table.table} ${table.stacked}`}>
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">
              {t("schedules.reference")}
            </th>
            <th role="columnheader" scope="col">
              {t("schedules.description")}
            </th>
            <th role="columnheader" scope="col">
              {t("schedules.account")}
            </th>
            <th role="columnheader" scope="col" className={table.number}>
              {t("schedules.col.left")}
            </th>
            <th role="columnheader" scope="col">
              {t("schedules.col.next")}
            </th>
            <th role="columnheader" scope="col">
              {t("schedules.col.state")}
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {items.map((item) => (
            <tr role="row" key={item.reference}>
              <td role="cell" data-label={t("schedules.reference")} className={`${table.cellTitle} ${styles.nowrap}`}>
                <Link to={item.href}>{item.reference}</Link>
              </td>
              <td role="cell" data-label={t("schedules.description")}>
                {item.description}
              </td>
              <td role="cell" data-label={t("schedules.account")}>
                {item.account}
              </td>
              <td role="cell" data-label={t("schedules.col.left")} className={`${table.number} ${table.cellAmount}`}>
                {t("schedules.list.left", { remaining: item.remaining, total: item.total })}
              </td>
              <td role="cell" data-label={t("schedules.col.next")}>
                {item.next ?? "–"}
              </td>
              <td role="cell" data-label={t("schedules.col.state")}>
                <span className={table.badge}>{t(`schedules.state.${item.state}` as MessageKey)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
