import { loadPayerRequest } from "../links/request-links.server";
import { getDb } from "../platform/database.server";

/**
 * What is still owing on what a payment paid, for its receipt (page and email; issue 31, decision
 * 076): the payment request's owing (decision 032: all its invoices, or the stated amount less what
 * was paid), or — for invoices paid without a request — what is left on those invoices. Read when
 * the receipt is shown or sent, so it is what is owing now: right after the payment, what this
 * payment left; later, less whatever was paid since. Null when nothing is (a payment in full, a
 * payment on account, an instalment), the payment has not succeeded, or the request was cancelled.
 */
export type StillOwing = {
  cents: number;
  /** The request it paid, or null for invoices paid without one. */
  request: { id: string; reference: string } | null;
  /** The invoices it paid that still have something owing (for the signed-in pay page). */
  invoiceIds: string[];
};

export async function stillOwing(
  businessId: string,
  payment: {
    status: string;
    purpose: string;
    paymentRequestId: string | null;
    invoiceIds: string[];
  },
): Promise<StillOwing | null> {
  if (payment.status !== "succeeded") return null;
  if (payment.paymentRequestId) {
    const request = await loadPayerRequest(businessId, { id: payment.paymentRequestId });
    if (!request || request.state === "cancelled" || request.owingCents <= 0) return null;
    return {
      cents: request.owingCents,
      request: { id: request.id, reference: request.reference },
      invoiceIds: request.invoices.filter((invoice) => invoice.balanceCents > 0).map((invoice) => invoice.id),
    };
  }
  if (payment.purpose !== "invoices" || payment.invoiceIds.length === 0) return null;
  const db = await getDb();
  const rows = await db
    .selectFrom("invoices")
    .select(["id", "balance_cents as balanceCents"])
    .where("business_id", "=", businessId)
    .where("id", "in", payment.invoiceIds)
    .where("balance_cents", ">", 0)
    .orderBy("due_date")
    .orderBy("number")
    .execute();
  const cents = rows.reduce((sum, row) => sum + Number(row.balanceCents), 0);
  return cents > 0 ? { cents, request: null, invoiceIds: rows.map((row) => row.id) } : null;
}

/** The signed-in page where the rest is paid: the request's own page, or the invoices' pay page. */
export function signedInPayHref(owing: StillOwing): string {
  if (owing.request) return `/payment/payment-request/${encodeURIComponent(owing.request.reference)}`;
  return `/customer/invoices-and-payments/pay?${owing.invoiceIds
    .map((id) => `invoice=${encodeURIComponent(id)}`)
    .join("&")}`;
}

/** A link page a remembered link token opens again, by the link's purpose (decision 031's paths). */
export function linkPageHref(link: { token: string; purpose: string }): string | null {
  if (link.purpose === "payment-request") return `/customer/payment-request/${link.token}`;
  if (link.purpose === "invoice") return `/customer/invoices-and-payments/${link.token}`;
  if (link.purpose === "adhoc") return `/customer/adhoc/${link.token}`;
  return null;
}
