import type { ActionFunctionArgs } from "@remix-run/node";
import {
  receiveWebhook,
  requireHostBranding,
  apiError,
  apiJson,
  methodNotAllowed,
  readCapped,
  logger,
  requireSameOrigin,
  problemBody,
} from "./payto-api.server";

/** Webhook bodies are one object's snapshot: a few hundred bytes. Anything near this is not ours. */
const MAX_WEBHOOK_BYTES = 32 * 1024;

/**
 * POST /api/payTo/webhook (decision 027): the PayTo provider tells the business's host that an
 * agreement, a payment or money at a PayID changed. Server to server: no session, no cookies,
 * no Origin; the HMAC signature over the raw body is the only credential. 401 for a bad or
 * stale signature, 404 for an object this business never made, 200 otherwise (a replay too).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  // A provider's server sends no Origin and no fetch metadata, so this passes for it; a browser
  // posting here from another site is refused before anything is read.
  requireSameOrigin(request);
  let businessId: string;
  try {
    businessId = (await requireHostBranding(request)).businessId;
  } catch (error) {
    // The database is down (503): the provider retries later. Otherwise the host is unknown.
    const status = (error as { init?: { status?: number } } | null)?.init?.status;
    return status === 503 ? apiError(503, "Try again later.", { "Retry-After": "30" }) : apiError(404, "Unknown host.");
  }
  const bytes = await readCapped(request, MAX_WEBHOOK_BYTES);
  if (bytes === null) return apiError(413, "The request body is too large.");
  let rawBody: string;
  try {
    rawBody = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return apiError(401, "The webhook signature could not be verified.");
  }
  try {
    const answer = await receiveWebhook(businessId, request.headers, rawBody);
    // A refusal keeps the provider's `received: false` beside the one error shape (decision 069).
    if (answer.status !== 200) {
      return apiJson(
        { received: false, ...problemBody(answer.status, answer.body.message) },
        { status: answer.status },
      );
    }
    return apiJson(answer.body, { status: answer.status });
  } catch (error) {
    // The event id is recorded only after it is applied: the provider retries it later.
    logger.error("payto webhook could not be applied", { businessId, error });
    return apiError(503, "Try again later.", { "Retry-After": "30" });
  }
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
