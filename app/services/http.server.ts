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
