/**
 * The portal's front door: what every request meets before Express and Remix see it, in the
 * one server every run goes through (scripts/serve.js: `npm start`, `npm run serve`, the
 * e2e journeys and the benchmark). See docs/decisions/024-edge-input-and-transport-hardening.md.
 *
 * - Methods the Fetch API refuses (TRACE, TRACK, CONNECT) made Remix's Request constructor
 *   throw: a 500. Only the methods the portal uses get through; any other is a 405 with Allow.
 * - A declared body over the largest any route reads (64 KB) is a 413 at once, unread.
 *   (Chunked bodies declare no length: the capped readers in http.server.ts stop those.)
 *   The back-office calls that publish an agreement's text take up to 512 KB (decision 036);
 *   the branding form with its logo and favicon, 1.5 MB (issue 16); a credit application's
 *   documents step, one 10 MB file and its fields (decision 038).
 * - Control characters in the path or query string (U+0000 made PostgreSQL fail a query):
 *   a 400 that says why. Tab, line feed and carriage return are let through, as in bodies;
 *   keep this rule in step with CONTROL_CHARACTERS in app/services/platform/http.server.ts.
 */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Publishing an agreement's text (POST /api/back-office/agreements and …/<id>/versions): up to
 * 100,000 characters of text, so a larger body. Keep in step with AGREEMENT_API_BODY_BYTES in
 * app/lib/agreements.ts, which the routes' own capped reader applies.
 */
export const AGREEMENT_TEXT_BODY_BYTES = 512 * 1024;
const AGREEMENT_TEXT_PATH = /^\/api\/back-office\/agreements(\/[^/?#]+\/versions)?\/?(\?|$)/;

/**
 * A host admin's branding form (POST /admin/branding, issue 16): a logo (at most 1 MB) and a
 * favicon (at most 256 KB) with the text fields and the multipart framing. Keep in step with
 * BRAND_FORM_MAX_BYTES in app/lib/brand-uploads.ts, which the route's own capped reader applies.
 */
export const BRAND_FORM_BODY_BYTES = 1536 * 1024;
const BRAND_FORM_PATH = /^\/admin\/branding(\.data)?\/?(\?|$)/;

/**
 * A credit application's documents step (POST /credit/documents, issue 17; decision 038): one
 * file of at most 10 MB with the step's few fields and the multipart framing. Keep in step with
 * DOCUMENT_FORM_MAX_BYTES in app/lib/credit-steps.ts, which the step's own capped reader applies.
 * `.data` is the same POST sent by the page's script (Remix's single fetch).
 */
export const CREDIT_DOCUMENT_BODY_BYTES = 10 * 1024 * 1024 + 256 * 1024;
const CREDIT_DOCUMENT_PATH = /^\/credit\/documents(\.data)?\/?(\?|$)/;

/** The largest body a request to this target may declare. */
export function maxBodyBytesFor(target) {
  const path = String(target ?? "");
  if (AGREEMENT_TEXT_PATH.test(path)) return AGREEMENT_TEXT_BODY_BYTES;
  if (BRAND_FORM_PATH.test(path)) return BRAND_FORM_BODY_BYTES;
  if (CREDIT_DOCUMENT_PATH.test(path)) return CREDIT_DOCUMENT_BODY_BYTES;
  return MAX_BODY_BYTES;
}

const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const MESSAGES = {
  405: "This method is not allowed here.",
  413: "The request body is too large.",
  400: "The address contains control characters (such as U+0000), which no page or field accepts.",
};

/** The branding form's 413 names the limits (app/lib/brand-uploads.ts). */
const BRAND_FORM_TOO_LARGE = "The upload is too large: a logo may be at most 1 MB and a favicon at most 256 KB.";

/** The credit documents step's 413 names its limit (app/lib/credit-steps.ts) and leads back to the step. */
const CREDIT_DOCUMENT_TOO_LARGE =
  "The file is too large: each document may be at most 10 MB (PDF, PNG or JPEG). Nothing was saved: choose a smaller file.";

/**
 * Decodes each run of %XX escapes on its own, so one malformed escape elsewhere (`/a/%00%ZZ`)
 * cannot hide an encoded control character; a run that is not UTF-8 is read byte by byte.
 */
function safeDecode(text) {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/** True when the request target's path or any query name or value holds a refused character. */
export function targetHasControlCharacters(target) {
  const raw = String(target ?? "");
  if (CONTROL_CHARACTERS.test(raw)) return true;
  const question = raw.indexOf("?");
  const path = question < 0 ? raw : raw.slice(0, question);
  if (CONTROL_CHARACTERS.test(safeDecode(path))) return true;
  if (question < 0) return false;
  for (const [name, value] of new URLSearchParams(raw.slice(question + 1))) {
    if (CONTROL_CHARACTERS.test(name) || CONTROL_CHARACTERS.test(value)) return true;
  }
  return false;
}

/** What the edge refuses this request with, or null to let it through. */
export function edgeRefusal(method, target, headers) {
  if (!ALLOWED_METHODS.includes(String(method ?? "").toUpperCase())) return 405;
  const declared = headers["content-length"];
  if (declared !== undefined && (!/^\d+$/.test(declared) || Number(declared) > maxBodyBytesFor(target))) return 413;
  if (targetHasControlCharacters(target)) return 400;
  return null;
}

/** The answer's head and body: JSON (with `message`) for the API, a small HTML page otherwise. */
export function edgeAnswer(status, target) {
  const brandForm = status === 413 && BRAND_FORM_PATH.test(String(target ?? ""));
  const creditDocument = status === 413 && CREDIT_DOCUMENT_PATH.test(String(target ?? ""));
  const message = brandForm ? BRAND_FORM_TOO_LARGE : creditDocument ? CREDIT_DOCUMENT_TOO_LARGE : MESSAGES[status];
  const isApi = String(target ?? "").startsWith("/api/");
  const headers = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    // The rest of an unread body is not worth reading: the connection closes after this.
    Connection: "close",
  };
  if (status === 405) headers.Allow = ALLOWED_METHODS.join(", ");
  let body;
  if (isApi) {
    headers["Content-Type"] = "application/json; charset=utf-8";
    body = JSON.stringify({ status, message });
  } else {
    headers["Content-Type"] = "text/html; charset=utf-8";
    const title = status === 405 ? "Method not allowed" : status === 413 ? "Request too large" : "Bad request";
    const [backHref, backText] = brandForm
      ? ["/admin/branding", "Back to branding"]
      : creditDocument
        ? ["/credit/documents", "Back to your documents"]
        : ["/", "Go to the home page"];
    const unchanged = creditDocument ? "" : " Nothing was changed.";
    body = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><h1>${title}</h1><p>${message}${unchanged}</p><p><a href="${backHref}">${backText}</a></p></html>`;
  }
  headers["Content-Length"] = String(Buffer.byteLength(body));
  return { headers, body };
}

/** The most of an unread body drained after an answer, and for how long, before the socket is cut. */
const DRAIN_MAX_BYTES = 1024 * 1024;
const DRAIN_MAX_MS = 5_000;

/**
 * After an answer that left the body partly unread (a 413 from a capped reader, a redirect
 * before reading), read and drop the rest, so the client receives the answer rather than a
 * connection reset, and the connection can serve its next request. A client that keeps
 * sending past the bounds is cut off.
 */
export function drainAfterAnswer(req, res) {
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    // Whatever was reading the body (Remix's stream) has given up on it.
    req.removeAllListeners("data");
    req.removeAllListeners("readable");
    let drained = 0;
    const timer = setTimeout(() => req.socket?.destroy(), DRAIN_MAX_MS);
    timer.unref();
    req.on("data", (chunk) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) req.socket?.destroy();
    });
    req.once("end", () => clearTimeout(timer));
    req.once("close", () => clearTimeout(timer));
    req.resume();
  });
}

/** Express-style middleware: answers a refused request itself, else passes it on. */
export function edgeGuard(req, res, next) {
  const status = edgeRefusal(req.method, req.url, req.headers);
  if (status === null) {
    drainAfterAnswer(req, res);
    return next();
  }
  const { headers, body } = edgeAnswer(status, req.url);
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Requests Node's parser refuses never reach Express. Its own answers are kept (400, 408,
 * 413, 431), except for a method it does not know (TRACK and the like): that is a 405.
 */
export function answerClientError(error, socket) {
  if (!socket.writable || socket.writableEnded) {
    socket.destroy();
    return;
  }
  const code = error && typeof error === "object" ? error.code : undefined;
  if (code === "HPE_INVALID_METHOD") {
    const { headers, body } = edgeAnswer(405, "/");
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${headLines(headers)}\r\n\r\n${body}`);
    return;
  }
  const status =
    code === "HPE_HEADER_OVERFLOW"
      ? "431 Request Header Fields Too Large"
      : code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
        ? "413 Payload Too Large"
        : code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "408 Request Timeout"
          : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function headLines(headers) {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n");
}

/**
 * CONNECT never reaches the request handler: Node hands it to 'connect' listeners, and
 * with none it drops the socket without a word. Answer it with a 405 like TRACE.
 */
export function answerConnect(req, socket) {
  const { headers, body } = edgeAnswer(405, req.url);
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${headLines(headers)}\r\n\r\n${body}`);
}
