/**
 * Signing in, for the sign-in page and the sign-in API alike (spec §4, §7; decision 092): the same strategy
 * checks the password (remix-auth's form strategy, its locks and rate limits in `verifyCredentials`), and
 * the same steps follow a success. The API's answer is the spec's sign-in result, `{error, status, ok, url}`.
 */
import { signInErrorKey } from "~/lib/auth-errors";
import { translator } from "~/lib/i18n/catalog";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import type { HostBranding } from "../host/host.server";
import { audit } from "../platform/audit.server";
import { apiJson, readApiBody } from "../platform/http.server";
import { clientAddress, isCrossOrigin, requestOrigin } from "../platform/request-context.server";
import { auth0StrategyFor, authenticatorFor, callbackCookie, getPageContext, SignInError } from "./auth.server";
import { createSession, type Contact } from "./session.server";

/** What follows a good password (or a provider's answer): a new session, the audit line, where to go next. */
export async function finishSignIn(
  branding: HostBranding,
  request: Request,
  contact: Contact,
  callbackPath: string,
): Promise<{ cookie: string; next: string }> {
  const cookie = await createSession(request, {
    businessId: branding.businessId,
    contactId: contact.id,
    authMethod: "credentials",
  });
  await audit({
    businessId: branding.businessId,
    contactId: contact.id,
    action: "signed in",
    clientIp: clientAddress(request),
  });
  // An unconfirmed email is confirmed before anything else (spec §4 step 5).
  return { cookie, next: contact.verified ? callbackPath : "/auth/verify" };
}

/**
 * Starts the Auth0 round trip: state and PKCE verifier go into the strategy's 900 s cookie, where to come back
 * to into ours. Null when the strategy did not answer with the provider's address.
 */
export async function beginAuth0(
  request: Request,
  strategy: NonNullable<ReturnType<typeof auth0StrategyFor>>,
  callbackPath: string,
): Promise<{ location: string; cookies: string[]; status: number } | null> {
  try {
    await strategy.authenticate(new Request(request.url, { headers: request.headers }));
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      const location = thrown.headers.get("location");
      if (!location) return null;
      const cookies = [...thrown.headers.getSetCookie(), await callbackCookie(request).serialize(callbackPath)];
      return { location, cookies, status: thrown.status };
    }
    return null;
  }
  return null;
}

// ——— The sign-in API's result ———

const english = translator("en-AU");

type ResultInit = { status: number; error: string | null; url: string | null; message: string; headers?: Headers };

/** The spec's sign-in result, with a sentence a person can read beside the code. */
function signInResult({ status, error, url, message, headers }: ResultInit): Response {
  const response = apiJson({ error, status, ok: status >= 200 && status < 300, url, message }, { status });
  headers?.forEach((value, name) => {
    if (name.toLowerCase() !== "set-cookie") response.headers.set(name, value);
  });
  for (const cookie of headers?.getSetCookie() ?? []) response.headers.append("Set-Cookie", cookie);
  return response;
}

function refusal(status: number, error: string, url: string | null = null, message?: string) {
  return signInResult({ status, error, url, message: message ?? english(signInErrorKey(error)!) });
}

const absolute = (request: Request, path: string) => new URL(path, requestOrigin(request)).href;

/** The methods the sign-in API answers: GET is the browser's way to the page, POST signs in. */
export const SIGN_IN_METHODS = ["GET", "POST"];

function wrongMethod() {
  const response = refusal(405, "MethodNotAllowed", null, "Method not allowed: use GET or POST.");
  response.headers.set("Allow", SIGN_IN_METHODS.join(", "));
  return response;
}

type SignInBody = { email: string; password: string; callbackPath: string };

/**
 * The body (JSON or a form, at most 16 KB) and where to go after: refusals come back as results. A field of
 * another type reads as empty, as a form would send it; an unsafe `callbackUrl` is refused before any attempt
 * is counted (spec §8's INVALID_CALLBACK_URL_ERROR).
 */
async function readSignInBody(request: Request): Promise<SignInBody | Response> {
  let body: Record<string, unknown>;
  try {
    body = await readApiBody(request);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const problem = (await thrown.json()) as { message?: string };
    return refusal(thrown.status, "InvalidRequest", null, problem.message ?? "The request body could not be read.");
  }
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const raw = text(body.callbackUrl) || new URL(request.url).searchParams.get("callbackUrl") || "/";
  const callbackPath = safeSameOriginPath(raw, requestOrigin(request), "");
  if (!callbackPath) return refusal(400, "INVALID_CALLBACK_URL_ERROR");
  return { email: text(body.email).slice(0, 254), password: text(body.password).slice(0, 1024), callbackPath };
}

/** The provider this host signs in with; another one is "unknown" here. */
const hostProvider = (branding: HostBranding) => (branding.authProvider === "auth0" ? "auth0" : "credentials");

/**
 * POST /api/auth/signin and /api/auth/signin/<provider>: the spec's sign-in result. Credentials sign in with
 * the page's rules; this host's Auth0 answers the provider's address to go to; a provider this host does not
 * use answers the sign-in page's address (spec §8), and one it cannot load the error page's.
 */
export async function signInApi(request: Request, provider = "credentials"): Promise<Response> {
  if (request.method !== "POST") return wrongMethod();
  if (isCrossOrigin(request)) {
    return refusal(
      403,
      "CrossOrigin",
      null,
      "This request came from another site and was refused. Nothing was changed.",
    );
  }
  const { branding } = await getPageContext(request);
  const body = await readSignInBody(request);
  if (body instanceof Response) return body;
  const signInPage = absolute(request, `/auth/signin?callbackUrl=${encodeURIComponent(body.callbackPath)}`);
  if (provider !== hostProvider(branding)) {
    return refusal(404, "UnknownProvider", signInPage, `This portal does not sign in with "${provider.slice(0, 40)}".`);
  }
  if (provider === "auth0") {
    const strategy = auth0StrategyFor(branding, request);
    const started = strategy ? await beginAuth0(request, strategy, body.callbackPath) : null;
    if (!started)
      return refusal(503, strategy ? "OAuthSignin" : "Configuration", absolute(request, "/error?error=Configuration"));
    const headers = new Headers();
    for (const cookie of started.cookies) headers.append("Set-Cookie", cookie);
    return signInResult({
      status: 200,
      error: null,
      url: started.location,
      message: "Go to the provider to sign in.",
      headers,
    });
  }
  return credentialsSignIn(branding, request, body);
}

async function credentialsSignIn(branding: HostBranding, request: Request, body: SignInBody): Promise<Response> {
  // The page's own strategy reads a form: the same fields, as the page would post them.
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.delete("content-length");
  const form = new URLSearchParams({ email: body.email, password: body.password });
  const formRequest = new Request(request.url, { method: "POST", headers, body: form });
  let contact: Contact;
  try {
    contact = await authenticatorFor(branding, formRequest).authenticate("form", formRequest);
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    return refusal(error.code === "RateLimited" ? 429 : 401, error.code);
  }
  const { cookie, next } = await finishSignIn(branding, request, contact, body.callbackPath);
  const answer = new Headers({ "Set-Cookie": cookie });
  return signInResult({
    status: 200,
    error: null,
    url: absolute(request, next),
    message: "Signed in.",
    headers: answer,
  });
}
