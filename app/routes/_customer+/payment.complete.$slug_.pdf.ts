import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  accountNotFound,
  pageLanguage,
  pdfBrand,
  pdfResponse,
  receiptFileName,
  receiptForPage,
  receiptHasPdf,
  receiptPdf,
} from "./customer.server";

/**
 * A receipt's page as the A4 PDF a clerk files against the bill (issue 34): exactly the page's access
 * (`receiptForPage`: the browser that paid from a link, or a contact who may see the account), the page's
 * facts and words. A payment still being confirmed or not taken has no document: "Page not found".
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, data } = await receiptForPage(request, params.slug ?? "");
  if (!receiptHasPdf(data)) throw accountNotFound();
  const bytes = await receiptPdf({ brand: await pdfBrand(branding), language: await pageLanguage(request), data });
  return pdfResponse(bytes, receiptFileName(branding.businessName, data.receipt.reference));
}
