/**
 * JSON answers for the API resource routes (spec §7, §8): correct status, a `message`
 * a person can read, no caching of per-host data by shared caches, and no sniffing.
 */
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

export function apiError(status: number, message: string, headers?: Record<string, string>) {
  return apiJson({ status, message }, { status, headers });
}

/** The answer for a method a JSON route does not take: 405, JSON, with `Allow`. */
export function methodNotAllowed(allowed: string[]) {
  return apiError(405, `Method not allowed: use ${allowed.join(" or ")}`, { Allow: allowed.join(", ") });
}

const MAX_BODY_BYTES = 16 * 1024;

/**
 * Reads a small JSON or form body for the JSON API. Malformed, oversized or unsupported
 * bodies become a thrown 400/413/415 answer, never a 500.
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw apiError(413, "The request body is too large.");
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const text = await request.text();
  if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) throw apiError(413, "The request body is too large.");
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
    return parsed as Record<string, unknown>;
  }
  if (type === "application/x-www-form-urlencoded" || type === "") {
    return Object.fromEntries(new URLSearchParams(text));
  }
  throw apiError(415, "Send the body as application/json or application/x-www-form-urlencoded.");
}
