import { getEnv } from "./env.server";
import { lastForwardedValue } from "./forwarded.server";
import { logger } from "./logger.server";
import { problemBody } from "./problems.server";
import { CROSS_ORIGIN_MARKER } from "./request-guard.server";
import { CLIENT_ADDRESS_HEADER } from "./request-log.server";

/**
 * The client's address. Behind a trusted proxy (TRUST_PROXY=true) it is the address the
 * proxy appended last to X-Forwarded-For; otherwise the TCP peer, recorded by the server.
 * Never from an outside IP-lookup service.
 */
export function clientAddress(request: Request): string {
  if (getEnv().TRUST_PROXY) {
    const last = lastForwardedValue(request.headers.get("x-forwarded-for"));
    if (last && last.length <= 64) return last;
  } else if (!warnedAboutProxy && request.headers.has("x-forwarded-for")) {
    // Behind a proxy with TRUST_PROXY off, every client has the proxy's address: one sign-in
    // limit for everybody, and that address "known" for every account. Said once per process
    // (anyone may send the header, so it is a hint, never acted on).
    warnedAboutProxy = true;
    logger.warn(
      "X-Forwarded-For arrived but TRUST_PROXY is off: behind a proxy you control, set TRUST_PROXY=true, or every client shares the proxy's address",
    );
  }
  const peer = request.headers.get(CLIENT_ADDRESS_HEADER);
  return peer && peer.length <= 64 ? peer : "unknown";
}

let warnedAboutProxy = false;

export function resetProxyWarningForTesting() {
  warnedAboutProxy = false;
}

/**
 * The origin the browser is talking to (scheme + host), as the tenant sees it. Behind a trusted
 * proxy, the scheme and host it wrote: the right-most values (decision 024), as for the address.
 */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const trust = getEnv().TRUST_PROXY;
  const proto =
    (trust && lastForwardedValue(request.headers.get("x-forwarded-proto"))) || url.protocol.replace(":", "");
  const host =
    (trust && lastForwardedValue(request.headers.get("x-forwarded-host"))) || request.headers.get("host") || url.host;
  return `${proto === "https" ? "https" : "http"}://${host.toLowerCase()}`;
}

export function isSecureRequest(request: Request): boolean {
  return requestOrigin(request).startsWith("https:");
}

/**
 * Cross-site request refusal for every state-changing request (ASVS 4.2.2). Tenants are
 * sibling subdomains, so SameSite=Lax cookies alone do not stop one tenant's page from
 * posting to another: the Origin must be this very host. Browsers send Origin on every
 * POST; a request with neither Origin nor Sec-Fetch-Site comes from a non-browser client,
 * which holds no victim's cookies.
 */
export function isCrossOrigin(request: Request): boolean {
  if (request.headers.get(CROSS_ORIGIN_MARKER) === "1") return true;
  const origin = request.headers.get("origin");
  if (origin !== null) return origin.toLowerCase() !== requestOrigin(request);
  const site = request.headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none";
}

/**
 * Does the request show that it came from this site's own pages? Its Origin is this host, or the browser says
 * so (Sec-Fetch-Site same-origin, or none: the person typed or bookmarked the address). A request showing
 * neither proves nothing — a non-browser client, or an older browser following another site's link — so an
 * answer that would end the session on the user's behalf is kept for requests that show it (decision 093).
 */
export function isOwnSiteRequest(request: Request): boolean {
  if (request.headers.get(CROSS_ORIGIN_MARKER) === "1") return false;
  const origin = request.headers.get("origin");
  if (origin !== null) return origin.toLowerCase() === requestOrigin(request);
  const site = request.headers.get("sec-fetch-site");
  return site === "same-origin" || site === "none";
}

export function forbiddenCrossOrigin(): Response {
  return Response.json(
    problemBody(403, "This request came from another site and was refused. Nothing was changed.", {
      code: "cross_origin",
    }),
    { status: 403, headers: { "Cache-Control": "no-store" } },
  );
}

/** Throws a 403 for a cross-site state-changing request; every action starts here. */
export function requireSameOrigin(request: Request) {
  if (request.method !== "GET" && request.method !== "HEAD" && isCrossOrigin(request)) {
    throw forbiddenCrossOrigin();
  }
}
