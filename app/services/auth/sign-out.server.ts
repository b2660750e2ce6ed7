import { z } from "zod";
import type { HostBranding } from "../host/host.server";
import { audit } from "../platform/audit.server";
import { clientAddress, requestOrigin } from "../platform/request-context.server";
import { destroySession, type PortalSession } from "./session.server";

/**
 * Ends this browser's session (spec §4): the row goes, and with it selectedAccount and
 * invoicePagination. Returns the cookie that clears it and where the browser goes next: for
 * an Auth0 session the provider's logout, which returns to this host's origin; otherwise
 * `next` (a same-origin path the caller has checked).
 */
export async function signOut(
  request: Request,
  context: { branding: HostBranding; session: PortalSession | null },
  next: string,
): Promise<{ cookie: string; url: string }> {
  const { branding, session } = context;
  const cookie = await destroySession(request, session);
  if (session) {
    await audit({
      businessId: branding.businessId,
      contactId: session.contact.id,
      action: "signed out",
      clientIp: clientAddress(request),
    });
  }
  if (session?.authMethod === "auth0" && branding.auth0Domain && branding.auth0ClientId) {
    const logout = new URL(`https://${branding.auth0Domain}/v2/logout`);
    logout.searchParams.set("client_id", branding.auth0ClientId);
    logout.searchParams.set("returnTo", requestOrigin(request));
    return { cookie, url: logout.toString() };
  }
  return { cookie, url: next };
}

/**
 * The body of POST /api/auth/signout {csrfToken, callbackUrl?} (spec §7). Other fields are
 * ignored, and so is a value of another shape: a csrfToken that is not text of at most 128
 * characters matches no session's (csrfTokenMatches), and a callbackUrl that is not text of at
 * most 2,048 characters (safeSameOriginPath's bound) leads to the sign-in page, as when absent.
 */
export const SignOutBodySchema = z.object({
  csrfToken: z.string().max(128).optional().catch(undefined),
  callbackUrl: z.string().max(2048).optional().catch(undefined),
});
