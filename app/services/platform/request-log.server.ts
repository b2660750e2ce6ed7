import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pinoHttp } from "pino-http";
import { redactLinkPath } from "~/lib/link-paths";
import { logger as defaultLogger, type Logger } from "./logger.server";

/**
 * One structured line per HTTP request (method, path, status, duration, request id), written by
 * pino-http through the portal's pino logger (decision 061); the server writes no other access line.
 *
 * remix-serve owns the HTTP server, so the portal listens on Node's built-in
 * diagnostics channel for the server's request start and hands the request and response to
 * pino-http there instead of wrapping the server. The request id is written into the incoming
 * headers before Express and Remix read them (any client-sent value is replaced), so loaders can
 * read it as `x-request-id`, and it is echoed on the response.
 * See docs/decisions/004-request-logging.md and 061-pino-one-request-line.md.
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
 * The path as logs may show it (the query string dropped, a link's token cut short), worked out
 * once when the request starts and set on the incoming request for its request line.
 */
export const LOG_PATH = Symbol.for("portal.log-path");

/** scripts/serve.js answers this path itself (decision 045); keep the two in step. */
export const READINESS_PATH = "/ready";

const started = new WeakMap<IncomingMessage, bigint>();

type StartMessage = { request: IncomingMessage; response: ServerResponse };

const logPathOf = (request: IncomingMessage) => (request as unknown as Record<symbol, string>)[LOG_PATH];

/** The request line's fields (besides `requestId`, which pino-http binds). */
function requestLine(request: IncomingMessage, response: ServerResponse) {
  const requestId = request.headers[REQUEST_ID_HEADER] as string;
  const logToken = logTokens.get(requestId);
  logTokens.delete(requestId);
  const start = started.get(request);
  started.delete(request);
  const durationMs = start === undefined ? 0 : Number(process.hrtime.bigint() - start) / 1e6;
  return {
    method: request.method,
    // The path only (query strings may carry one-time tokens), a link's token cut short (decision 031).
    path: logPathOf(request),
    status: response.statusCode,
    durationMs: Math.round(durationMs * 10) / 10,
    host: request.headers.host,
    // Named so the redaction rule for "token" keys leaves it alone: it is an opaque id, not a secret.
    ...(logToken ? { sessionLogId: logToken } : {}),
    // The client went away before the answer was complete: the status is what it would have been.
    ...(response.writableFinished ? {} : { aborted: true }),
  };
}

export function installRequestLogging(log: Logger = defaultLogger) {
  const globalKey = Symbol.for("portal.request-logging");
  const registry = globalThis as unknown as { [key: symbol]: boolean };
  if (registry[globalKey]) return;
  registry[globalKey] = true;

  const logRequest = pinoHttp({
    logger: log.pino,
    genReqId: (request) => request.headers[REQUEST_ID_HEADER] as string,
    customAttributeKeys: { reqId: "requestId" },
    // The request line carries its own fields, never the request and response objects (their headers
    // hold cookies and the query string); `req.log` is bound to the request id alone.
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request",
    customSuccessObject: (request, response) => requestLine(request, response),
    customErrorObject: (request, response) => requestLine(request, response),
  });

  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response } = message as StartMessage;
    const id = randomUUID();
    request.headers[REQUEST_ID_HEADER] = id;
    request.headers[CLIENT_ADDRESS_HEADER] = request.socket?.remoteAddress ?? "";
    const path = redactLinkPath(request.url ?? "/");
    (request as unknown as Record<symbol, string>)[LOG_PATH] = path;
    // A proxy asks every second: its readiness checks would bury the requests worth reading.
    if (path === READINESS_PATH) return;
    started.set(request, process.hrtime.bigint());
    if (!response.headersSent) response.setHeader("X-Request-Id", id);
    logRequest(request, response);
  });
}
