import { isLinkPagePath } from "~/lib/link-paths";
import { isSecureRequest } from "./request-context.server";

/**
 * Every page may show account data (or, signed out, a form): no copy may be kept, so that
 * after signing out, Back re-requests the page (and meets sign-in) instead of showing saved
 * cards from the browser's cache. Set centrally, so no route can forget it.
 */
export const DOCUMENT_CACHE_CONTROL = "private, no-store";

/** A page opened by an emailed link carries its token in its path (decision 031). */
function referrerPolicy(request: Request) {
  return isLinkPagePath(new URL(request.url).pathname) ? "strict-origin" : "strict-origin-when-cross-origin";
}

/**
 * Headers for every HTML document: a nonce-based Content-Security-Policy (only our own
 * scripts run), no framing by other sites, no MIME sniffing, and a referrer policy that
 * never sends paths (which may carry payment-request tokens) to other origins.
 */
export function securityHeaders(
  request: Request,
  nonce: string,
  options: { formActionOrigins?: string[]; thirdPartyOrigins?: string[]; styleSources?: string[] } = {},
): Record<string, string> {
  // A form that signs in or out through the host's identity provider is redirected there;
  // CSP's form-action covers that redirect, so the provider's origin is allowed too.
  const formAction = [
    "'self'",
    ...(options.formActionOrigins ?? []).filter((o) => /^https:\/\/[a-z0-9.:-]+$/i.test(o)),
  ];
  const third = (options.thirdPartyOrigins ?? []).filter((o) => /^https:\/\/[a-z0-9.-]+$/i.test(o));
  const extra = third.length ? ` ${third.join(" ")}` : "";
  // The inline stylesheet's hash (decision 049), so the same text is allowed if the browser's React inserts it again.
  const styleHashes = (options.styleSources ?? []).filter((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s));
  const styles = styleHashes.length ? ` ${styleHashes.join(" ")}` : "";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${extra}`,
    `style-src 'self' 'nonce-${nonce}'${styles}${extra}`,
    `img-src 'self' data:${extra}`,
    "font-src 'self'",
    `connect-src 'self'${extra}`,
    `form-action ${formAction.join(" ")}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    // A page opened by an emailed link carries its token in its path: a Referer of the origin
    // only, to every destination (decision 031; not no-referrer, which nulls its own form's Origin).
    "Referrer-Policy": referrerPolicy(request),
    "X-Frame-Options": "SAMEORIGIN",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  // Behind a TLS-terminating proxy (TRUST_PROXY=true) the scheme is the proxy's
  // X-Forwarded-Proto, as for cookies.
  if (isSecureRequest(request)) {
    headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  }
  return headers;
}

/**
 * Headers for every single-fetch (`.data`) answer, set by entry.server's `handleDataRequest`:
 * they carry the same account data as documents, so the same no-store, no MIME sniffing (a
 * `text/x-script` body must never run as a script: issue 28), the same referrer policy (a link
 * page's data URL carries its token) and, over https, HSTS. No CSP: nothing in them is rendered.
 */
export function dataRequestHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {
    "Cache-Control": DOCUMENT_CACHE_CONTROL,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": referrerPolicy(request),
  };
  if (isSecureRequest(request)) {
    headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  }
  return headers;
}

/** entry.server's `handleDataRequest`: the headers above on a `.data` answer (fresh headers, never shared). */
export function withDataRequestHeaders(response: Response, request: Request): Response {
  for (const [name, value] of Object.entries(dataRequestHeaders(request))) response.headers.set(name, value);
  return response;
}
