import { formatDate, formatMoney } from "~/lib/format";
import type { HostBranding } from "../host/host.server";
import type { findInvoice } from "./invoices.server";

type FoundInvoice = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

/** An invoice's facts as `InvoiceDetails` shows them: dates in the business's zone, money in its currency. */
export function invoiceFacts(branding: Pick<HostBranding, "currency" | "timeZone">, invoice: FoundInvoice) {
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const date = (value: string | Date) => formatDate(value, { timeZone: branding.timeZone });
  return {
    number: invoice.number,
    description: invoice.description,
    status: invoice.status,
    issueDate: date(invoice.issueDate),
    dueDate: date(invoice.dueDate),
    amount: money(invoice.amountCents),
    balance: money(invoice.balanceCents),
    daysOverdue: invoice.balanceCents > 0 ? invoice.daysOverdue : 0,
    promiseDate: invoice.promiseDate ? date(invoice.promiseDate) : null,
    disputeReason: invoice.disputeReason,
  };
}
