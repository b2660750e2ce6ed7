import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getPageContext,
  agreementByLink,
  agreementBySession,
  agreementDownload,
  isAgreementReference,
  LINK_PAGE_HEADERS,
} from "./customer.server";

/**
 * The decided agreement "as accepted", as a file (decision 036), for the holder of its emailed
 * link (`/agreements/acceptance/<token>/download`) or a signed-in contact who may act for its
 * account (`…/<reference>/download`, the same file as `/customer/agreement/<reference>/download`).
 * `?format=text` is the version's text alone. A link that no longer opens the offer, an offer not
 * decided, and anyone else: no file ("This link isn't valid" or "Page not found").
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (isAgreementReference(params.slug)) {
    return agreementDownload(request, await agreementBySession(request, params.slug));
  }
  const { branding } = await getPageContext(request);
  return agreementDownload(request, await agreementByLink(branding, params.slug), LINK_PAGE_HEADERS);
}
