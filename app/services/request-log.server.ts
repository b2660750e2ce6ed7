import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
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

type Started = { id: string; start: bigint };
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
    started.set(request, { id, start: process.hrtime.bigint() });
    if (!response.headersSent) response.setHeader("X-Request-Id", id);
  });

  diagnostics.subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as StartMessage;
    const entry = started.get(request);
    if (!entry) return;
    started.delete(request);
    const durationMs = Number(process.hrtime.bigint() - entry.start) / 1e6;
    const status = response.statusCode;
    log[status >= 500 ? "error" : "info"]("request", {
      method: request.method,
      // The path only: query strings may carry one-time tokens.
      path: (request.url ?? "/").split("?")[0],
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      requestId: entry.id,
      host: request.headers.host,
    });
  });
}
