import { createHash, randomBytes } from "node:crypto";
import { getDb } from "../platform/database.server";
import { now as clockNow } from "../platform/clock.server";
import { invalid } from "../platform/problems.server";
import { UUID } from "~/lib/ids";

/**
 * Back-office API keys (issue 14; decision 032). A key is `pk_` + base64url(32 random bytes):
 * 256 bits from the CSPRNG, shown once when it is made. The table keeps only its SHA-256 (hex)
 * and the first characters (to tell keys apart in a list). The key alone decides the business:
 * the Host a call arrives on does not matter.
 *
 * A key carries scopes. Each later issue adds its own to API_SCOPES (one line, with what it
 * allows); a key holds only scopes from this list.
 */
export const API_SCOPES = {
  "payment-requests:read": "List payment requests and read one.",
  "payment-requests:write": "Create, send, resend and cancel payment requests.",
  "adhoc:write": "Email a contact a link to pay any amount to an account.",
  "invoice-links:read": "List the links to single invoices: to whom, until when, opened, revoked.",
  "invoice-links:write": "Email contacts a link to pay one invoice, and revoke such links.",
  "agreements:read": "List agreement documents and offers, and read one with its versions or decision.",
  "agreements:write": "Create agreement documents, publish versions, and offer, resend and withdraw offers.",
  "schedules:read": "List payment schedules and read one, with its instalments and their tries.",
  "schedules:write": "Propose, send, resend, withdraw and cancel payment schedules.",
  "contacts:read": "Read a contact's permissions.",
  "contacts:write": "Grant and revoke a contact's permissions (accessCustomerPortal, hostAdmin).",
  "credit:read":
    "List credit applications and trade references, and read one application with its answers, references and documents.",
  "credit:write": "Accept or decline credit applications, and email a trade referee a new link.",
  "communication:read": "Read a contact's communication preferences (email, post) and their history.",
  "communication:write":
    "Record communication preferences a contact gave the business (by phone, on paper), with a note.",
  "responses:read": "List response requests and read one with its answer.",
  "responses:write":
    "Ask a contact to answer (confirm an address, acknowledge a statement, respond to a dispute), resend and withdraw.",
} as const;

export type ApiScope = keyof typeof API_SCOPES;

export const isApiScope = (value: unknown): value is ApiScope =>
  typeof value === "string" && Object.hasOwn(API_SCOPES, value);

const KEY_PATTERN = /^pk_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 12;
/** last_used_at is written at most this often per key: a busy key costs no write per call. */
const LAST_USED_PRECISION_MS = 60_000;

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

export type ApiKeyInfo = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** Makes a key; the returned `key` is the only copy anywhere. */
export async function createApiKey(
  businessId: string,
  name: string,
  scopes: string[],
): Promise<ApiKeyInfo & { key: string }> {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (trimmed.length < 1 || trimmed.length > 100 || /[\u0000-\u001f\u007f-\u009f]/.test(trimmed)) {
    throw invalid({ name: "Give the key a name of 1 to 100 characters, on one line." });
  }
  const unknown = scopes.filter((scope) => !isApiScope(scope));
  if (scopes.length === 0 || unknown.length) {
    throw invalid({
      scope: `${unknown.length ? `Unknown scope ${unknown.map((s) => JSON.stringify(s.slice(0, 40))).join(", ")}. ` : "Give at least one scope. "}Scopes: ${Object.keys(API_SCOPES).join(", ")}.`,
    });
  }
  const key = `pk_${randomBytes(32).toString("base64url")}`;
  const db = await getDb();
  const row = await db
    .insertInto("api_keys")
    .values({
      business_id: businessId,
      name: trimmed,
      key_prefix: key.slice(0, PREFIX_LENGTH),
      key_hash: sha256Hex(key),
      scopes: [...new Set(scopes)],
    })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    key,
    name: trimmed,
    prefix: key.slice(0, PREFIX_LENGTH),
    scopes: [...new Set(scopes)],
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
}

/** Revokes a key of this business (by id or its display prefix). True when it was live. */
export async function revokeApiKey(businessId: string, keyIdOrPrefix: string): Promise<boolean> {
  const db = await getDb();
  const byId = UUID.test(keyIdOrPrefix);
  const result = await db
    .updateTable("api_keys")
    .set({ revoked_at: clockNow() })
    .where("business_id", "=", businessId)
    .where(byId ? "id" : "key_prefix", "=", keyIdOrPrefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listApiKeys(businessId: string): Promise<ApiKeyInfo[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("api_keys")
    .select(["id", "name", "key_prefix", "scopes", "created_at", "last_used_at", "revoked_at"])
    .where("business_id", "=", businessId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    scopes: row.scopes,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
    revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
  }));
}

export type ApiCaller = { keyId: string; businessId: string; scopes: ApiScope[] };

export type Authentication =
  | { ok: true; caller: ApiCaller }
  /** missing: no bearer credentials at all; invalid: a key that is malformed, unknown or revoked. */
  | { ok: false; reason: "missing" | "invalid" };

/**
 * Who is calling: the `Authorization: Bearer pk_…` key, looked up by its SHA-256 (an index
 * hit; nothing about the key is compared character by character). A revoked key is refused
 * like an unknown one. One statement per call, and a write at most once a minute per key.
 */
export async function authenticate(request: Request, now = clockNow()): Promise<Authentication> {
  const header = request.headers.get("authorization");
  if (!header) return { ok: false, reason: "missing" };
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return { ok: false, reason: header.trim() === "" ? "missing" : "invalid" };
  const key = match[1]!;
  if (!KEY_PATTERN.test(key)) return { ok: false, reason: "invalid" };
  const db = await getDb();
  const row = await db
    .selectFrom("api_keys")
    .select(["id", "business_id", "scopes", "last_used_at", "revoked_at"])
    .where("key_hash", "=", sha256Hex(key))
    .executeTakeFirst();
  if (!row || row.revoked_at) return { ok: false, reason: "invalid" };
  if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > LAST_USED_PRECISION_MS) {
    await db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", row.id).execute();
  }
  return { ok: true, caller: { keyId: row.id, businessId: row.business_id, scopes: row.scopes.filter(isApiScope) } };
}
