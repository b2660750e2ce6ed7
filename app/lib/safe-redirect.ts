/**
 * Turns an untrusted redirect target (callbackUrl, redirectTo, Referer) into a path on
 * our own origin, or the fallback. Rejects other origins, protocol-relative `//host`,
 * backslash tricks (`/\host`), schemes such as `javascript:`, control characters and
 * encoded variants of these, by resolving with URL and comparing origins.
 */
export function safeSameOriginPath(target: string | null | undefined, origin: string, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2048) return fallback;
  // Control characters and whitespace are never part of a path we produced.
  if (/[\u0000-\u001f\u007f\s]/.test(target)) return fallback;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return fallback;
  }
  // A relative value must be an absolute path; "//" and "/\" would leave the origin.
  for (const candidate of [target, decoded]) {
    if (candidate.startsWith("//") || candidate.startsWith("/\\") || candidate.includes("\\")) return fallback;
  }
  let base: URL;
  let resolved: URL;
  try {
    base = new URL(origin);
    resolved = new URL(target, base);
  } catch {
    return fallback;
  }
  if (resolved.origin !== base.origin) return fallback;
  if (!/^https?:$/.test(resolved.protocol)) return fallback;
  // Absolute URLs to our own origin are allowed only in their path form.
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : fallback;
}
