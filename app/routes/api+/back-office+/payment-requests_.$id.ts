import type { LoaderFunctionArgs } from "@remix-run/node";
import { answer, apiProblem, isRead, json, notAllowed, requireCaller, getPaymentRequest } from "./back-office.server";

/**
 * GET /api/back-office/payment-requests/:id (payment-requests:read): one request by its id or
 * reference. Another business's request is a 404, exactly like one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "payment-requests:read");
    const view = await getPaymentRequest(caller.businessId, params.id);
    if (!view) return apiProblem(404, "not_found", "No such payment request.");
    return json({ request: view });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
