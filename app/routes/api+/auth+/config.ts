import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed, requireHostBranding } from "./auth-api.server";

/** GET /api/auth/config (spec §7): how this host signs in. Public: it is on the sign-in page anyway. */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  return apiJson({
    authProvider: branding.authProvider,
    auth0:
      branding.authProvider === "auth0" ? { domain: branding.auth0Domain, clientId: branding.auth0ClientId } : null,
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
