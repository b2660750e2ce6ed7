import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  answer,
  apiProblem,
  isRead,
  json,
  notAllowed,
  requireCaller,
  getCreditApplication,
} from "./back-office.server";

/**
 * GET /api/back-office/credit-applications/:id (credit:read): one submitted application by its id
 * or reference (CA-…): its answers as stored, the terms accepted (version, hash, the name typed,
 * when and from where), the decision, its documents' facts and its trade references with their
 * answers. A draft, or another business's application, is a 404 exactly like one that does not
 * exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "credit:read");
    const application = await getCreditApplication(caller.businessId, params.id);
    if (!application) return apiProblem(404, "not_found", "No such credit application.");
    return json({ application });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
