import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, notAllowed, readJsonBody, requireCaller, withIdempotency, sendAdhocLink } from "./back-office.server";

/**
 * POST /api/back-office/adhoc-links (adhoc:write): email a contact of an account a link to pay
 * the business any amount. The answer says to whom and until when; the link is in the email
 * only. 409 when the business does not take ad-hoc payments.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "adhoc:write");
    const body = await readJsonBody(request);
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await sendAdhocLink(caller.businessId, body.value, { beforeCommit: onCommit });
      return { status: 201, body: result };
    });
  });
}

export function loader() {
  return notAllowed(["POST"]);
}
