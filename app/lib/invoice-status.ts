/**
 * The one status an invoice's row shows (decision 072). The stored status comes from the
 * business's own system and can lag the calendar (an invoice stored "Open" whose due date has
 * passed), so a row never shows the stored word beside a day count that contradicts it. The rule,
 * first match wins:
 *
 * 1. Nothing owing: the stored status (Closed, Archived, …).
 * 2. On hold or Disputed: it cannot be paid online, and the row says so and why.
 * 3. Promise: "Promised for <date>"; Broken Promise (derived when read): as stored.
 * 4. Open or Overdue: the due date against the business's today decides — past it, "Overdue N
 *    days"; on it, "Due today"; before it, "Open". The stored Open/Overdue flag is not shown.
 * 5. Anything else: the stored status.
 *
 * Pure (no I/O): the loader calls it with the business's calendar date, the page renders its key.
 */
import type { MessageKey } from "./i18n";
import { invoiceStatusKey } from "./invoice-query";

/** Statuses the portal cannot take a payment for (spec §3): the business has stopped collecting. */
export const NOT_PAYABLE_ONLINE = { 5: "inv.row.onHold", 6: "inv.row.disputed" } as const satisfies Record<
  number,
  MessageKey
>;

export type InvoiceRowStatus = {
  key: MessageKey;
  params?: Record<string, string>;
  /** Whether the row offers a checkbox: something owing, in a status the portal may collect. */
  payable: boolean;
  /** Past its due date with money owing (the dashboard's "Overdue" tile counts the same invoices). */
  overdue: boolean;
};

/** Whole days from `from` to `to`, both "YYYY-MM-DD" calendar dates. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function invoiceRowStatus(
  invoice: {
    status: number;
    balanceCents: number;
    dueDate: string;
    promiseDate?: string | null;
    disputeReason?: string | null;
  },
  today: string,
  formatDay: (day: string) => string,
): InvoiceRowStatus {
  const late = daysBetween(invoice.dueDate, today);
  const overdue = invoice.balanceCents > 0 && late > 0;
  if (invoice.balanceCents <= 0) return { key: invoiceStatusKey(invoice.status), payable: false, overdue: false };
  if (invoice.status === 5 || invoice.status === 6) {
    const reason = invoice.status === 6 ? invoice.disputeReason?.trim().slice(0, 200) : "";
    return reason
      ? { key: "inv.row.disputedBecause", params: { reason }, payable: false, overdue }
      : { key: NOT_PAYABLE_ONLINE[invoice.status], payable: false, overdue };
  }
  if (invoice.status === 7 && invoice.promiseDate) {
    return { key: "inv.row.promised", params: { date: formatDay(invoice.promiseDate) }, payable: true, overdue };
  }
  if (invoice.status === 7 || invoice.status === 8) {
    return { key: invoiceStatusKey(invoice.status), payable: true, overdue };
  }
  if (invoice.status === 1 || invoice.status === 3) {
    if (late === 1) return { key: "inv.row.overdue.one", payable: true, overdue };
    if (late > 1) return { key: "inv.row.overdue.other", params: { days: String(late) }, payable: true, overdue };
    if (late === 0) return { key: "inv.row.dueToday", payable: true, overdue };
    return { key: invoiceStatusKey(1), payable: true, overdue };
  }
  return { key: invoiceStatusKey(invoice.status), payable: false, overdue };
}
