import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { sql } from "kysely";
import type { SessionData } from "../platform/db-schema.server";
import { getDb } from "../platform/database.server";
import { getEnv } from "../platform/env.server";
import { isSecureRequest } from "../platform/request-context.server";
import { recordLogToken } from "../platform/request-log.server";

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

function sessionCookie(request: Request) {
  // The cookie holds a random id only; it is signed so that garbage is refused before a
  // query. Cookies are per host, so one tenant's session never reaches another's host.
  return createCookie("portal_session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: isSecureRequest(request),
    maxAge: SESSION_MAX_AGE_SECONDS,
    secrets: [getEnv().SESSION_SECRET],
  });
}

export const hashId = (value: string) => createHash("sha256").update(value).digest("hex");

async function readSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("cookie");
  if (!header || !header.includes("portal_session=")) return null;
  const value: unknown = await sessionCookie(request).parse(header);
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** Is there a session cookie at all (valid or not)? Tells "expired" from "never signed in". */
export function hasSessionCookie(request: Request) {
  return (request.headers.get("cookie") ?? "").includes("portal_session=");
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
    .where("sessions.expires_at", ">", new Date())
    .executeTakeFirst();
  if (!row || row.disabled_at) return null;
  recordLogToken(request, row.log_token);
  if (Date.now() - new Date(row.last_seen_at).getTime() > LAST_SEEN_RESOLUTION_MS) {
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

export function clearSessionCookie(request: Request): Promise<string> {
  return sessionCookie(request).serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Ends every session of a contact, except (optionally) the one in use. */
export async function destroyOtherSessions(businessId: string, contactId: string, keepIdHash?: string) {
  const db = await getDb();
  let query = db.deleteFrom("sessions").where("business_id", "=", businessId).where("contact_id", "=", contactId);
  if (keepIdHash) query = query.where("id_hash", "!=", keepIdHash);
  await query.execute();
}

/** Merges into the session's data (selectedAccount, invoicePagination, language). */
export async function updateSessionData(session: PortalSession, patch: Partial<SessionData>) {
  const next: SessionData = { ...session.data, ...patch };
  for (const key of Object.keys(next) as (keyof SessionData)[]) if (next[key] === undefined) delete next[key];
  const db = await getDb();
  await db
    .updateTable("sessions")
    .set({ data: JSON.stringify(next) })
    .where("id_hash", "=", session.idHash)
    .execute();
  session.data = next;
}

/** The spec §4 redirect for a page that needs a session. */
export function signInRedirect(request: Request, options: { error?: string; headers?: HeadersInit } = {}) {
  const url = new URL(request.url);
  const params = new URLSearchParams({ callbackUrl: `${url.pathname}${url.search}` });
  if (options.error) params.set("error", options.error);
  return redirect(`/auth/signin?${params}`, { headers: options.headers });
}
