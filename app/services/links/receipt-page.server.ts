import { accountNotFound, requireAccountAccess } from "../accounts/account-access.server";
import { getPageContext, requireSession } from "../auth/auth.server";
import { findPaymentByReference } from "../payments/invoices.server";
import { receiptPageData } from "../payments/receipt-page.server";
import { browserUsedLink } from "./link-tokens.server";

/**
 * `/payment/complete/<reference>`'s receipt with its access (spec §2; decision 076), for the page and
 * for its PDF alike: the browser that paid it from an emailed link (its link session holds that link,
 * decision 031), with or without a session; else a signed-in contact who may see its account. Signed
 * out with neither: sign in. Anyone else: "Page not found".
 */
export async function receiptForPage(request: Request, reference: string) {
  const { branding, session } = await getPageContext(request);
  const payment = await findPaymentByReference(branding.businessId, reference);
  if (payment?.link_token_id && (await browserUsedLink(request, branding.businessId, payment.link_token_id))) {
    return { branding, data: await receiptPageData(request, branding, payment, true) };
  }
  if (!session) await requireSession(request);
  if (!payment) throw accountNotFound();
  await requireAccountAccess(branding.businessId, session!.contact.id, payment.account_id);
  return { branding, data: await receiptPageData(request, branding, payment, false) };
}
