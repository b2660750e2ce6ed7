import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getAgreementDocument,
  answer,
  apiProblem,
  isRead,
  json,
  notAllowed,
  requireCaller,
} from "./back-office.server";

/**
 * GET /api/back-office/agreements/:id (agreements:read): one document with every version, newest
 * first, each with its text, SHA-256 and byte length. Another business's document is a 404,
 * exactly like one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "agreements:read");
    const document = await getAgreementDocument(caller.businessId, params.id);
    if (!document) return apiProblem(404, "not_found", "No such agreement document.");
    return json({ document });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
