import type { LoaderFunctionArgs } from "@remix-run/node";
import { answer, isRead, json, notAllowed, requireCaller, listCreditApplications, invalid } from "./back-office.server";

/**
 * GET /api/back-office/credit-applications?status=&limit=&cursor= (credit:read): the business's
 * submitted credit applications, newest submitted first, optionally of one status (submitted,
 * accepted, declined). Drafts are never listed. Decisions 032 and 041; the API key decides the
 * business.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "credit:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    return json(
      await listCreditApplications(caller.businessId, {
        status: params.get("status"),
        limit: limit === null ? null : Number(limit),
        cursor: params.get("cursor"),
      }),
    );
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
