import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  auth0StrategyFor,
  callbackCookie,
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
  try {
    await strategy.authenticate(new Request(request.url, { headers: request.headers }));
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", await callbackCookie(request).serialize(callbackUrl));
      return new Response(null, { status: thrown.status, headers });
    }
    throw redirect("/error?error=OAuthSignin");
  }
  throw redirect("/error?error=OAuthSignin");
}

export function loader() {
  return redirect("/auth/signin");
}
