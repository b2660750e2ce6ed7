import type { LoaderFunctionArgs } from "@remix-run/node";
import { invoicePdf, pageLanguage, payerRequestInvoice, pdfBrand, pdfFileName, pdfResponse } from "./link.server";

/**
 * One invoice a payment request covers, as the A4 PDF of its page (issue 34), through the request's own
 * link: the page's access exactly (only the request's invoices; any other id is "Page not found"; a link
 * that no longer opens the request goes back to the request's page, which says why). It shows what the
 * page shows; paying is the request page's, and the link itself is never written into the file.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, view } = await payerRequestInvoice(request, params.token, params.invoiceId);
  const bytes = await invoicePdf({
    brand: await pdfBrand(branding),
    language: await pageLanguage(request),
    account: view.account,
    invoice: { ...view.invoice, payable: false, payments: null },
    payId: null,
    payUrl: null,
  });
  return pdfResponse(bytes, pdfFileName(view.businessName, view.invoice.number));
}
