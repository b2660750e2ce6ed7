import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  answer,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  invalid,
  createResponseRequest,
  listResponseRequests,
} from "./back-office.server";

/**
 * GET  /api/back-office/response-requests?status=&kind=&account=&contact=&limit=&cursor=
 *      (responses:read): the business's response requests, newest first, with their answers.
 * POST /api/back-office/response-requests (responses:write): asks one contact of one account to
 *      answer, and emails them the link: `{ kind, account, contact, message?, expiresInDays?, … }`
 *      with `address` (delivery-address), `statement` (statement) or `dispute` (dispute).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "responses:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    return json(
      await listResponseRequests(caller.businessId, {
        status: params.get("status"),
        kind: params.get("kind"),
        account: params.get("account"),
        contact: params.get("contact"),
        limit: limit === null ? null : Number(limit),
        cursor: params.get("cursor"),
      }),
    );
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "responses:write");
    const body = await readJsonBody(request);
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await createResponseRequest(caller.businessId, body.value, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      return { status: 201, body: result };
    });
  });
}
