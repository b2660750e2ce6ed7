import type { LoaderFunctionArgs } from "@remix-run/node";
import { answer, apiProblem, isRead, json, notAllowed, requireCaller, getResponseRequest } from "./back-office.server";

/**
 * GET /api/back-office/response-requests/:id (responses:read): one request by its id or
 * reference (RR-…), with its answer once given. Another business's request is a 404, exactly like
 * one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "responses:read");
    const found = await getResponseRequest(caller.businessId, params.id);
    if (!found) return apiProblem(404, "not_found", "No such response request.");
    return json({ request: found });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
