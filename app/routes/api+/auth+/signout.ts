import type { ActionFunctionArgs } from "@remix-run/node";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  getPageContext,
  csrfTokenMatches,
  signOut,
  SignOutBodySchema,
  apiError,
  apiJson,
  methodNotAllowed,
  readApiBody,
  requestOrigin,
  requireSameOrigin,
} from "./auth-api.server";

/**
 * POST /api/auth/signout {csrfToken, callbackUrl?} (spec §7), JSON or form body: ends this
 * browser's session and answers {url}, where the browser goes next (the same-origin
 * callbackUrl, else the sign-in page; the provider's logout for an Auth0 session). Refused from
 * another origin (decision 009); with a session, the token of GET /api/auth/csrf must match
 * (decision 025). Signed out, there is nothing to end: the cookie is cleared all the same.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  requireSameOrigin(request);
  const context = await getPageContext(request);
  // Never refused for its shape: a field of another shape reads as absent (SignOutBodySchema).
  const body = SignOutBodySchema.parse(await readApiBody(request));
  if (context.session && !csrfTokenMatches(context.session, body.csrfToken)) {
    return apiError(403, "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.");
  }
  const origin = requestOrigin(request);
  const next = safeSameOriginPath(body.callbackUrl ?? null, origin, "/auth/signin");
  const { cookie, url } = await signOut(request, context, next);
  return apiJson({ url: url.startsWith("/") ? `${origin}${url}` : url }, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
