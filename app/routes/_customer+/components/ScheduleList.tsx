import { Link } from "@remix-run/react";
import type { MessageKey } from "~/lib/i18n";
import type { ScheduleSummary } from "~/lib/schedule-pages";
import * as styles from "./PaymentSchedule.css";
import * as table from "~/components/Table.css";
import { useT } from "~/components/useT";
import { StackedTable, type StackedColumn } from "~/components/StackedTable";

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

export function ScheduleList({
  items,
  label,
  action,
}: {
  items: ScheduleListItem[];
  label: string;
  /** A last column with each row's primary action (the home's Review; decision 073). */
  action?: StackedColumn<ScheduleListItem>;
}) {
  const t = useT();
  return (
    <div className={table.scroll} tabIndex={0} role="region" aria-label={label}>
      <StackedTable
        rows={items}
        rowKey={(item) => item.reference}
        columns={[
          {
            label: t("schedules.reference"),
            kind: "title",
            className: styles.nowrap,
            cell: (item) => <Link to={item.href}>{item.reference}</Link>,
          },
          { label: t("schedules.description"), cell: (item) => item.description },
          { label: t("schedules.account"), cell: (item) => item.account },
          {
            label: t("schedules.col.left"),
            kind: "amount",
            cell: (item) => t("schedules.list.left", { remaining: item.remaining, total: item.total }),
          },
          { label: t("schedules.col.next"), cell: (item) => item.next ?? "–" },
          {
            label: t("schedules.col.state"),
            cell: (item) => <span className={table.badge}>{t(`schedules.state.${item.state}` as MessageKey)}</span>,
          },
          ...(action ? [action] : []),
        ]}
      />
    </div>
  );
}
