import type { ActionFunctionArgs } from "@remix-run/node";
import {
  answer,
  apiProblem,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  changeContactPermission,
} from "./back-office.server";

/**
 * POST /api/back-office/contacts/:contact/permissions/grant | revoke (contacts:write), body
 * `{"permission": "hostAdmin"}` (or accessCustomerPortal). 200 `{contact, permission, changed}`;
 * granting what the contact holds (or revoking what it does not) is `changed: false`. A host
 * admin's previews end with the permission: every page checks it again (requireHostBranding).
 */
const VERBS = ["grant", "revoke"] as const;

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    const verb = VERBS.find((v) => v === params.verb);
    if (!verb) return apiProblem(404, "not_found", "Use grant or revoke.");
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "contacts:write");
    const body = await readJsonBody(request);
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await changeContactPermission(caller.businessId, params.contact, body.value, verb, {
        beforeCommit: onCommit,
        keyId: caller.keyId,
      });
      return { status: 200, body: result };
    });
  });
}

export function loader() {
  return notAllowed(["POST"]);
}
