import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { sql } from "kysely";
import { contactMayActFor } from "../accounts/accounts.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { isSecureRequest } from "../platform/request-context.server";

/**
 * Links that stand in for a session (ARCHITECTURE "Links that stand in for a session";
 * decision 031).
 *
 * A link token is a 16-character selector followed by a 43-character verifier, both
 * base64url: 96 + 256 random bits from the CSPRNG. The table keeps the selector and a SHA-256
 * of the verifier, never the token. A lookup finds the row by selector within this business
 * (another host's link is simply not found), then compares the verifier's hash in constant
 * time; a miss compares against a dummy so that "no such selector" and "wrong verifier" take
 * the same work. Opening a link never spends it (mail scanners open links): it only counts.
 */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{59}$/;
const SELECTOR_LENGTH = 16;

export type LinkPurpose =
  | "payment-request"
  | "invoice"
  | "adhoc"
  | "payment-schedule"
  | "agreement"
  // A response request (issue 17; decision 040): the contact answers at /response/<token>.
  | "response";

export type LinkToken = {
  id: string;
  businessId: string;
  purpose: string;
  subjectId: string;
  contactId: string;
  expiresAt: Date;
  revokedAt: Date | null;
};

/**
 * valid: the link may be used. expired / revoked: the holder has the real link (the verifier
 * matched), so the page may say what became of it. unknown: anything else (malformed, other
 * host, other purpose, guessed, tampered) — one answer, no hint whether it ever existed.
 */
export type LinkCheck =
  | { status: "valid"; link: LinkToken }
  | { status: "expired"; link: LinkToken }
  | { status: "revoked"; link: LinkToken }
  | { status: "unknown" };

const sha256 = (text: string) => createHash("sha256").update(text).digest();
const DUMMY_HASH = sha256("no link has this verifier");

/**
 * A new link secret: the token (given out once), and what a table keeps of it (the selector and
 * the SHA-256 of the verifier). For links kept outside link_tokens — a trade referee is not a
 * contact (issue 17) — with the same format, so logs redact it the same way.
 */
export function mintLinkSecret(): { token: string; selector: string; verifierHash: string } {
  const selector = randomBytes(12).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  return { token: selector + verifier, selector, verifierHash: sha256(verifier).toString("hex") };
}

/** A token split for lookup: its selector ("" when malformed, which finds nothing). */
export function linkSelectorOf(token: unknown): string {
  return typeof token === "string" && LINK_TOKEN_PATTERN.test(token) ? token.slice(0, SELECTOR_LENGTH) : "";
}

/**
 * Whether `token` matches a stored verifier hash (null: no row was found). Always does the same
 * constant-time work, so "no such selector" and "wrong verifier" cannot be told apart by timing.
 */
export function linkSecretMatches(token: unknown, verifierHash: string | null | undefined): boolean {
  const wellFormed = typeof token === "string" && LINK_TOKEN_PATTERN.test(token);
  const verifier = wellFormed ? token.slice(SELECTOR_LENGTH) : "";
  const expected = verifierHash ? Buffer.from(verifierHash, "hex") : DUMMY_HASH;
  const matches = expected.length === 32 && timingSafeEqual(expected, sha256(verifier));
  return wellFormed && !!verifierHash && matches;
}

/** A new token for one record and one contact of one business. The token is returned once. */
export async function createLinkToken(
  db: Db,
  input: { businessId: string; purpose: LinkPurpose; subjectId: string; contactId: string; expiresAt: Date },
): Promise<{ id: string; token: string }> {
  const selector = randomBytes(12).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  const row = await db
    .insertInto("link_tokens")
    .values({
      business_id: input.businessId,
      purpose: input.purpose,
      subject_id: input.subjectId,
      contact_id: input.contactId,
      selector,
      verifier_hash: sha256(verifier).toString("hex"),
      expires_at: input.expiresAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, token: selector + verifier };
}

/** Checks a token for this business and purpose. Never throws on input; one query. */
export async function checkLinkToken(
  businessId: string,
  purpose: LinkPurpose,
  token: unknown,
  // eslint-disable-next-line no-restricted-syntax -- Link tokens and the link payer's session are credentials: they keep the system's time (decision 068).
  now = new Date(),
): Promise<LinkCheck> {
  const wellFormed = typeof token === "string" && LINK_TOKEN_PATTERN.test(token);
  const selector = wellFormed ? token.slice(0, SELECTOR_LENGTH) : "";
  const verifier = wellFormed ? token.slice(SELECTOR_LENGTH) : "";
  const db = await getDb();
  // A malformed token still costs a lookup and a comparison: its answer takes as long as a guess.
  const row = await db
    .selectFrom("link_tokens")
    .select([
      "id",
      "business_id as businessId",
      "purpose",
      "subject_id as subjectId",
      "contact_id as contactId",
      "verifier_hash as verifierHash",
      "expires_at as expiresAt",
      "revoked_at as revokedAt",
    ])
    .where("selector", "=", selector)
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  const expected = row ? Buffer.from(row.verifierHash, "hex") : DUMMY_HASH;
  const matches = timingSafeEqual(expected, sha256(verifier));
  if (!row || !matches || !wellFormed || row.purpose !== purpose) return { status: "unknown" };
  const link: LinkToken = {
    id: row.id,
    businessId: row.businessId,
    purpose: row.purpose,
    subjectId: row.subjectId,
    contactId: row.contactId,
    expiresAt: new Date(row.expiresAt),
    revokedAt: row.revokedAt ? new Date(row.revokedAt) : null,
  };
  if (link.revokedAt) return { status: "revoked", link };
  if (link.expiresAt.getTime() <= now.getTime()) return { status: "expired", link };
  return { status: "valid", link };
}

/**
 * A link checked against its record (decision 031): the token as `checkLinkToken` sees it, then
 * the record it opens (`load`, by the link's subject), then its contact: a link whose contact may
 * no longer act for the record's account — removed from it, or disabled — is `withdrawn`, whatever
 * else became of it, and its holder learns nothing more. A record that is gone reads as `unknown`.
 * Every link page calls this in its loader and its action; any purpose whose record names an
 * account (a request, an invoice, an account itself for ad hoc) fits.
 */
export type LinkAccess<T> =
  { status: "unknown" } | { status: "valid" | "expired" | "revoked" | "withdrawn"; link: LinkToken; record: T };

export async function checkLinkAccess<T extends { accountId: string }>(
  businessId: string,
  purpose: LinkPurpose,
  token: unknown,
  load: (link: LinkToken) => Promise<T | null>,
  // eslint-disable-next-line no-restricted-syntax -- Link tokens and the link payer's session are credentials: they keep the system's time (decision 068).
  now = new Date(),
): Promise<LinkAccess<T>> {
  const check = await checkLinkToken(businessId, purpose, token, now);
  if (check.status === "unknown") return check;
  const record = await load(check.link);
  if (!record) return { status: "unknown" };
  const mayAct = await contactMayActFor(businessId, check.link.contactId, record.accountId);
  return { status: mayAct ? check.status : "withdrawn", link: check.link, record };
}

/**
 * Counts an opening (GET). The link stays usable: opening is not using. By business and id, as
 * every query of a business's rows is: a link id from elsewhere changes nothing here.
 */
export async function recordLinkOpened(businessId: string, linkId: string) {
  const db = await getDb();
  await db
    .updateTable("link_tokens")
    .set({
      first_opened_at: sql`coalesce(first_opened_at, now())`,
      last_opened_at: sql`now()`,
      open_count: sql`open_count + 1`,
    })
    .where("business_id", "=", businessId)
    .where("id", "=", linkId)
    .execute();
}

/** Revokes every live link to one record (cancel, resend). Returns how many were live. */
export async function revokeLinkTokens(
  db: Db,
  input: { businessId: string; purpose: LinkPurpose; subjectId: string; contactId?: string },
): Promise<number> {
  let query = db
    .updateTable("link_tokens")
    .set({ revoked_at: sql`now()` })
    .where("business_id", "=", input.businessId)
    .where("purpose", "=", input.purpose)
    .where("subject_id", "=", input.subjectId)
    .where("revoked_at", "is", null);
  if (input.contactId) query = query.where("contact_id", "=", input.contactId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The first characters of a token, for logs: enough to correlate, never enough to use. */
export function redactLinkToken(token: string): string {
  return `${token.slice(0, 6)}…`;
}

// ---------------------------------------------------------------------------------------------
// Link sessions: what a browser that paid from a link may open afterwards (its receipt).

const LINK_SESSION_COOKIE = "portal_link";
const SECURE_LINK_SESSION_COOKIE = "__Host-portal_link";
const LINK_SESSION_SECONDS = 24 * 60 * 60;

function linkCookie(request: Request) {
  const secure = isSecureRequest(request);
  return createCookie(secure ? SECURE_LINK_SESSION_COOKIE : LINK_SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    maxAge: LINK_SESSION_SECONDS,
    secrets: [getEnv().SESSION_SECRET],
  });
}

/**
 * What the cookie holds: the browser's random id and, since issue 31 (decision 076), the last link
 * this browser paid from — its id and its token — so that the receipt reached right after paying can
 * lead back to the link page to pay the rest. The table keeps only a hash of the token, so the way
 * back can only come from the browser that came from the link; the cookie is signed, httpOnly and
 * lasts a day, as the link session does. A cookie of the older form (the id alone) still reads.
 */
type LinkCookie = { id: string; last: { linkId: string; token: string } | null };

const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;
const LINK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function readLinkCookie(request: Request): Promise<LinkCookie | null> {
  const value: unknown = await linkCookie(request)
    .parse(request.headers.get("cookie"))
    .catch(() => null);
  if (typeof value === "string") return BROWSER_ID.test(value) ? { id: value, last: null } : null;
  if (!value || typeof value !== "object") return null;
  const { id, last } = value as { id?: unknown; last?: { linkId?: unknown; token?: unknown } | null };
  if (typeof id !== "string" || !BROWSER_ID.test(id)) return null;
  const remembered =
    last &&
    typeof last.linkId === "string" &&
    LINK_ID.test(last.linkId) &&
    typeof last.token === "string" &&
    LINK_TOKEN_PATTERN.test(last.token)
      ? { linkId: last.linkId, token: last.token }
      : null;
  return { id, last: remembered };
}

async function readLinkSessionId(request: Request): Promise<string | null> {
  return (await readLinkCookie(request))?.id ?? null;
}

/**
 * Remembers that this browser used a link (a payment was made from it). Returns the
 * Set-Cookie header (the same browser id when it already has one). With the link's `token`, the
 * browser also keeps it as the way back from that payment's receipt (`rememberedLinkToken`).
 */
export async function rememberLinkInBrowser(request: Request, link: LinkToken, token?: string): Promise<string> {
  const known = await readLinkCookie(request);
  const id = known?.id ?? randomBytes(32).toString("base64url");
  const db = await getDb();
  // Expired rows are cleared opportunistically (as sessions are when one starts), along
  // link_sessions_expiry_idx: nothing reads them again.
  await db
    .deleteFrom("link_sessions")
    .where("expires_at", "<=", sql<Date>`now()`)
    .execute();
  await db
    .insertInto("link_sessions")
    .values({
      id_hash: sha256(id).toString("hex"),
      business_id: link.businessId,
      link_token_id: link.id,
      // eslint-disable-next-line no-restricted-syntax -- Link tokens and the link payer's session are credentials: they keep the system's time (decision 068).
      expires_at: new Date(Date.now() + LINK_SESSION_SECONDS * 1000),
    })
    .onConflict((oc) =>
      oc.columns(["id_hash", "link_token_id"]).doUpdateSet({
        // eslint-disable-next-line no-restricted-syntax -- Link tokens and the link payer's session are credentials: they keep the system's time (decision 068).
        expires_at: new Date(Date.now() + LINK_SESSION_SECONDS * 1000),
      }),
    )
    .execute();
  const last =
    typeof token === "string" && LINK_TOKEN_PATTERN.test(token) ? { linkId: link.id, token } : (known?.last ?? null);
  return linkCookie(request).serialize({ id, last } satisfies LinkCookie);
}

/**
 * The token of the link a payment was made from, when this browser paid from it (its link session
 * holds the link) and kept it as its last link: the way back to the link page. Else null: the
 * token is stored only hashed, so no one else can be given it.
 */
export async function rememberedLinkToken(
  request: Request,
  businessId: string,
  linkTokenId: string,
): Promise<{ token: string; purpose: string } | null> {
  const cookie = await readLinkCookie(request);
  if (!cookie?.last || cookie.last.linkId !== linkTokenId) return null;
  if (!(await browserUsedLink(request, businessId, linkTokenId))) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("link_tokens")
    .select(["purpose", "selector"])
    .where("business_id", "=", businessId)
    .where("id", "=", linkTokenId)
    .executeTakeFirst();
  // The remembered token must be this link's own (its selector), not merely stored beside its id.
  if (!row || cookie.last.token.slice(0, SELECTOR_LENGTH) !== row.selector) return null;
  return { token: cookie.last.token, purpose: row.purpose };
}

/** Has this browser paid from the given link (within the last day, on this business's host)? */
export async function browserUsedLink(request: Request, businessId: string, linkTokenId: string) {
  const id = await readLinkSessionId(request);
  if (!id) return false;
  const db = await getDb();
  const row = await db
    .selectFrom("link_sessions")
    .select("link_token_id")
    .where("id_hash", "=", sha256(id).toString("hex"))
    .where("business_id", "=", businessId)
    .where("link_token_id", "=", linkTokenId)
    // eslint-disable-next-line no-restricted-syntax -- Link tokens and the link payer's session are credentials: they keep the system's time (decision 068).
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
  return row !== undefined;
}
