import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { OAuth2RequestError } from "remix-auth-auth0";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  audit,
  auth0StrategyFor,
  callbackCookie,
  getPageContext,
  SignInError,
  stateCookieNames,
  logger,
  clientAddress,
  requestOrigin,
  createSession,
  methodNotAllowed,
} from "./auth-api.server";

/**
 * The provider sends the user back here (spec §2: the callback under the auth base).
 * The strategy checks state against the 900 s cookie, trades the code (with the PKCE
 * verifier) for tokens, and our verify step checks the id token before any session.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  const strategy = auth0StrategyFor(branding, request);
  if (!strategy) throw redirect("/error?error=Configuration");
  const target = safeSameOriginPath(
    await callbackCookie(request).parse(request.headers.get("cookie")),
    requestOrigin(request),
    "/",
  );
  const clearCallback = await callbackCookie(request).serialize("", { maxAge: 0 });
  // The strategy names its cookie portal_auth0:<uuid>, one per started sign-in: end them all,
  // so a used or abandoned state and verifier cannot be replayed.
  const stateCookies = stateCookieNames(request).map((name) => `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`);
  const failed = (code: string) => {
    const headers = new Headers();
    headers.append("Set-Cookie", clearCallback);
    for (const cookie of stateCookies) headers.append("Set-Cookie", cookie);
    return redirect(`/auth/signin?${new URLSearchParams({ error: code, callbackUrl: target })}`, { headers });
  };
  try {
    const contact = await strategy.authenticate(request);
    const headers = new Headers();
    headers.append(
      "Set-Cookie",
      await createSession(request, { businessId: branding.businessId, contactId: contact.id, authMethod: "auth0" }),
    );
    headers.append("Set-Cookie", clearCallback);
    for (const cookie of stateCookies) headers.append("Set-Cookie", cookie);
    await audit({
      businessId: branding.businessId,
      contactId: contact.id,
      action: "signed in",
      clientIp: clientAddress(request),
      details: { via: "auth0" },
    });
    return redirect(contact.verified ? target : "/auth/verify", { headers });
  } catch (error) {
    if (error instanceof SignInError) return failed(error.code);
    if (error instanceof OAuth2RequestError) {
      // The user cancelled at the provider, or the provider refused.
      return failed(error.code === "access_denied" ? "AccessDenied" : "OAuthCallback");
    }
    logger.warn("auth0 callback failed", { error: error instanceof Error ? error.message : String(error) });
    return failed("OAuthCallback");
  }
}

/** The provider comes back with a GET; any other method is a JSON 405. */
export function action() {
  return methodNotAllowed(["GET"]);
}
