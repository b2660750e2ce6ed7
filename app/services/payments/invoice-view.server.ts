import { formatMoney, type PageDates } from "~/lib/format";
import type { HostBranding } from "../host/host.server";
import { accountNotFound } from "../accounts/account-access.server";
import { requireCustomerAccountPage } from "../accounts/portal.server";
import { pageDates } from "../host/language.server";
import { findInvoice } from "./invoices.server";
import { PAYABLE_STATUSES } from "./payment-records.server";
import { getAccountPayId } from "./payto/payids.server";

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

/**
 * One invoice of the signed-in contact's selected account, as its page shows it and its PDF files it (issue
 * 34): the same access (another account's invoice is "not found"), the same words and figures.
 */
export async function signedInInvoiceView(request: Request, invoiceId: string | undefined) {
  const { branding, account } = await requireCustomerAccountPage(request);
  const scope = { businessId: branding.businessId, accountId: account.accountId };
  const invoice = await findInvoice(scope, invoiceId);
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
    branding,
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
