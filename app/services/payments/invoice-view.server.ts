import { formatMoney, type PageDates } from "~/lib/format";
import type { HostBranding } from "../host/host.server";
import type { findInvoice } from "./invoices.server";

type FoundInvoice = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

/**
 * An invoice's facts as `InvoiceDetails` shows them: dates as the page writes them (`pageDates`: the
 * business's zone, the page's language), money in the business's currency.
 */
export function invoiceFacts(branding: Pick<HostBranding, "currency">, invoice: FoundInvoice, dates: PageDates) {
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const { date } = dates;
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
