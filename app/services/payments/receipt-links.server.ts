import { createHmac, timingSafeEqual } from "node:crypto";
import { UUID } from "~/lib/ids";
import { now } from "../platform/clock.server";
import { getEnv } from "../platform/env.server";
import { base64urlToUuid, uuidToBase64url } from "../platform/compact-ids.server";

/**
 * The signed link in a receipt email (issue 31; decision 076): `/customer/receipt/<token>` opens
 * that one receipt without a session, and nothing else.
 *
 * Signed, not stored, as the preference links are (decision 039): every receipt email carries one,
 * it opens a record that can never change hands (one payment of one business), and a row per email
 * would grow with every receipt for a link that is never revoked. The token is
 *
 *   <payment id, 16 bytes base64url>.<expires at, seconds base 36>.<MAC>
 *
 * where MAC is HMAC-SHA256 over ("receipt-link v1", business id, payment id, expires at), cut to 128
 * bits (NIST SP 800-107 §5.3.4), with a key derived from SESSION_SECRET for this use alone. The
 * business is in the MAC, not in the token: the host names it, so another host's receipt link never
 * checks out there. The MAC is compared in constant time. Expiry is judged on the portal's clock
 * (`now()`, decision 068), as the preference links' is, so tests move it instead of waiting.
 */

/** 90 days: the quarter a receipt is reconciled and reported in (a BAS quarter), and no more. */
export const RECEIPT_LINK_DAYS = 90;
const DAY_S = 86_400;
const MAC_BYTES = 16;
/** Every token is about 53 characters; anything longer is refused before any work. */
export const MAX_RECEIPT_TOKEN_LENGTH = 64;
const TOKEN = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

function receiptLinkKey(): Buffer {
  return createHmac("sha256", getEnv().SESSION_SECRET).update("receipt-link key v1").digest();
}

function mac(businessId: string, paymentId: string, expires: string): Buffer {
  return createHmac("sha256", receiptLinkKey())
    .update(["receipt-link v1", businessId.toLowerCase(), paymentId.toLowerCase(), expires].join("\n"))
    .digest()
    .subarray(0, MAC_BYTES);
}

/** A receipt link's token for one payment of one business, good for RECEIPT_LINK_DAYS from now. */
export function signReceiptLink(businessId: string, paymentId: string, options: { issuedAt?: Date } = {}): string {
  if (!UUID.test(businessId) || !UUID.test(paymentId)) throw new Error("signReceiptLink: ids must be UUIDs");
  const issued = Math.floor((options.issuedAt ?? now()).getTime() / 1000);
  const expires = (issued + RECEIPT_LINK_DAYS * DAY_S).toString(36);
  return `${uuidToBase64url(paymentId)}.${expires}.${mac(businessId, paymentId, expires).toString("base64url")}`;
}

/** The receipt page's path for a token. */
export const receiptLinkPath = (token: string) => `/customer/receipt/${token}`;

/** Could this be a receipt token at all? A cheap check made before anything else is done. */
export function receiptTokenShape(token: unknown): token is string {
  return typeof token === "string" && token.length <= MAX_RECEIPT_TOKEN_LENGTH && TOKEN.test(token);
}

/**
 * The payment a token opens for this business, or null. Anything that does not check out —
 * malformed, too long, tampered in any part, another business's, expired, or signed for longer
 * than a receipt link lives — is the same null: the page says one thing for all of them.
 */
export function checkReceiptLink(businessId: string, token: unknown, options: { at?: Date } = {}): string | null {
  if (!receiptTokenShape(token) || !UUID.test(businessId)) return null;
  const [, paymentPart, expiresPart, macPart] = TOKEN.exec(token) as unknown as [string, string, string, string];
  const paymentId = base64urlToUuid(paymentPart);
  const given = Buffer.from(macPart, "base64url");
  if (!paymentId || given.length !== MAC_BYTES || given.toString("base64url") !== macPart) return null;
  if (!timingSafeEqual(given, mac(businessId, paymentId, expiresPart))) return null;
  const expires = parseInt(expiresPart, 36);
  // Only the canonical spelling (no leading zeros): the MAC covers the text, not the number.
  if (!Number.isSafeInteger(expires) || expires.toString(36) !== expiresPart) return null;
  const at = Math.floor((options.at ?? now()).getTime() / 1000);
  if (expires <= at || expires - at > RECEIPT_LINK_DAYS * DAY_S) return null;
  return paymentId;
}
