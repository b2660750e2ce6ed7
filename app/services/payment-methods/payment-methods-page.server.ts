import { payReturnPath } from "~/lib/pay-return";
import { methodReturnPath } from "~/lib/schedule-paths";
import { requireAccountPage } from "../accounts/portal.server";
import { clientAddress, requestOrigin } from "../platform/request-context.server";
import { gatewayContextFrom } from "./payment-methods.server";

/**
 * The start of every payment-methods page and action: host, session, portal access and the
 * selected account (checked in the loader and again in the action), plus who is acting, and
 * where to go back to when a payment schedule's page (decision 034) or a pay page (the invoices',
 * a payment request's signed-in page or the signed-in ad-hoc page; decision 077) sent the contact here (`returnTo`: its signed-in path, kept in the URL that the
 * page's form posts back to; anything else is ignored).
 */
export async function requirePaymentMethodsPage(request: Request) {
  const context = await requireAccountPage(request);
  const clientIp = clientAddress(request);
  const actor = {
    businessId: context.branding.businessId,
    accountId: context.account.accountId,
    contactId: context.session.contact.id,
    clientIp,
  };
  return {
    ...context,
    actor,
    gateway: gatewayContextFrom(request, clientIp, requestOrigin(request)),
    returnTo: returnPathOf(new URL(request.url).searchParams.get("returnTo")),
  };
}

/** A way back these pages may follow: a schedule's page or a pay page, checked (never an open redirect). */
export const returnPathOf = (value: string | null) => methodReturnPath(value) ?? payReturnPath(value);

/** The notices the list page shows after a change (POST, redirect, GET): known keys only. */
export const PAYMENT_METHOD_NOTICES = {
  "card-added": "pm.notice.cardAdded",
  "card-updated": "pm.notice.cardUpdated",
  "card-removed": "pm.notice.cardRemoved",
  "default-set": "pm.notice.defaultSet",
  "bank-added": "pm.notice.bankAdded",
  "bank-removed": "pm.notice.bankRemoved",
  "payto-cancelled": "payto.notice.cancelled",
} as const;

export type PaymentMethodNotice = keyof typeof PAYMENT_METHOD_NOTICES;
