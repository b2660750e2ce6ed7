import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  auth0StrategyFor,
  beginAuth0,
  getPageContext,
  readForm,
  requestOrigin,
  requireSameOrigin,
} from "./auth-pages.server";

/**
 * Starts the Auth0 round trip (a POST, so another site cannot start a sign-in for the
 * user): state and PKCE verifier go into a 900 s cookie, the browser to the provider.
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  const strategy = auth0StrategyFor(branding, request);
  if (!strategy) throw redirect("/error?error=Configuration");
  const form = await readForm(request);
  const callbackUrl = safeSameOriginPath(String(form.get("callbackUrl") ?? "/"), requestOrigin(request), "/");
  const started = await beginAuth0(request, strategy, callbackUrl);
  if (!started) throw redirect("/error?error=OAuthSignin");
  const headers = new Headers({ Location: started.location });
  for (const cookie of started.cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: started.status, headers });
}

export function loader() {
  return redirect("/auth/signin");
}
