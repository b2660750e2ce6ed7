import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  answer,
  apiProblem,
  isRead,
  notAllowed,
  requireCaller,
  readCreditDocument,
  creditDocumentReader,
  attachmentDisposition,
} from "./back-office.server";

/**
 * GET /api/back-office/credit-applications/:id/documents/:documentId (credit:read): a supporting
 * document's bytes, read through the document storage port and checked against the SHA-256
 * recorded at upload, as the type stored at upload (PDF, PNG or JPEG, checked by content then).
 * Always a download (Content-Disposition: attachment, with the applicant's file name made safe, in
 * ASCII and in UTF-8 for names in any script: RFC 6266), never sniffed,
 * never cached, and sandboxed should a browser render it anyway. Another business's document is
 * a 404 exactly like one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "credit:read");
    const file = await readCreditDocument(caller.businessId, params.id, params.documentId, creditDocumentReader());
    if (!file) return apiProblem(404, "not_found", "No such document of this credit application.");
    return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Length": String(file.bytes.byteLength),
        "Content-Disposition": attachmentDisposition(file.fileName),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      },
    });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
