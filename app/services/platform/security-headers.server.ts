import { isLinkPagePath } from "~/lib/link-paths";
import { isSecureRequest } from "./request-context.server";

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
    "Referrer-Policy": isLinkPagePath(new URL(request.url).pathname)
      ? "strict-origin"
      : "strict-origin-when-cross-origin",
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
