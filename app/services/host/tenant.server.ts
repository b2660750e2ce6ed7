import { data } from "@remix-run/node";
import { getDb } from "../platform/database.server";
import { getEnv } from "../platform/env.server";
import { controlCharactersInAddress, urlHasControlCharacters } from "../platform/http.server";
import { findHostBranding, hostnameFromRequest, type HostBranding } from "./host.server";
import { logger } from "../platform/logger.server";
import { perRequest } from "../platform/request-scope.server";
import { isHostAdmin } from "../auth/access.server";
import { getRequestSession, hasSessionCookie } from "../auth/session.server";
import { findBrandVersionLook } from "../branding/brands.server";
import type { Db } from "../platform/db.server";

/** Why a page could not be served for this host; read by the shared error boundary. */
export type ShellErrorReason = "unknown-host" | "unavailable";

export function unknownHost() {
  return data({ reason: "unknown-host" satisfies ShellErrorReason }, { status: 404 });
}

export function serviceUnavailable() {
  return data({ reason: "unavailable" satisfies ShellErrorReason }, { status: 503, headers: { "Retry-After": "30" } });
}

/**
 * The business behind this request's host, or a thrown 404 (unknown host: never another
 * business's brand) or 503 (database unreachable). Every page loader starts here.
 */
export async function requireHostBranding(request: Request): Promise<HostBranding> {
  // U+0000 and friends in the query string never reach a query (decision 024).
  const url = new URL(request.url);
  if (urlHasControlCharacters(url)) throw controlCharactersInAddress(url);
  const hostname = hostnameFromRequest(request, { trustProxy: getEnv().TRUST_PROXY });
  if (!hostname) throw unknownHost();
  let branding: HostBranding | null;
  try {
    // Several loaders of one page ask; they share one lookup (request-scope.server.ts).
    branding = await perRequest(request, `host-branding ${hostname}`, async () => {
      const db = await getDb();
      const published = await findHostBranding(db, hostname);
      return published ? withPreview(request, db, published) : null;
    });
  } catch (error) {
    logger.error("host lookup failed", { hostname, error });
    throw serviceUnavailable();
  }
  if (!branding) throw unknownHost();
  return branding;
}

/**
 * A host admin previewing a draft brand (issue 16) sees it on every page: when this request's
 * session (of this business: sessions never cross hosts) names a version in `brandPreview`, its
 * contact is a verified, enabled host admin, and the version is one of this business's, the brand
 * fields are the version's and `preview` is set. Anyone else, and every request without a session
 * cookie, gets the published brand; so do emails, the back office and bootstrap, which never come
 * here (findHostBranding, findBusinessBranding). The session is the one the page context reads
 * (getRequestSession), so a signed-in page costs no extra query unless it previews. Documents are
 * `private, no-store` already (entry.server.tsx), so no cache keeps a preview.
 */
async function withPreview(request: Request, db: Db, branding: HostBranding): Promise<HostBranding> {
  // Only pages being read: an action (a payment, a password reset) may send email built from this
  // brand, and a draft must never reach anyone but the admin. A no-JS post's own answer shows the
  // published brand; the page it leads to (GET) shows the draft again.
  if (request.method !== "GET" && request.method !== "HEAD") return branding;
  if (!hasSessionCookie(request)) return branding;
  const session = await getRequestSession(request, branding.businessId);
  const versionId = session?.data.brandPreview;
  if (!session || typeof versionId !== "string" || !session.contact.verified || !isHostAdmin(session.contact)) {
    return branding;
  }
  const look = await findBrandVersionLook(db, branding.businessId, versionId);
  return look ? { ...branding, ...look, preview: { versionId } } : branding;
}
