import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getPageContext, auth0StrategyFor, signInApi } from "./auth-api.server";

/**
 * GET /api/auth/signin/:provider (spec §8): a provider this host does not use goes to the
 * sign-in page; this host's provider that cannot be loaded (no client secret configured)
 * goes to the /error page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  const provider = params.provider;
  const hostProvider = branding.authProvider === "auth0" ? "auth0" : "credentials";
  if (provider !== hostProvider) return redirect("/auth/signin");
  if (provider === "auth0" && !auth0StrategyFor(branding, request)) return redirect("/error?error=Configuration");
  return redirect("/auth/signin");
}

/**
 * POST /api/auth/signin/:provider (decision 092): the sign-in result for this provider. `credentials` signs in
 * as POST /api/auth/signin does; this host's `auth0` answers the provider's address (its state cookies set);
 * a provider this host does not use answers 404 with the sign-in page's address, one it cannot load 503 with
 * the error page's (spec §8).
 */
export function action({ request, params }: ActionFunctionArgs) {
  return signInApi(request, (params.provider ?? "").slice(0, 100));
}
