import { createHash } from "node:crypto";
import { sql } from "kysely";
import { bodyOfProblem, isRequestProblem, problemBody, statusOfProblem } from "../platform/problems.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters, readCapped } from "../platform/http.server";
import { checkJsonShape, JSON_SHAPE_MESSAGE } from "../platform/form-limits.server";
import { logger } from "../platform/logger.server";
import { authenticate, type ApiCaller, type ApiScope } from "./api-keys.server";

/**
 * The frame of the back-office JSON API (`/api/back-office/…`; decision 032): bearer-key
 * authentication and scopes, JSON bodies, the one error shape (`{ status, message, error: { code,
 * message, fields? } }`, decision 069),
 * and `Idempotency-Key` for POSTs. Route modules stay a few lines each.
 *
 * These calls come from a business's own servers. They carry no cookie and read no session:
 * the key is the only credential, so a browser cannot be tricked into sending one (no CSRF),
 * and the Origin checks that guard cookie-authenticated actions do not apply here.
 */
const HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;
const MAX_BODY_BYTES = 64 * 1024;

export type ErrorCode =
  | "invalid_json"
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "idempotency_mismatch"
  | "idempotency_in_flight"
  | "payload_too_large"
  | "unsupported_media_type"
  | "method_not_allowed"
  | "unavailable";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...HEADERS, ...headers } });
}

export function apiProblem(
  status: number,
  code: ErrorCode,
  message: string,
  options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  return json(problemBody(status, message, { code, fields: options.fields }), status, options.headers);
}

/** Loaders see every method that is not a mutation (OPTIONS too): only GET and HEAD are answered. */
export const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

export const notAllowed = (allowed: string[]) =>
  apiProblem(405, "method_not_allowed", `Use ${allowed.join(" or ")} here.`, {
    headers: { Allow: allowed.join(", ") },
  });

/**
 * The calling key, which must hold `scope`. Throws 401 (no key, or a malformed, unknown or
 * revoked one; with `WWW-Authenticate: Bearer`) or 403 (the key lacks the scope).
 */
export async function requireCaller(request: Request, scope: ApiScope): Promise<ApiCaller> {
  const result = await authenticate(request);
  if (!result.ok) {
    throw apiProblem(
      401,
      "unauthorized",
      result.reason === "missing"
        ? "Send your back-office API key as Authorization: Bearer pk_…"
        : "This API key is not valid (it may have been revoked).",
      {
        headers: {
          "WWW-Authenticate":
            result.reason === "missing"
              ? 'Bearer realm="back-office"'
              : 'Bearer realm="back-office", error="invalid_token"',
        },
      },
    );
  }
  if (!result.caller.scopes.includes(scope)) {
    throw apiProblem(403, "forbidden", `This API key does not have the ${scope} scope.`);
  }
  return result.caller;
}

/**
 * A POST body: JSON only, at most 64 KB (or `maxBytes`: an agreement's text may be longer), UTF-8,
 * an object, no control characters. With `optional`, an empty body (a bare `POST …/send`) is
 * `{}` whatever its Content-Type.
 */
export async function readJsonBody(
  request: Request,
  options: { optional?: boolean; maxBytes?: number } = {},
): Promise<{ raw: string; value: Record<string, unknown> }> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const max = options.maxBytes ?? MAX_BODY_BYTES;
  const bytes = await readCapped(request, max);
  if (bytes === null) {
    throw apiProblem(413, "payload_too_large", `The body is larger than ${Math.round(max / 1024)} KB.`);
  }
  if (options.optional && bytes.byteLength === 0) return { raw: "", value: {} };
  if (type !== "application/json") {
    throw apiProblem(415, "unsupported_media_type", "Send the body as JSON, with Content-Type: application/json.");
  }
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw apiProblem(400, "invalid_json", "The body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw apiProblem(400, "invalid_json", "The body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw apiProblem(400, "invalid_json", "The body must be a JSON object.");
  }
  if (hasControlCharacters(value)) throw apiProblem(400, "validation", CONTROL_CHARACTERS_MESSAGE);
  if (checkJsonShape(value)) throw apiProblem(400, "validation", JSON_SHAPE_MESSAGE);
  return { raw, value: value as Record<string, unknown> };
}

/** A service's RequestProblem as its answer; anything else is rethrown. */
export function problemAnswer(error: unknown): { status: number; body: unknown } {
  if (!isRequestProblem(error)) throw error;
  return { status: statusOfProblem(error), body: bodyOfProblem(error) };
}

/**
 * Runs a route's handler; thrown Responses are answers, a RequestProblem is its 4xx, anything
 * else is logged and a 503 without details (the caller may retry: nothing half-done is kept,
 * each service works in one transaction).
 */
export async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    if (isRequestProblem(error)) {
      const { status, body } = problemAnswer(error);
      return json(body, status);
    }
    logger.error("back-office call failed", { error });
    return apiProblem(503, "unavailable", "The call could not be completed. Try again shortly.", {
      headers: { "Retry-After": "5" },
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Idempotency-Key

/**
 * How long a first request may hold its key before a repeat may take it over. Only a claim
 * whose work never committed can be taken over (see `withIdempotency`), so this bounds how
 * long a crashed request blocks its key, not whether work can happen twice.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

type Stored = { committed: true; resourceId: string | null } | { body: unknown };

export type HandlerResult = { status: number; body: unknown };

/** Called inside the service's transaction, just before it commits; resourceId names what it made. */
export type CommitHook = (tx: Db, resourceId?: string) => Promise<void>;

/**
 * A POST with `Idempotency-Key` runs once; a repeat gets the first answer (with
 * `Idempotent-Replayed: true`). The same key with another method, path or body is a 422, and a
 * repeat while the first is still running a 409.
 *
 * 1. Claim: insert (business, key, hash of method + path + body) with no answer yet, in its own
 *    statement. The primary key lets exactly one of any number of concurrent requests in; the
 *    others read the row and answer 409, 422 or the stored answer.
 * 2. The service runs its one transaction and, just before committing, marks the claim
 *    "committed" (fenced by the claim's created_at: a claim taken over meanwhile makes this
 *    update miss, and the transaction rolls back instead of doing the work twice).
 * 3. After the work (and its emails) the answer is stored. An error answer (validation, not
 *    found, a state conflict, a failure) or a crash before step 2 lets the claim go (deleted, or
 *    taken over after the lease): nothing was done, so a repeat may run again.
 */
export async function withIdempotency(
  request: Request,
  caller: ApiCaller,
  rawBody: string,
  handler: (onCommit: CommitHook) => Promise<HandlerResult>,
): Promise<Response> {
  const key = request.headers.get("idempotency-key");
  if (key === null) {
    const result = await handler(async () => {});
    return json(result.body, result.status);
  }
  if (!KEY_PATTERN.test(key)) {
    return apiProblem(400, "validation", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      fields: { "Idempotency-Key": "Use 1 to 255 visible ASCII characters, e.g. a UUID." },
    });
  }
  const url = new URL(request.url);
  const hash = createHash("sha256").update(`${request.method}\n${url.pathname}\n${rawBody}`).digest("hex");
  const db = await getDb();
  const claimed = await claim(db, caller.businessId, key, hash);
  if ("answer" in claimed) return claimed.answer;
  const fence = claimed.fence;
  let committed = false;

  const onCommit: CommitHook = async (tx, resourceId) => {
    const stored: Stored = { committed: true, resourceId: resourceId ?? null };
    const result = await tx
      .updateTable("api_idempotency_keys")
      .set({ response: JSON.stringify(stored) })
      .where("business_id", "=", caller.businessId)
      .where("idempotency_key", "=", key)
      .where(sql<boolean>`created_at = ${fence}::timestamptz`)
      .where("status_code", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      throw apiProblem(
        409,
        "idempotency_in_flight",
        "Another request with this Idempotency-Key took over. Nothing was changed.",
      );
    }
    committed = true;
  };

  let result: HandlerResult;
  try {
    result = await handler(onCommit);
  } catch (error) {
    if (!committed) await release(db, caller.businessId, key, fence);
    throw error;
  }
  if (result.status >= 400 && !committed) {
    // Nothing was done: a repeat may run again (and get today's answer).
    await release(db, caller.businessId, key, fence);
    return json(result.body, result.status);
  }
  const stored: Stored = { body: result.body };
  await db
    .updateTable("api_idempotency_keys")
    .set({ status_code: result.status, response: JSON.stringify(stored) })
    .where("business_id", "=", caller.businessId)
    .where("idempotency_key", "=", key)
    .where(sql<boolean>`created_at = ${fence}::timestamptz`)
    .execute();
  return json(result.body, result.status);
}

async function claim(
  db: Db,
  businessId: string,
  key: string,
  hash: string,
): Promise<{ fence: string } | { answer: Response }> {
  const inserted = await db
    .insertInto("api_idempotency_keys")
    .values({ business_id: businessId, idempotency_key: key, request_hash: hash })
    .onConflict((oc) => oc.columns(["business_id", "idempotency_key"]).doNothing())
    .returning(sql<string>`created_at::text`.as("fence"))
    .executeTakeFirst();
  if (inserted) return { fence: inserted.fence };
  const row = await db
    .selectFrom("api_idempotency_keys")
    .select([
      "request_hash as requestHash",
      "status_code as statusCode",
      "response",
      sql<string>`created_at::text`.as("fence"),
      sql<boolean>`created_at < now() - ${`${IDEMPOTENCY_LEASE_MS} milliseconds`}::interval`.as("stale"),
    ])
    .where("business_id", "=", businessId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  if (!row) {
    // Released between our insert and our read: the caller may simply try again.
    return { answer: inFlight() };
  }
  if (row.requestHash !== hash) {
    return {
      answer: apiProblem(
        422,
        "idempotency_mismatch",
        "This Idempotency-Key was used for a different request (method, path or body). Use a new key for a new request.",
      ),
    };
  }
  const stored = row.response as Stored | null;
  if (row.statusCode !== null && stored && "body" in stored) {
    return { answer: json(stored.body, row.statusCode, { "Idempotent-Replayed": "true" }) };
  }
  if (stored && "committed" in stored) {
    return {
      answer: row.stale
        ? apiProblem(
            409,
            "conflict",
            `The first request with this Idempotency-Key made its change but its answer was lost${stored.resourceId ? ` (it concerns ${stored.resourceId})` : ""}: read the resource to see its state.`,
          )
        : inFlight(),
    };
  }
  if (!row.stale) return { answer: inFlight() };
  // The first request never committed and has gone quiet: this one takes the key over.
  const taken = await db
    .updateTable("api_idempotency_keys")
    .set({ created_at: sql`clock_timestamp()` })
    .where("business_id", "=", businessId)
    .where("idempotency_key", "=", key)
    .where(sql<boolean>`created_at = ${row.fence}::timestamptz`)
    .where("status_code", "is", null)
    .where("response", "is", null)
    .returning(sql<string>`created_at::text`.as("fence"))
    .executeTakeFirst();
  return taken ? { fence: taken.fence } : { answer: inFlight() };
}

const inFlight = () =>
  apiProblem(
    409,
    "idempotency_in_flight",
    "A request with this Idempotency-Key is still being answered. Try again shortly.",
    {
      headers: { "Retry-After": "1" },
    },
  );

async function release(db: Db, businessId: string, key: string, fence: string) {
  await db
    .deleteFrom("api_idempotency_keys")
    .where("business_id", "=", businessId)
    .where("idempotency_key", "=", key)
    .where(sql<boolean>`created_at = ${fence}::timestamptz`)
    .where("response", "is", null)
    .execute()
    .catch((error: unknown) => logger.warn("idempotency key could not be released", { error }));
}
