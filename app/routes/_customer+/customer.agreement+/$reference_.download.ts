import type { LoaderFunctionArgs } from "@remix-run/node";
import { agreementBySession, agreementDownload, agreementPdfDownload } from "./agreement.server";

/**
 * The decided agreement as a file (decision 036) for a signed-in contact who may act for its
 * account: the record's header, then the version's text byte for byte as hashed
 * (`text/markdown`, an attachment); `?format=text`, the text alone; `?format=pdf`, both as a tagged A4
 * PDF (issue 34). Anyone else, and an offer not
 * decided: "Page not found".
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await agreementBySession(request, params.reference);
  return new URL(request.url).searchParams.get("format") === "pdf"
    ? agreementPdfDownload(request, context)
    : agreementDownload(request, context);
}
