import { createHmac, timingSafeEqual } from "node:crypto";
import { isPreferenceTopic, type PreferenceTopic } from "~/lib/communication";
import { now } from "../platform/clock.server";
import { getEnv } from "../platform/env.server";
import { UUID } from "~/lib/ids";
import { base64urlToUuid, uuidToBase64url } from "../platform/compact-ids.server";

/**
 * The signed links in every email to a contact (issue 17; decision 039): one opens the contact's
 * preferences (`/communication/<token>`), one unsubscribes them from the email's topic
 * (`/communication/unsubscribe?token=<token>`, the RFC 8058 `List-Unsubscribe` target).
 *
 * Signed, not stored: every email carries one, so a row per email (link_tokens) would grow with
 * every message sent, for links that only ever change one contact's own preferences, each change
 * recorded with how it was made. The token is
 *
 *   <contact id, 16 bytes base64url>.<purpose>.<issued at, seconds base 36>.<MAC>
 *
 * where MAC is HMAC-SHA256 over ("communication-link v1", business id, contact id, purpose, issued
 * at), cut to 128 bits (NIST SP 800-107 §5.3.4 allows it), with a key of its own
 * (COMMUNICATION_LINK_SECRET, else derived from SESSION_SECRET). The business is in the MAC and
 * not in the token: the host names it, so another host's link never checks out there. The MAC is
 * compared in constant time. A link lasts LINK_LIFETIME_DAYS: Spam Act 2003 s 18 wants an
 * unsubscribe facility to work for at least 30 days after the message, and people unsubscribe
 * from old mail (a statement from last year); longer than that, the link only ever reaches one
 * contact's preferences, so the risk of a long life is small and every change is on record.
 */
export type LinkPurpose = { kind: "preferences" } | { kind: "unsubscribe"; topic: PreferenceTopic };

/** 400 days: a year of statements, and more than the Spam Act's 30. */
export const LINK_LIFETIME_DAYS = 400;
const DAY_S = 86_400;
/** Clocks of several portal processes disagree a little: a link "from the future" by less is fine. */
const CLOCK_SKEW_S = 300;
const MAC_BYTES = 16;
const TOKEN = /^([A-Za-z0-9_-]{22})\.(prefs|unsub-[a-z]{1,20})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;
const MAX_TOKEN_LENGTH = 120;

function purposeName(purpose: LinkPurpose) {
  return purpose.kind === "preferences" ? "prefs" : `unsub-${purpose.topic}`;
}

function purposeOf(name: string): LinkPurpose | null {
  if (name === "prefs") return { kind: "preferences" };
  const topic = name.slice("unsub-".length);
  return name.startsWith("unsub-") && isPreferenceTopic(topic) ? { kind: "unsubscribe", topic } : null;
}

/** The link key: its own secret, else one derived from SESSION_SECRET (as PayTo's webhook key is). */
export function linkKey(): Buffer {
  return linkKeyFrom(getEnv());
}

/** `linkKey` for given secrets (the benchmark's seed signs links for the server it is about to start). */
export function linkKeyFrom(secrets: { COMMUNICATION_LINK_SECRET?: string; SESSION_SECRET: string }): Buffer {
  const secret =
    secrets.COMMUNICATION_LINK_SECRET ??
    createHmac("sha256", secrets.SESSION_SECRET).update("communication-links").digest("base64url");
  return createHmac("sha256", secret).update("communication-link key v1").digest();
}

function mac(key: Buffer, businessId: string, contactId: string, purpose: string, issued: string): Buffer {
  return createHmac("sha256", key)
    .update(["communication-link v1", businessId.toLowerCase(), contactId.toLowerCase(), purpose, issued].join("\n"))
    .digest()
    .subarray(0, MAC_BYTES);
}

/** A signed link token for one contact of one business and one purpose. */
export function signLink(
  businessId: string,
  contactId: string,
  purpose: LinkPurpose,
  options: { issuedAt?: Date; key?: Buffer } = {},
): string {
  if (!UUID.test(businessId) || !UUID.test(contactId)) throw new Error("signLink: ids must be UUIDs");
  const issued = Math.floor((options.issuedAt ?? now()).getTime() / 1000).toString(36);
  const name = purposeName(purpose);
  const signature = mac(options.key ?? linkKey(), businessId, contactId, name, issued).toString("base64url");
  return `${uuidToBase64url(contactId)}.${name}.${issued}.${signature}`;
}

export type CheckedLink = { ok: true; contactId: string; purpose: LinkPurpose; issuedAt: Date } | { ok: false };

/**
 * Checks a token for this business and the wanted kind of link. Anything that does not check out —
 * malformed, tampered in any part, another business's, another purpose's, expired, issued in the
 * future — is the same `{ ok: false }`: the page says one thing for all of them.
 */
export function checkLink(
  businessId: string,
  token: unknown,
  wanted: LinkPurpose["kind"],
  options: { at?: Date; key?: Buffer } = {},
): CheckedLink {
  const refused = { ok: false } as const;
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !UUID.test(businessId)) return refused;
  const match = TOKEN.exec(token);
  if (!match) return refused;
  const [, contactPart, purposePart, issuedPart, macPart] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  const contactId = base64urlToUuid(contactPart);
  const purpose = purposeOf(purposePart);
  const given = Buffer.from(macPart, "base64url");
  if (!contactId || !purpose || given.length !== MAC_BYTES || given.toString("base64url") !== macPart) return refused;
  const expected = mac(options.key ?? linkKey(), businessId, contactId, purposePart, issuedPart);
  if (!timingSafeEqual(given, expected)) return refused;
  if (purpose.kind !== wanted) return refused;
  const issuedSeconds = parseInt(issuedPart, 36);
  // Only the canonical spelling (no leading zeros): the MAC covers the text, not the number.
  if (!Number.isSafeInteger(issuedSeconds) || issuedSeconds.toString(36) !== issuedPart) return refused;
  const nowSeconds = Math.floor((options.at ?? now()).getTime() / 1000);
  if (issuedSeconds > nowSeconds + CLOCK_SKEW_S) return refused;
  if (nowSeconds - issuedSeconds > LINK_LIFETIME_DAYS * DAY_S) return refused;
  return { ok: true, contactId, purpose, issuedAt: new Date(issuedSeconds * 1000) };
}

/** The page of all the contact's preferences, opened by a signed link. */
export const preferencesLinkPath = (token: string) => `/communication/${token}`;

/** The one-click unsubscribe endpoint (RFC 8058) and its confirmation page. */
export const unsubscribeLinkPath = (token: string) => `/communication/unsubscribe?${new URLSearchParams({ token })}`;
