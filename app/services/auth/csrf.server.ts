import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "../platform/env.server";
import type { PortalSession } from "./session.server";

/**
 * The `csrfToken` of GET /api/auth/csrf (spec §7; decision 025). Every state-changing request is
 * already refused from another origin (decision 009); this token is a second, double-submit check
 * for the JSON sign-out, tied to one session: derived from the session id's hash with
 * SESSION_SECRET, so nothing is stored, it changes at every sign-in and dies with the session.
 * Signed out there is nothing to protect, and no token.
 */
export function csrfTokenFor(session: PortalSession): string {
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`csrf:${session.idHash}`).digest("base64url");
}

/** Does `candidate` equal the session's token? Constant time; any non-string is false. */
export function csrfTokenMatches(session: PortalSession, candidate: unknown): boolean {
  if (typeof candidate !== "string" || candidate.length > 128) return false;
  const expected = Buffer.from(csrfTokenFor(session));
  const given = Buffer.from(candidate);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
