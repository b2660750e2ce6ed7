import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getPageContext, auth0StrategyFor } from "./auth-api.server";

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
