import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAgreementOffer, answer, apiProblem, isRead, json, notAllowed, requireCaller } from "./back-office.server";

/**
 * GET /api/back-office/agreement-offers/:id (agreements:read): one offer by its id or reference
 * (AG-…), with its decision once made. Another business's offer is a 404, exactly like one that
 * does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "agreements:read");
    const offer = await getAgreementOffer(caller.businessId, params.id);
    if (!offer) return apiProblem(404, "not_found", "No such agreement offer.");
    return json({ offer });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
