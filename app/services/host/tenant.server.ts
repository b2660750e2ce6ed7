import { data } from "@remix-run/node";
import { getDb } from "../platform/database.server";
import { getEnv } from "../platform/env.server";
import { controlCharactersInAddress, urlHasControlCharacters } from "../platform/http.server";
import { findHostBranding, hostnameFromRequest, type HostBranding } from "./host.server";
import { logger } from "../platform/logger.server";
import { perRequest } from "../platform/request-scope.server";

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
    branding = await perRequest(request, `host-branding ${hostname}`, async () =>
      findHostBranding(await getDb(), hostname),
    );
  } catch (error) {
    logger.error("host lookup failed", { hostname, error });
    throw serviceUnavailable();
  }
  if (!branding) throw unknownHost();
  return branding;
}
