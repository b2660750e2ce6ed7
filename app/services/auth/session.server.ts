import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { sql } from "kysely";
import type { SessionData } from "../platform/db-schema.server";
import { getDb } from "../platform/database.server";
import { getEnv } from "../platform/env.server";
import { isSecureRequest } from "../platform/request-context.server";
import { recordLogToken } from "../platform/request-log.server";
import { perRequest } from "../platform/request-scope.server";

/** Spec §9: the session lives 30 days (2,592,000 s). */
export const SESSION_MAX_AGE_SECONDS = 2_592_000;
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export type Contact = {
  id: string;
  businessId: string;
  email: string;
  firstName: string;
  lastName: string;
  position: string;
  verified: boolean;
  permissions: string[];
};

export type PortalSession = {
  idHash: string;
  businessId: string;
  authMethod: "credentials" | "auth0";
  logToken: string;
  data: SessionData;
  expiresAt: Date;
  contact: Contact;
};

/**
 * The session cookie's name depends on the scheme: over https it carries the `__Host-`
 * prefix (the browser then insists on Secure, Path=/ and no Domain, so no sibling subdomain
 * can set or shadow it); over plain http (development, tests) browsers refuse that prefix.
 * Over https the plain name is never read: a sibling subdomain could plant one (signed with
 * its owner's own session id, since the signature covers the value and not the name) and sign
 * a signed-out visitor in as someone else. See decision 024.
 */
export const SESSION_COOKIE = "portal_session";
export const SECURE_SESSION_COOKIE = "__Host-portal_session";

function cookieNames(request: Request): string[] {
  return isSecureRequest(request) ? [SECURE_SESSION_COOKIE] : [SESSION_COOKIE];
}

function sessionCookie(request: Request, name = cookieNames(request)[0]!) {
  // The cookie holds a random id only; it is signed so that garbage is refused before a
  // query. Cookies are per host, so one tenant's session never reaches another's host.
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: name === SECURE_SESSION_COOKIE || isSecureRequest(request),
    maxAge: SESSION_MAX_AGE_SECONDS,
    secrets: [getEnv().SESSION_SECRET],
  });
}

export const hashId = (value: string) => createHash("sha256").update(value).digest("hex");

/** The names of this request's cookies (values are not parsed). */
function presentCookieNames(request: Request): Set<string> {
  const names = new Set<string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const name = part.split("=", 1)[0]!.trim();
    if (name) names.add(name);
  }
  return names;
}

/** The session cookie this request carries, by the first name (of this scheme's) present. */
function presentSessionCookieName(request: Request): string | null {
  const present = presentCookieNames(request);
  return cookieNames(request).find((name) => present.has(name)) ?? null;
}

async function readSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("cookie");
  if (!header) return null;
  const present = presentCookieNames(request);
  for (const name of cookieNames(request)) {
    if (!present.has(name)) continue;
    const value: unknown = await sessionCookie(request, name)
      .parse(header)
      .catch(() => null);
    if (typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return null;
}

/** Is there a session cookie at all (valid or not)? Tells "expired" from "never signed in". */
export function hasSessionCookie(request: Request) {
  return presentSessionCookieName(request) !== null;
}

/**
 * The signed-in session for this host, or null. One query: session and contact together.
 * A session created on another business's host is never accepted here.
 */
export async function getSession(request: Request, businessId: string): Promise<PortalSession | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const idHash = hashId(id);
  const db = await getDb();
  const row = await db
    .selectFrom("sessions")
    .innerJoin("contacts", "contacts.id", "sessions.contact_id")
    .select([
      "sessions.id_hash",
      "sessions.business_id",
      "sessions.auth_method",
      "sessions.log_token",
      "sessions.data",
      "sessions.expires_at",
      "sessions.last_seen_at",
      "contacts.id as contactId",
      "contacts.email",
      "contacts.first_name",
      "contacts.last_name",
      "contacts.position",
      "contacts.verified_at",
      "contacts.permissions",
      "contacts.disabled_at",
    ])
    .where("sessions.id_hash", "=", idHash)
    .where("sessions.business_id", "=", businessId)
    .where("contacts.business_id", "=", businessId)
    // eslint-disable-next-line no-restricted-syntax -- a session's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
    .where("sessions.expires_at", ">", new Date())
    .executeTakeFirst();
  if (!row || row.disabled_at) return null;
  recordLogToken(request, row.log_token);
  // eslint-disable-next-line no-restricted-syntax -- session bookkeeping stays on the same real clock as its expiry (test-clock.server.ts)
  if (Date.now() - new Date(row.last_seen_at).getTime() > LAST_SEEN_RESOLUTION_MS) {
    // eslint-disable-next-line no-restricted-syntax -- session bookkeeping stays on the same real clock as its expiry (test-clock.server.ts)
    await db.updateTable("sessions").set({ last_seen_at: new Date() }).where("id_hash", "=", idHash).execute();
  }
  return {
    idHash,
    businessId: row.business_id,
    authMethod: row.auth_method,
    logToken: row.log_token,
    data: (row.data ?? {}) as SessionData,
    expiresAt: new Date(row.expires_at),
    contact: {
      id: row.contactId,
      businessId,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      position: row.position,
      verified: row.verified_at !== null,
      permissions: row.permissions,
    },
  };
}

/**
 * `getSession`, looked up once per request and business: the host's brand (a host admin's
 * preview, requireHostBranding) and the page context (getPageContext) share one query.
 */
export function getRequestSession(request: Request, businessId: string): Promise<PortalSession | null> {
  return perRequest(request, `session ${businessId}`, () => getSession(request, businessId));
}

/**
 * Starts a session: a brand-new random id every sign-in (no fixation), stored hashed.
 * Returns the Set-Cookie header value.
 */
export async function createSession(
  request: Request,
  input: { businessId: string; contactId: string; authMethod: "credentials" | "auth0"; data?: SessionData },
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  const db = await getDb();
  // The session this browser had before (if any) ends: one sign-in, one live session.
  const previous = await readSessionId(request);
  if (previous) await db.deleteFrom("sessions").where("id_hash", "=", hashId(previous)).execute();
  // Expired rows are cleared opportunistically; nothing else needs them.
  await db
    .deleteFrom("sessions")
    .where("expires_at", "<", sql<Date>`now() - interval '1 day'`)
    .execute();
  await db
    .insertInto("sessions")
    .values({
      id_hash: hashId(id),
      business_id: input.businessId,
      contact_id: input.contactId,
      auth_method: input.authMethod,
      log_token: randomBytes(9).toString("base64url"),
      data: JSON.stringify(input.data ?? {}),
      // eslint-disable-next-line no-restricted-syntax -- a session's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
      expires_at: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
      user_agent: (request.headers.get("user-agent") ?? "").slice(0, 512),
    })
    .execute();
  return sessionCookie(request).serialize(id);
}

/** Ends the session for real (the row goes) and returns the cookie-clearing header. */
export async function destroySession(request: Request, session: PortalSession | null): Promise<string> {
  const id = await readSessionId(request);
  const db = await getDb();
  if (session) await db.deleteFrom("sessions").where("id_hash", "=", session.idHash).execute();
  else if (id) await db.deleteFrom("sessions").where("id_hash", "=", hashId(id)).execute();
  return clearSessionCookie(request);
}

/** Clears the session cookie this request carries (by its name), else this scheme's. */
export function clearSessionCookie(request: Request): Promise<string> {
  const name = presentSessionCookieName(request) ?? undefined;
  return sessionCookie(request, name).serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Ends every session of a contact, except (optionally) the one in use. */
export async function destroyOtherSessions(businessId: string, contactId: string, keepIdHash?: string) {
  const db = await getDb();
  let query = db.deleteFrom("sessions").where("business_id", "=", businessId).where("contact_id", "=", contactId);
  if (keepIdHash) query = query.where("id_hash", "!=", keepIdHash);
  await query.execute();
}

/**
 * Merges into the session's data (selectedAccount, invoicePagination, language, brandPreview); a
 * key patched to `undefined` is removed. Merged in the database, key by key: another request of
 * the same session may have written other keys since this one read them, and writing back this
 * request's whole copy would undo them (a host admin's brand preview, started in one request, was
 * lost to another that saved only the selected account).
 */
export async function updateSessionData(session: PortalSession, patch: Partial<SessionData>) {
  const next: SessionData = { ...session.data, ...patch };
  for (const key of Object.keys(next) as (keyof SessionData)[]) if (next[key] === undefined) delete next[key];
  const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const removed = Object.keys(patch).filter((key) => patch[key as keyof SessionData] === undefined);
  let data = sql<string>`data || ${JSON.stringify(set)}::jsonb`;
  for (const key of removed) data = sql<string>`(${data}) - ${key}::text`;
  const db = await getDb();
  await db.updateTable("sessions").set({ data }).where("id_hash", "=", session.idHash).execute();
  session.data = next;
}

/** The spec §4 redirect for a page that needs a session. */
export function signInRedirect(request: Request, options: { error?: string; headers?: HeadersInit } = {}) {
  const url = new URL(request.url);
  const params = new URLSearchParams({ callbackUrl: `${url.pathname}${url.search}` });
  if (options.error) params.set("error", options.error);
  return redirect(`/auth/signin?${params}`, { headers: options.headers });
}
