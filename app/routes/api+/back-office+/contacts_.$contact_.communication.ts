import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  answer,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  getContactCommunication,
  recordContactCommunication,
} from "./back-office.server";

/**
 * GET /api/back-office/contacts/:contact/communication (communication:read): a contact of the
 * key's business, by id or email, with their communication preferences — `preferences` as
 * `{ statements: { email, post }, … }` for a statement run to honour, each choice with whether it
 * is the default, what is always sent, and the latest changes (decision 039).
 *
 * POST (communication:write), body `{"preferences": {"statements": {"post": true}}, "note": "…"}`:
 * records choices the contact gave the business directly, with a note of how; `Idempotency-Key`
 * as every POST. 200 `{…the view, changed: ["statements.post"]}`; a choice already so is no change.
 * Another business's contact is a 404, exactly like one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "communication:read");
    return json(await getContactCommunication(caller.businessId, params.contact));
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "communication:write");
    const body = await readJsonBody(request);
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await recordContactCommunication(caller.businessId, params.contact, body.value, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      return { status: 200, body: result };
    });
  });
}
