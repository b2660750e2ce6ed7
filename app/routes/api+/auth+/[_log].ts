import type { ActionFunctionArgs } from "@remix-run/node";
import {
  getPageContext,
  CLIENT_LOG_MAX_BYTES,
  clientLogLimits,
  parseClientLog,
  writeClientLog,
  apiError,
  methodNotAllowed,
  readCapped,
  consume,
  clientAddress,
  requireSameOrigin,
} from "./auth-api.server";

/**
 * POST /api/auth/_log {level, message, code?, url?} (spec §7): one log line from the browser,
 * signed in or not. JSON, or text/plain holding JSON (what `navigator.sendBeacon` sends).
 * Over 4 KB → 413; too many → 429; malformed → 400; written → 204 (decision 025).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  requireSameOrigin(request);
  const { branding, session } = await getPageContext(request);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && type !== "text/plain") {
    return apiError(415, "Send the log line as application/json.");
  }
  const bytes = await readCapped(request, CLIENT_LOG_MAX_BYTES);
  if (bytes === null) return apiError(413, `A log line may be at most ${CLIENT_LOG_MAX_BYTES} bytes.`);
  // Counted before any parsing, so malformed lines use up the budget too.
  const sessionLogId = session?.logToken ?? null;
  if (!(await consume(branding.businessId, clientLogLimits(clientAddress(request), sessionLogId)))) {
    return apiError(429, "Too many log lines: try again in a minute.", { "Retry-After": "60" });
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return apiError(400, "The request body is not valid JSON.");
  }
  const parsed = parseClientLog(body);
  if (!parsed.ok) return apiError(400, parsed.message);
  writeClientLog(parsed.entry, { businessId: branding.businessId, sessionLogId });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
