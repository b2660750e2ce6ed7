import { getPageContext } from "../auth/auth.server";
import { findInvoice } from "../payments/invoices.server";
import { loadPayable } from "../payments/payable.server";
import { clientAddress } from "../platform/request-context.server";
import { findLinkedInvoice } from "./invoice-links.server";
import { linkInvalid } from "./link-pages.server";
import { checkLinkAccess } from "./link-tokens.server";

/**
 * What an invoice's emailed link opens (decision 031), for its page and its PDF alike (issue 34): the
 * link and its invoice when the link is valid; when it is expired, replaced or withdrawn, only which (the
 * page names the invoice's number and whom to ask, the PDF is not there). Any token that does not check
 * out is the one "This link isn't valid" 404.
 */
export async function invoiceLinkContext(request: Request, token: string | undefined) {
  const { branding } = await getPageContext(request);
  const access = await checkLinkAccess(branding.businessId, "invoice", token, (link) =>
    findLinkedInvoice(branding.businessId, link.subjectId),
  );
  if (access.status === "unknown") throw linkInvalid();
  const { link, record: linked } = access;
  const actor = {
    businessId: branding.businessId,
    accountId: linked.accountId,
    contactId: link.contactId,
    clientIp: clientAddress(request),
  };
  // A link that no longer opens the invoice reads nothing of it or its account: whoever holds
  // an old link, or one whose contact has left the account, learns only what became of the link
  // and whom to ask.
  if (access.status !== "valid") {
    const reason = access.status === "expired" ? ("expired" as const) : ("withdrawn" as const);
    return { branding, link, linked, actor, closedLink: reason, live: null };
  }
  const [invoice, payable] = await Promise.all([
    findInvoice({ businessId: branding.businessId, accountId: linked.accountId }, linked.id),
    loadPayable(actor, [linked.id]),
  ]);
  if (!invoice) throw linkInvalid();
  const open = payable[0] && payable[0].availableCents > 0 ? payable[0] : null;
  return { branding, link, linked, actor, closedLink: null, live: { invoice, open } };
}
