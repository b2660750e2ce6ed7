import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  accountNotFound,
  getPageContext,
  linkInvalid,
  pageLanguage,
  pdfBrand,
  pdfResponse,
  receiptByLink,
  receiptFileName,
  receiptHasPdf,
  receiptPdf,
  receiptTokenShape,
} from "./link.server";

/**
 * The receipt email's link, as the A4 PDF of its page (issue 34): the link's access exactly (a token
 * that does not check out is the page's "This link isn't valid"), the page's facts and words. The link
 * itself is never written into the file.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!receiptTokenShape(params.token)) throw linkInvalid();
  const { branding } = await getPageContext(request);
  const data = await receiptByLink(request, branding, params.token);
  if (!receiptHasPdf(data)) throw accountNotFound();
  const bytes = await receiptPdf({ brand: await pdfBrand(branding), language: await pageLanguage(request), data });
  return pdfResponse(bytes, receiptFileName(branding.businessName, data.receipt.reference));
}
