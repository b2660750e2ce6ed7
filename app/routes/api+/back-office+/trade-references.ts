import type { LoaderFunctionArgs } from "@remix-run/node";
import { answer, isRead, json, notAllowed, requireCaller, listTradeReferences, invalid } from "./back-office.server";

/**
 * GET /api/back-office/trade-references?state=answered|unanswered&application=&limit=&cursor=
 * (credit:read): the referees of the business's submitted applications, newest first, with where
 * each link stands (waiting, answered, expired, closed), when it was first opened and how often,
 * and the answer once given: who to chase, and what they said.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "credit:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    return json(
      await listTradeReferences(caller.businessId, {
        state: params.get("state"),
        application: params.get("application"),
        limit: limit === null ? null : Number(limit),
        cursor: params.get("cursor"),
      }),
    );
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
