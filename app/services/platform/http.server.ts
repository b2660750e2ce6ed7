/**
 * JSON answers for the API resource routes (spec §7, §8): correct status, a `message`
 * a person can read, no caching of per-host data by shared caches, and no sniffing.
 */
import {
  checkFormNames,
  checkJsonShape,
  countRawFields,
  fieldPath,
  FORM_LIMIT_MESSAGES,
  JSON_SHAPE_MESSAGE,
  MAX_FORM_FIELDS,
  type FormLimitRefusal,
} from "./form-limits.server";
import { problemBody } from "./problems.server";

const API_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
} as const;

export function apiJson(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return Response.json(body, {
    status: init.status ?? 200,
    headers: { ...API_HEADERS, ...init.headers },
  });
}

/** An API's error answer, in the one shape (decision 069); `code` defaults to one word per status. */
export function apiError(
  status: number,
  message: string,
  headers?: Record<string, string>,
  options: { code?: string; fields?: Record<string, string> } = {},
) {
  return apiJson(problemBody(status, message, options), { status, headers });
}

/** The answer for a method a JSON route does not take: 405, JSON, with `Allow`. */
export function methodNotAllowed(allowed: string[]) {
  return apiError(405, `Method not allowed: use ${allowed.join(" or ")}`, { Allow: allowed.join(", ") });
}

const MAX_BODY_BYTES = 16 * 1024;

/**
 * The bound of any one string read from an API body: no string can be longer than the body
 * that holds it (a UTF-16 unit takes at least a byte, in JSON and in a form alike). A schema
 * whose field has no tighter bound that keeps every answer as it was gives it this one.
 */
export const API_BODY_TEXT_MAX = MAX_BODY_BYTES;

/**
 * Reads a small JSON or form body for the JSON API. Malformed, oversized or unsupported
 * bodies become a thrown 400/413/415 answer, never a 500.
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const bytes = await readCapped(request, MAX_BODY_BYTES);
  if (bytes === null) throw apiError(413, "The request body is too large.");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw apiError(400, "The request body is not valid UTF-8.");
  }
  if (type === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw apiError(400, "The request body is not valid JSON.");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw apiError(400, "The request body must be a JSON object.");
    }
    if (hasControlCharacters(parsed)) throw apiError(400, CONTROL_CHARACTERS_MESSAGE);
    if (checkJsonShape(parsed)) throw apiError(400, JSON_SHAPE_MESSAGE);
    return parsed as Record<string, unknown>;
  }
  if (type === "application/x-www-form-urlencoded" || type === "") {
    if (countRawFields(bytes, "application/x-www-form-urlencoded") > MAX_FORM_FIELDS) {
      throw apiError(400, FORM_LIMIT_MESSAGES["too-many-fields"]);
    }
    const params = new URLSearchParams(text);
    for (const [name] of params) {
      const path = fieldPath(name);
      if (path === null || path === "list-index") throw apiError(400, FORM_LIMIT_MESSAGES["field-name"]);
    }
    if (hasControlCharacters([...params])) throw apiError(400, CONTROL_CHARACTERS_MESSAGE);
    return Object.fromEntries(params);
  }
  throw apiError(415, "Send the body as application/json or application/x-www-form-urlencoded.");
}

/**
 * Reads a body up to `max` bytes, whatever the declared length says (chunked bodies declare
 * none). Returns null when it is larger, without reading the rest into memory.
 */
export async function readCapped(request: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Let go without cancelling. Awaiting a cancel held the answer (and the socket) until
      // the server's request time-out when the body was cloned (a tee settles a cancel only
      // once both branches cancel); and cancelling the request's own stream destroys the
      // socket, so the client saw a reset instead of our 413. The server drains the unread
      // rest after answering (scripts/edge.js).
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const MAX_FORM_BYTES = 64 * 1024;

/** A form body within the bounds of form-limits.server.ts, or why not: counted before it is parsed. */
export async function parseFormBody(
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
): Promise<{ ok: true; form: FormData } | { ok: false; reason: FormLimitRefusal | "bad-form" }> {
  if (countRawFields(bytes, contentType) > MAX_FORM_FIELDS) return { ok: false, reason: "too-many-fields" };
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    return { ok: false, reason: "bad-form" };
  }
  const refusal = checkFormNames(form);
  if (refusal) return { ok: false, reason: refusal };
  // An upload's body may be megabytes; its text fields never are, and a refused form echoes them.
  for (const [, value] of form) {
    if (typeof value === "string" && value.length > MAX_FORM_BYTES) return { ok: false, reason: "field-too-long" };
  }
  return { ok: true, form };
}

/**
 * The body of a page form: URL-encoded or multipart, at most 64 KB, its names within the form
 * limits (form-limits.server.ts). Anything else is a thrown 400/413/415 that the error boundary
 * explains (never a 500). Pass a clone when a library must read the original afterwards.
 */
export async function readForm(request: Request): Promise<FormData> {
  const { form, controls } = await readBoundedForm(request);
  if (controls) throw formError(400, "control-characters");
  return form;
}

/**
 * `readForm` for the few forms that say at the field which held control characters rather than
 * refusing the whole body (a referee's or a contact's answer): every other bound still applies.
 */
export async function readFormReportingControls(request: Request): Promise<{ form: FormData; controls: boolean }> {
  return readBoundedForm(request);
}

async function readBoundedForm(request: Request): Promise<{ form: FormData; controls: boolean }> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const isForm = type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
  if (!isForm) throw formError(415);
  const bytes = await readCapped(request, MAX_FORM_BYTES);
  if (bytes === null) throw formError(413);
  const parsed = await parseFormBody(bytes, request.headers.get("content-type")!);
  if (!parsed.ok) throw formError(400, parsed.reason);
  const { form } = parsed;
  for (const [name, value] of form) {
    if (hasControlCharacters(name) || (typeof value === "string" && hasControlCharacters(value))) {
      return { form, controls: true };
    }
  }
  return { form, controls: false };
}

function formError(status: 400 | 413 | 415, reason = "bad-form") {
  return Response.json({ reason }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * Control characters have no place in anything a person types: U+0000 makes PostgreSQL
 * refuse the statement (a 500), and the rest (C0 other than tab, line feed and carriage
 * return; DEL; C1) only ever arrive from tools probing us. Tab and line breaks stay, since
 * multi-line fields (a payment note) legitimately hold them; single-line fields trim or
 * refuse them in their own schemas. Keep in step with scripts/edge.js (query strings).
 * See docs/decisions/024-edge-input-and-transport-hardening.md.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * A `Content-Disposition` for a download saved as `fileName` (RFC 6266): `filename` in plain ASCII,
 * which every client understands, and — when the name is more than that — the name itself in
 * UTF-8 as `filename*` (RFC 8187, which replaced RFC 5987), which browsers prefer. `fileName`
 * must already be safe to save (no path, no control characters: see the caller's own rule); the
 * ASCII name keeps its extension, and is "document" plus it when nothing of the name is ASCII.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = asciiFileName(fileName);
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  // encodeURIComponent leaves ' ( ) * as they are; RFC 8187's attr-char does not allow them.
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Letters without their accents, digits, spaces, dots, dashes and underscores; the extension kept. */
function asciiFileName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const extension = dot > 0 && /^\.[A-Za-z0-9]{1,8}$/.test(fileName.slice(dot)) ? fileName.slice(dot) : "";
  const base = (extension ? fileName.slice(0, dot) : fileName)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^A-Za-z0-9 ._-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[ ._-]+|[ ._-]+$/g, "");
  return `${/[A-Za-z0-9]/.test(base) ? base : "document"}${extension}`;
}

/** `value` with every refused character taken out: what a form shows back after refusing it. */
export function withoutControlCharacters(value: string): string {
  return value.replace(new RegExp(CONTROL_CHARACTERS.source, "g"), "");
}

export const CONTROL_CHARACTERS_MESSAGE =
  "The request contains control characters (such as U+0000), which no field accepts. Nothing was changed.";

/** True when a string, or any string (key or value) inside an array or object, holds a refused character. */
export function hasControlCharacters(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return CONTROL_CHARACTERS.test(value);
  if (depth > 32 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => hasControlCharacters(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => CONTROL_CHARACTERS.test(key) || hasControlCharacters(item, depth + 1),
  );
}

/**
 * The same rule for the request's address: its decoded path and every query name and
 * value. scripts/edge.js refuses these before Remix; this is the check the app itself makes
 * (every loader starts at requireHostBranding), so no server set-up can skip it.
 */
export function urlHasControlCharacters(url: URL): boolean {
  // Each run of escapes is decoded on its own, so one malformed escape elsewhere (`/a/%00%ZZ`)
  // cannot hide an encoded control character; a run that is not UTF-8 is read byte by byte.
  const path = url.pathname.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
  if (CONTROL_CHARACTERS.test(path)) return true;
  for (const [name, value] of url.searchParams) {
    if (CONTROL_CHARACTERS.test(name) || CONTROL_CHARACTERS.test(value)) return true;
  }
  return false;
}

/** The 400 for an address with control characters: JSON for the API, the error page otherwise. */
export function controlCharactersInAddress(url: URL): Response {
  if (url.pathname.startsWith("/api/")) return apiError(400, CONTROL_CHARACTERS_MESSAGE);
  return formError(400, "control-characters");
}
