import { formatMoney } from "~/lib/format";
import { cardName } from "~/lib/card";
import type { ReceiptPageData } from "~/lib/receipt";
import type { HostBranding } from "../host/host.server";
import { pageDates } from "../host/language.server";
import { getDb } from "../platform/database.server";
import type { PageDates } from "~/lib/format";
import { contactMayActFor } from "../accounts/accounts.server";
import { linkInvalid } from "../links/link-pages.server";
import { rememberedLinkToken } from "../links/link-tokens.server";
import { paymentRequestOf } from "../links/request-links.server";
import { findPaymentById } from "./invoices.server";
import { checkReceiptLink, receiptTokenShape } from "./receipt-links.server";
import { linkPageHref, signedInPayHref, stillOwing } from "./receipt-owing.server";
import { reconcilePayment } from "./reconcile.server";

type StoredPayment = NonNullable<Awaited<ReturnType<typeof findPaymentById>>>;

/**
 * A receipt page's data, for both ways in (decision 076): `/payment/complete/<reference>` (a
 * signed-in contact of the account, or the browser that paid from a link; the route checks which)
 * and `/customer/receipt/<token>` (the receipt email's signed link). A payment still being
 * confirmed is reconciled first. `viaLink`: opened without a session, so no way into the portal;
 * the way back to pay the rest is then the link page this browser paid from, if it kept the link
 * (`rememberedLinkToken`), or else the email's own link, in words.
 */
export async function receiptPageData(
  request: Request,
  branding: HostBranding,
  stored: StoredPayment,
  viaLink: boolean,
): Promise<ReceiptPageData> {
  let payment = stored;
  if (payment.status === "pending" || payment.status === "unknown" || payment.status === "submitted") {
    await reconcilePayment(payment.id);
    payment = (await findPaymentById(branding.businessId, payment.id)) ?? payment;
  }
  const [dates, remembered] = await Promise.all([
    pageDates(request, branding),
    viaLink && payment.link_token_id ? rememberedLinkToken(request, branding.businessId, payment.link_token_id) : null,
  ]);
  return receiptView(branding, payment, { dates, viaLink, remembered });
}

/**
 * A receipt's data from the payment as stored, in the given dates' language and zone: the page's
 * (`receiptPageData`), or a document's made with no page (the receipt email's PDF). `remembered`: the
 * link this browser paid from, if it kept it.
 */
export async function receiptView(
  branding: HostBranding,
  payment: StoredPayment,
  options: { dates: PageDates; viaLink: boolean; remembered: Parameters<typeof linkPageHref>[0] | null },
): Promise<ReceiptPageData> {
  const { viaLink, remembered } = options;
  const { date } = options.dates;
  const money = (cents: number) => formatMoney(cents, { currency: payment.currency });
  const [forRequest, owing, account] = await Promise.all([
    paymentRequestOf(branding.businessId, payment.payment_request_id),
    stillOwing(branding.businessId, {
      status: payment.status,
      purpose: payment.purpose,
      paymentRequestId: payment.payment_request_id,
      invoiceIds: payment.allocations.map((a) => a.invoiceId),
    }),
    findAccountName(branding.businessId, payment.account_id),
  ]);
  // Where this browser may go to pay again or pay the rest: signed in, the portal's own pages;
  // by link, the link page it came from when it kept the link, else nowhere (its email has it).
  const backToLink = remembered ? linkPageHref(remembered) : null;
  const kind = forRequest ? "request" : payment.purpose === "adhoc" ? "adhoc" : "invoices";
  return {
    businessName: branding.businessName,
    viaLink,
    account,
    receipt: {
      forRequest,
      credited: payment.purpose !== "invoices" ? money(payment.subtotal_cents) : null,
      payerReference: payment.payer_reference,
      reference: payment.reference,
      status: payment.status,
      date: date(payment.created_at),
      promiseDate: payment.promise_date ? date(payment.promise_date) : null,
      method: payment.card_last4 ? cardName(payment.card_brand, payment.card_last4) : null,
      subTotal: money(payment.subtotal_cents),
      lateFee: payment.late_fee_cents > 0 ? money(payment.late_fee_cents) : null,
      discount: payment.discount_cents > 0 ? money(payment.discount_cents) : null,
      surcharge: payment.merchant_fee_cents > 0 ? money(payment.merchant_fee_cents) : null,
      total: money(payment.amount_cents),
      note: payment.note,
      invoices: payment.allocations.map((a) => ({ number: a.number, amount: money(a.amountCents) })),
      payTo: payment.method === "payto",
      failure: payment.failure_code,
      payAgain: { kind, href: viaLink ? backToLink : payAgainHref(payment, kind, forRequest) },
      owing: owing
        ? {
            amount: money(owing.cents),
            on: owing.request ? "request" : "invoices",
            reference: owing.request?.reference ?? null,
            href: viaLink ? backToLink : signedInPayHref(owing),
          }
        : null,
    },
  };
}

/**
 * Where a signed-in contact pays a rejected payment again: the page of what it paid for. A payment
 * request's signed-in page, the account's ad-hoc page, or the invoices' pay page.
 */
function payAgainHref(
  payment: StoredPayment,
  kind: "request" | "adhoc" | "invoices",
  forRequest: { reference: string } | null,
): string {
  if (forRequest) return `/payment/payment-request/${encodeURIComponent(forRequest.reference)}`;
  if (kind === "adhoc") return `/payment/adhoc/${encodeURIComponent(payment.account_id)}`;
  return `/customer/invoices-and-payments/pay?${payment.allocations
    .map((a) => `invoice=${encodeURIComponent(a.invoiceId)}`)
    .join("&")}`;
}

/**
 * `/customer/receipt/<token>`: the receipt a receipt email's signed link opens, with no session
 * and no cookie (decision 076). A token that is too long or malformed is refused before anything
 * is read; one that does not check out (tampered, expired, another host's), a payment that is not
 * this business's, and a payer who may no longer act for the account (decision 031's rule for
 * every link) all get the one "This link isn't valid" page, 404.
 */
export async function receiptByLink(request: Request, branding: HostBranding, token: unknown) {
  if (!receiptTokenShape(token)) throw linkInvalid();
  const paymentId = checkReceiptLink(branding.businessId, token);
  if (!paymentId) throw linkInvalid();
  const payment = await findPaymentById(branding.businessId, paymentId);
  if (!payment || !payment.created_by) throw linkInvalid();
  if (!(await contactMayActFor(branding.businessId, payment.created_by, payment.account_id))) throw linkInvalid();
  return { ...(await receiptPageData(request, branding, payment, true)), fromEmail: true };
}

/** The paying account's name and number, as the receipt's PDF names it. */
async function findAccountName(businessId: string, accountId: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("accounts")
    .select(["name", "number"])
    .where("business_id", "=", businessId)
    .where("id", "=", accountId)
    .executeTakeFirst();
  return row ? { name: row.name, number: row.number } : null;
}
