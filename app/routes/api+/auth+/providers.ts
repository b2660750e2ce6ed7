import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  AUTH0_CALLBACK_PATH,
  auth0StrategyFor,
  requireHostBranding,
  apiJson,
  methodNotAllowed,
  requestOrigin,
} from "./auth-api.server";

/**
 * GET /api/auth/providers (spec §7): how this host signs in, keyed by provider id, in the shape
 * of NextAuth's REST API the spec came from. A credentials host lists `credentials`, whose
 * answer goes to the sign-in form's POST; an Auth0 host lists `auth0` when its secret is
 * configured (otherwise nothing: sign-in is not possible there, and /api/auth/signin/auth0 says
 * so). Public, like /api/auth/config.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  const origin = requestOrigin(request);
  const provider = (id: string, name: string, type: string, callbackPath: string) => ({
    [id]: { id, name, type, signinUrl: `${origin}/api/auth/signin/${id}`, callbackUrl: `${origin}${callbackPath}` },
  });
  if (branding.authProvider === "credentials") {
    return apiJson(provider("credentials", "Credentials", "credentials", "/auth/signin"));
  }
  if (!auth0StrategyFor(branding, request)) return apiJson({});
  return apiJson(provider("auth0", "Auth0", "oauth", AUTH0_CALLBACK_PATH));
}

export function action() {
  return methodNotAllowed(["GET"]);
}
