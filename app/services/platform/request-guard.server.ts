import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { lastForwardedValue } from "./forwarded.server";

/**
 * Remix's own CSRF check (server-runtime `throwIfPotentialCSRFAttack`) answers a document
 * POST whose Origin differs from the Host with an empty 500 and logs it as a server fault.
 * A cross-site POST is the client's problem and must get a clear 403 that changes nothing.
 *
 * So, as each request arrives (before Express and Remix see it), a state-changing request
 * whose Origin does not match its Host loses the Origin header and gets a server-written
 * marker instead; `requireSameOrigin` (every action's first line) turns the marker into a
 * 403. Any client-sent marker is removed first. See docs/decisions/009-cross-origin-requests.md.
 */
export const CROSS_ORIGIN_MARKER = "x-portal-cross-origin";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function originHost(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

export function markCrossOrigin(request: IncomingMessage, trustProxy: boolean) {
  delete request.headers[CROSS_ORIGIN_MARKER];
  if (!STATE_CHANGING.has(request.method ?? "")) return;
  const origin = request.headers.origin;
  if (typeof origin !== "string") return;
  // Behind a trusted proxy, the host it wrote: the right-most value (decision 024).
  const forwarded = trustProxy ? lastForwardedValue(request.headers["x-forwarded-host"]) : null;
  const host = (forwarded || request.headers.host || "").toLowerCase();
  if (originHost(origin) !== host || host === "") {
    delete request.headers.origin;
    request.headers[CROSS_ORIGIN_MARKER] = "1";
  }
}

export function installRequestGuard(options: { trustProxy: boolean }) {
  const globalKey = Symbol.for("portal.request-guard");
  const registry = globalThis as unknown as { [key: symbol]: boolean };
  if (registry[globalKey]) return;
  registry[globalKey] = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    markCrossOrigin((message as { request: IncomingMessage }).request, options.trustProxy);
  });
}
