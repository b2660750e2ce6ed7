import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getPageContext,
  agreementByLink,
  agreementBySession,
  agreementDownload,
  agreementPdfDownload,
  isAgreementReference,
  LINK_PAGE_HEADERS,
} from "./customer.server";

/**
 * The decided agreement "as accepted", as a file (decision 036), for the holder of its emailed
 * link (`/agreements/acceptance/<token>/download`) or a signed-in contact who may act for its
 * account (`…/<reference>/download`, the same file as `/customer/agreement/<reference>/download`).
 * `?format=text` is the version's text alone; `?format=pdf` the record and the text as a tagged A4 PDF
 * (issue 34), the copy a phone opens. A link that no longer opens the offer, an offer not
 * decided, and anyone else: no file ("This link isn't valid" or "Page not found").
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const pdf = new URL(request.url).searchParams.get("format") === "pdf";
  if (isAgreementReference(params.slug)) {
    const context = await agreementBySession(request, params.slug);
    return pdf ? agreementPdfDownload(request, context) : agreementDownload(request, context);
  }
  const { branding } = await getPageContext(request);
  const context = await agreementByLink(branding, params.slug);
  return pdf
    ? agreementPdfDownload(request, context, LINK_PAGE_HEADERS)
    : agreementDownload(request, context, LINK_PAGE_HEADERS);
}
