import type { ActionFunctionArgs } from "@remix-run/node";
import {
  answer,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  revokeAdhocLinks,
} from "./back-office.server";

/**
 * POST /api/back-office/adhoc-links/revoke (adhoc:write): `{account, contact}` — every live
 * ad-hoc link of that contact for that account stops working. 200 `{accountId, contact,
 * revoked}`; again, `revoked: 0` (nothing left to revoke is not an error).
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "adhoc:write");
    const body = await readJsonBody(request);
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await revokeAdhocLinks(caller.businessId, body.value, { beforeCommit: onCommit });
      return { status: 200, body: result };
    });
  });
}

export function loader() {
  return notAllowed(["POST"]);
}
