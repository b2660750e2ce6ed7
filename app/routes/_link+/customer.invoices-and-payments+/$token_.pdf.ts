import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  accountNotFound,
  invoiceLinkContext,
  invoiceFacts,
  invoicePdf,
  pageDates,
  pageLanguage,
  pdfBrand,
  pdfFileName,
  pdfResponse,
} from "./invoices-and-payments.server";

/**
 * An invoice's emailed link, as the A4 PDF of its page (issue 34): the link's access exactly. A token that
 * does not check out is the page's "This link isn't valid"; an expired, replaced or withdrawn link shows
 * nothing of the invoice on its page, so it has no PDF ("Page not found"). The file shows what the page
 * shows; paying is the page's, and the link itself is never written into the file (a PDF is forwarded).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, linked, live } = await invoiceLinkContext(request, params.token);
  if (!live) throw accountNotFound();
  const bytes = await invoicePdf({
    brand: await pdfBrand(branding),
    language: await pageLanguage(request),
    account: { name: linked.accountName, number: linked.accountNumber, address: linked.accountAddress },
    invoice: {
      ...invoiceFacts(branding, live.invoice, await pageDates(request, branding)),
      payable: false,
      payments: null,
    },
    payId: null,
    payUrl: null,
  });
  return pdfResponse(bytes, pdfFileName(branding.businessName, live.invoice.number));
}
