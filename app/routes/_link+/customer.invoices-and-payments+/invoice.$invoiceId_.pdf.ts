import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  invoicePdf,
  pageLanguage,
  pdfBrand,
  pdfFileName,
  pdfResponse,
  publicLink,
  signedInInvoiceView,
} from "./invoices-and-payments.server";

/**
 * The invoice page as an A4 PDF to file (issue 34): the same access as the page (another account's or
 * business's invoice is the same "Page not found"), the same facts and words, the published brand.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const view = await signedInInvoiceView(request, params.invoiceId);
  const bytes = await invoicePdf({
    brand: await pdfBrand(view.branding),
    language: await pageLanguage(request),
    account: view.account,
    invoice: view.invoice,
    payId: view.payId?.status === "ready" ? view.payId : null,
    payUrl: publicLink(view.branding, "/"),
  });
  return pdfResponse(bytes, pdfFileName(view.businessName, view.invoice.number));
}
