import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  answer,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  createPaymentRequest,
  listPaymentRequests,
  sendPaymentRequest,
  invalid,
} from "./back-office.server";

/**
 * GET  /api/back-office/payment-requests?state=&account=&limit=&cursor= (payment-requests:read)
 * POST /api/back-office/payment-requests (payment-requests:write): create; `"send": true` also
 *      emails it at once. Decision 032; authenticated by the business's API key only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "payment-requests:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    const page = await listPaymentRequests(caller.businessId, {
      state: params.get("state"),
      account: params.get("account"),
      limit: limit === null ? null : Number(limit),
      cursor: params.get("cursor"),
    });
    return json(page);
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "payment-requests:write");
    const body = await readJsonBody(request);
    const { send, ...input } = body.value;
    if (send !== undefined && typeof send !== "boolean") throw invalid({ send: "Give true or false." });
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const created = await createPaymentRequest(caller.businessId, input, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      if (!send) return { status: 201, body: { request: created } };
      // The key is marked used when the request is made; were the sending lost after that, a
      // repeat is told so (with the request's id) instead of making a second request.
      const sent = await sendPaymentRequest(caller.businessId, created.id, { beforeCommit: onCommit });
      return { status: 201, body: sent };
    });
  });
}
