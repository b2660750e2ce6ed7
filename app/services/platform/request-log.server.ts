import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { redactLinkPath } from "~/lib/link-paths";
import { logger as defaultLogger, type Logger } from "./logger.server";

/**
 * One structured line per HTTP request (method, path, status, duration, request id).
 *
 * remix-serve owns the HTTP server, so the portal listens on Node's built-in
 * diagnostics channels for the server's request start and response finish instead of
 * wrapping the server. The request id is written into the incoming headers before
 * Express and Remix read them (any client-sent value is replaced), so loaders can
 * read it as `x-request-id`, and it is echoed on the response.
 * See docs/decisions/004-request-logging.md.
 */
export const REQUEST_ID_HEADER = "x-request-id";
/**
 * The peer address of the TCP connection, for rate limits and audit. Written by the
 * server (any client-sent value is replaced), because a Fetch Request carries no socket.
 */
export const CLIENT_ADDRESS_HEADER = "x-portal-peer-address";

/**
 * The signed-in session's log token for a request (spec §7: a log token from the session
 * is attached to each request). Loaders record it by request id; the request line reads
 * and forgets it when the response finishes.
 */
const logTokens = new Map<string, string>();

/** The session's log token for this request, if a loader or action has seen the session. */
export function logTokenFor(request: Request): string | undefined {
  const id = request.headers.get(REQUEST_ID_HEADER);
  return id ? logTokens.get(id) : undefined;
}

export function recordLogToken(request: Request, logToken: string) {
  const id = request.headers.get(REQUEST_ID_HEADER);
  if (!id) return;
  // Aborted requests never finish: drop the oldest entries rather than grow without bound.
  while (logTokens.size >= 10_000) {
    const oldest = logTokens.keys().next().value;
    if (oldest === undefined) break;
    logTokens.delete(oldest);
  }
  logTokens.set(id, logToken);
}

/**
 * The path as logs may show it (the query string dropped, a link's token cut short), set on
 * the incoming request for the server's own access line (scripts/serve.js), which runs outside
 * the app's build and so cannot import the rule.
 */
export const LOG_PATH = Symbol.for("portal.log-path");

/** scripts/serve.js answers this path itself (decision 045); keep the two in step. */
export const READINESS_PATH = "/ready";

type Started = { id: string; start: bigint; path: string };
const started = new WeakMap<IncomingMessage, Started>();

type StartMessage = { request: IncomingMessage; response: ServerResponse };

export function installRequestLogging(log: Logger = defaultLogger) {
  const globalKey = Symbol.for("portal.request-logging");
  const registry = globalThis as unknown as { [key: symbol]: boolean };
  if (registry[globalKey]) return;
  registry[globalKey] = true;

  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response } = message as StartMessage;
    const id = randomUUID();
    request.headers[REQUEST_ID_HEADER] = id;
    request.headers[CLIENT_ADDRESS_HEADER] = request.socket?.remoteAddress ?? "";
    const path = redactLinkPath(request.url ?? "/");
    (request as unknown as Record<symbol, string>)[LOG_PATH] = path;
    // A proxy asks every second: its readiness checks would bury the requests worth reading.
    if (path === READINESS_PATH) return;
    started.set(request, { id, start: process.hrtime.bigint(), path });
    if (!response.headersSent) response.setHeader("X-Request-Id", id);
  });

  diagnostics.subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as StartMessage;
    const entry = started.get(request);
    if (!entry) return;
    started.delete(request);
    const logToken = logTokens.get(entry.id);
    logTokens.delete(entry.id);
    const durationMs = Number(process.hrtime.bigint() - entry.start) / 1e6;
    const status = response.statusCode;
    log[status >= 500 ? "error" : "info"]("request", {
      method: request.method,
      // The path only (query strings may carry one-time tokens), a link's token cut short (decision 031).
      path: entry.path,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      requestId: entry.id,
      host: request.headers.host,
      // Named so the redaction rule for "token" keys leaves it alone: it is an opaque id, not a secret.
      ...(logToken ? { sessionLogId: logToken } : {}),
    });
  });
}
