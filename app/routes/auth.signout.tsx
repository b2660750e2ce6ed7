import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { audit } from "~/services/platform/audit.server";
import { getPageContext } from "~/services/auth/auth.server";
import { clientAddress, requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
import { destroySession } from "~/services/auth/session.server";

/**
 * Sign-out (spec §4): the session row goes, and with it selectedAccount and
 * invoicePagination. With Auth0 the browser continues to the provider's logout, which
 * returns to this host's origin.
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await getPageContext(request);
  const cookie = await destroySession(request, session);
  if (session) {
    await audit({
      businessId: branding.businessId,
      contactId: session.contact.id,
      action: "signed out",
      clientIp: clientAddress(request),
    });
  }
  const headers = { "Set-Cookie": cookie };
  if (session?.authMethod === "auth0" && branding.auth0Domain && branding.auth0ClientId) {
    const logout = new URL(`https://${branding.auth0Domain}/v2/logout`);
    logout.searchParams.set("client_id", branding.auth0ClientId);
    logout.searchParams.set("returnTo", requestOrigin(request));
    return redirect(logout.toString(), { headers });
  }
  return redirect("/auth/signin", { headers });
}

export function loader() {
  return redirect("/");
}
