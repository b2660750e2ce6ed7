/**
 * The value our own proxy wrote in an `X-Forwarded-*` header (TRUST_PROXY=true; decision 024,
 * "Forwarded headers: the right-most value"). A proxy that appends (`option forwardfor`, nginx's
 * `$proxy_add_x_forwarded_for`) puts its value after whatever the client sent, so only the last
 * comma-separated entry is the proxy's; one that sets the header leaves a single value, which is
 * also the last. Null when the header is absent or its last entry is empty (then the caller
 * falls back to what the connection itself says). Node joins repeated headers with ", ", so a
 * repeated header is read the same way.
 */
export function lastForwardedValue(raw: string | string[] | null | undefined): string | null {
  const joined = Array.isArray(raw) ? raw.join(",") : raw;
  if (typeof joined !== "string") return null;
  const last = joined.slice(joined.lastIndexOf(",") + 1).trim();
  return last === "" ? null : last;
}
