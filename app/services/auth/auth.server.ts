import { createCookie, data, redirect } from "@remix-run/node";
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import { Authenticator } from "remix-auth";
import { Auth0Strategy } from "remix-auth-auth0";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import { hasPortalAccess, isAuthRoute, routeAccess } from "./access.server";
import { audit } from "../platform/audit.server";
import { problemBody } from "../platform/problems.server";
import { getDb } from "../platform/database.server";
import { getEnv } from "../platform/env.server";
import type { HostBranding } from "../host/host.server";
import { verifyPassword } from "./password.server";
import {
  clearLimits,
  consume,
  isKnownSignInAddress,
  refund,
  rememberSignInAddress,
  signInAccountKey,
  signInLimits,
  signInPairKey,
} from "../platform/rate-limit.server";
import { clientAddress, isOwnSiteRequest, isSecureRequest, requestOrigin } from "../platform/request-context.server";
import { perRequest } from "../platform/request-scope.server";
import {
  clearSessionCookie,
  destroySession,
  getRequestSession,
  hasSessionCookie,
  signInRedirect,
  type Contact,
  type PortalSession,
} from "./session.server";
import { requireHostBranding } from "../host/tenant.server";

/** A sign-in that did not work, with the spec §8-style code the sign-in page explains. */
export class SignInError extends Error {
  constructor(public readonly code: string) {
    super(code);
    this.name = "SignInError";
  }
}

export type SignedInContact = Contact & { authMethod: "credentials" | "auth0" };

const SignInFormSchema = z.object({
  email: z.string().trim().toLowerCase().min(3).max(254).email(),
  password: z.string().min(1).max(1024),
});

async function findContactByEmail(businessId: string, email: string) {
  const db = await getDb();
  return db
    .selectFrom("contacts")
    .selectAll()
    .where("business_id", "=", businessId)
    .where("email", "=", email)
    .executeTakeFirst();
}

type ContactRow = NonNullable<Awaited<ReturnType<typeof findContactByEmail>>>;

function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    businessId: row.business_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    position: row.position,
    verified: row.verified_at !== null,
    permissions: row.permissions,
  };
}

/** Email + password against the business's own contacts (argon2id), rate limited. */
export async function verifyCredentials(branding: HostBranding, form: FormData, request: Request): Promise<Contact> {
  const parsed = SignInFormSchema.safeParse({ email: form.get("email"), password: form.get("password") });
  const ip = clientAddress(request);
  const email = parsed.success ? parsed.data.email : null;
  // An address this account signed in from before is not held by the per-account ceiling
  // (decision 024): a guesser spread over many addresses cannot lock the owner out.
  const knownAddress = email ? await isKnownSignInAddress(branding.businessId, email, ip) : false;
  const limits = signInLimits(email, ip, { knownAddress });
  // Counted before the (slow) password check, so parallel guesses cannot slip past.
  if (!(await consume(branding.businessId, limits))) {
    throw new SignInError("RateLimited");
  }
  const row = email ? await findContactByEmail(branding.businessId, email) : undefined;
  // Always verify against some hash, so unknown emails cost the same time as known ones.
  const ok = parsed.success && (await verifyPassword(parsed.data.password, row?.password_hash ?? null));
  if (!ok || !row) {
    await audit({ businessId: branding.businessId, contactId: row?.id, action: "sign-in failed", clientIp: ip });
    throw new SignInError("CredentialsSignin");
  }
  if (row.disabled_at) throw new SignInError("Disabled");
  // A success clears this account's counters and gives the address its attempt back.
  await clearLimits(branding.businessId, [signInAccountKey(row.email), signInPairKey(row.email, ip)]);
  await rememberSignInAddress(branding.businessId, row.id, ip);
  await refund(
    branding.businessId,
    limits.filter((l) => l.key.startsWith("signin:ip:")),
  );
  return toContact(row);
}

// Spec §9: remote key set fetched with a 5,000 ms time-out, 30,000 ms cooldown, 600,000 ms cache.
const keySets = new Map<string, JWTVerifyGetKey>();
function keySetFor(domain: string) {
  let keySet = keySets.get(domain);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(`https://${domain}/.well-known/jwks.json`), {
      timeoutDuration: 5_000,
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
    });
    keySets.set(domain, keySet);
  }
  return keySet;
}

/** Checks an Auth0 id token for real: signature (key set), issuer, audience, expiry ±15 s. */
export async function verifyIdToken(
  idToken: string,
  domain: string,
  clientId: string,
  keySet: JWTVerifyGetKey = keySetFor(domain),
) {
  try {
    const { payload } = await jwtVerify(idToken, keySet, {
      issuer: `https://${domain}/`,
      audience: clientId,
      clockTolerance: 15,
      algorithms: ["RS256"],
      requiredClaims: ["exp", "iat", "sub"],
    });
    return payload;
  } catch {
    throw new SignInError("TokenInvalid");
  }
}

/** The portal contact for an Auth0 user: by subject, or by verified email on first sign-in (then linked). */
async function contactForIdentity(
  branding: HostBranding,
  claims: { sub?: string; email?: unknown; email_verified?: unknown },
) {
  const db = await getDb();
  if (!claims.sub) throw new SignInError("TokenInvalid");
  let row = await db
    .selectFrom("contacts")
    .selectAll()
    .where("business_id", "=", branding.businessId)
    .where("external_subject", "=", claims.sub)
    .executeTakeFirst();
  if (!row && typeof claims.email === "string" && claims.email_verified === true) {
    // First sign-in: link by email only to a contact the business itself has verified and
    // not disabled, and only once (a conditional update: two racing sign-ins cannot both link).
    const byEmail = await findContactByEmail(branding.businessId, claims.email.toLowerCase());
    if (byEmail && byEmail.external_subject === null && byEmail.verified_at !== null && !byEmail.disabled_at) {
      const linked = await db
        .updateTable("contacts")
        .set({ external_subject: claims.sub })
        .where("id", "=", byEmail.id)
        .where("external_subject", "is", null)
        .executeTakeFirst();
      if (Number(linked.numUpdatedRows) === 1) {
        row = { ...byEmail, external_subject: claims.sub };
        await audit({
          businessId: branding.businessId,
          contactId: byEmail.id,
          action: "identity linked",
          details: { subject: claims.sub },
        });
      }
    }
  }
  if (!row) throw new SignInError("NoContact");
  if (row.disabled_at) throw new SignInError("Disabled");
  return toContact(row);
}

export const AUTH0_CALLBACK_PATH = "/api/auth/callback/auth0";

/** The host's Auth0 strategy, or null when the host is not set up for Auth0 (or lacks its secret). */
export function auth0StrategyFor(branding: HostBranding, request: Request) {
  if (branding.authProvider !== "auth0" || !branding.auth0Domain || !branding.auth0ClientId) return null;
  const clientSecret = getEnv().AUTH0_CLIENT_SECRETS[branding.auth0ClientId];
  if (!clientSecret) return null;
  const domain = branding.auth0Domain;
  const clientId = branding.auth0ClientId;
  return new Auth0Strategy<Contact>(
    {
      domain,
      clientId,
      clientSecret,
      redirectURI: `${requestOrigin(request)}${AUTH0_CALLBACK_PATH}`,
      scopes: ["openid", "profile", "email"],
      // Spec §9: the PKCE and state cookie lives 900 s.
      cookie: {
        name: "portal_auth0",
        maxAge: 900,
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        ...(isSecureRequest(request) ? { secure: true as const } : {}),
      },
    },
    async ({ tokens }) => {
      const claims = await verifyIdToken(tokens.idToken(), domain, clientId);
      return contactForIdentity(branding, claims);
    },
  );
}

/** One authenticator per request, with this host's strategies. */
export function authenticatorFor(branding: HostBranding, request: Request) {
  const authenticator = new Authenticator<Contact>();
  authenticator.use(
    new FormStrategy<Contact>(({ form, request: formRequest }) => verifyCredentials(branding, form, formRequest)),
    "form",
  );
  const auth0 = auth0StrategyFor(branding, request);
  if (auth0) authenticator.use(auth0, "auth0");
  return authenticator;
}

export type PageContext = {
  branding: HostBranding;
  session: PortalSession | null;
};

/**
 * The host and the session (if any), for any page. The root loader and the route's loader
 * both ask; within one request they share a single lookup (request-scope.server.ts).
 */
export function getPageContext(request: Request): Promise<PageContext> {
  return perRequest(request, "page-context", async () => {
    const branding = await requireHostBranding(request);
    const session = await getRequestSession(request, branding.businessId);
    return { branding, session };
  });
}

/**
 * Sends a visitor without a valid session to sign-in, with `callbackUrl` back here. A
 * cookie whose session is gone (expired, signed out elsewhere, password changed) is
 * cleared and the page says the session ended.
 */
export async function requireSession(request: Request): Promise<PageContext & { session: PortalSession }> {
  const context = await getPageContext(request);
  if (context.session) return { ...context, session: context.session };
  if (hasSessionCookie(request)) {
    throw signInRedirect(request, {
      error: "SessionExpired",
      headers: { "Set-Cookie": await clearSessionCookie(request) },
    });
  }
  throw signInRedirect(request, { error: "SessionRequired" });
}

export function pageNotFound() {
  return data({ reason: "no-access" }, { status: 404 });
}

/**
 * Spec §4 step 7 for the current path: public routes need nothing; customer-style routes
 * need a session; all others also need a verified contact with accessCustomerPortal,
 * else the page-not-found screen (404).
 */
export async function requirePageAccess(request: Request): Promise<PageContext> {
  const pathname = new URL(request.url).pathname;
  const access = routeAccess(pathname);
  if (access === "public") return getPageContext(request);
  const context = await requireSession(request);
  if (access === "portal" && !hasPortalAccess(context.session.contact)) throw pageNotFound();
  return context;
}

/** Spec §4 step 6: a verified user on an auth route goes home (or to a safe callback). */
export function redirectIfSignedIn(request: Request, session: PortalSession | null, to = "/") {
  const pathname = new URL(request.url).pathname;
  if (session?.contact.verified && isAuthRoute(pathname)) throw redirect(to);
}

/** For /api/* calls: the session, or a 401 JSON answer (clearing a dead cookie unless told not to). */
export async function requireApiSession(
  request: Request,
  options: { clearCookieOn401?: boolean } = {},
): Promise<PageContext & { session: PortalSession }> {
  const context = await getPageContext(request);
  if (context.session) return { ...context, session: context.session };
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (options.clearCookieOn401 !== false && hasSessionCookie(request)) {
    headers["Set-Cookie"] = await clearSessionCookie(request);
  }
  throw Response.json(problemBody(401, "Sign in to use this call."), { status: 401, headers });
}

/** Where to go after the provider sends the user back; lives as long as the PKCE cookie (900 s). */
export function callbackCookie(request: Request) {
  return createCookie("portal_callback", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 900,
    secure: isSecureRequest(request),
  });
}

/**
 * For the account-scoped JSON API: a session (else 401) of a verified contact with
 * accessCustomerPortal (else 404, as for pages: nothing is revealed).
 */
export async function requireApiPortalAccess(request: Request) {
  const context = await requireApiSession(request);
  const { session } = context;
  if (!hasPortalAccess(session.contact)) {
    if (session.data.portalWithdrawn) throw await portalWithdrawn(request, session);
    throw Response.json(problemBody(404, "Not found"), { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  return context;
}

/**
 * Decision 093 (spec §8: a 403 signs the user out): the contact's portal access was taken away while this
 * session was open. The answer is a 403 `access_withdrawn`; the session ends with it only when the request
 * shows it came from this site's own pages (its Origin, or Sec-Fetch-Site same-origin or none), so another
 * site can never sign anyone out by sending them here. A request that does not show it leaves the session as
 * it is: each of its account-scoped calls keeps answering this 403.
 */
async function portalWithdrawn(request: Request, session: PortalSession): Promise<Response> {
  const ends = isOwnSiteRequest(request);
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (ends) headers["Set-Cookie"] = await destroySession(request, session);
  const message = ends
    ? "Your access to this portal was withdrawn, so you have been signed out. Ask the business if you think this is a mistake."
    : "Your access to this portal was withdrawn. Ask the business if you think this is a mistake.";
  return Response.json(problemBody(403, message, { code: "access_withdrawn" }), { status: 403, headers });
}

/** The names of the Auth0 strategy's state cookies on this request (portal_auth0:<uuid>). */
export function stateCookieNames(request: Request): string[] {
  const header = request.headers.get("cookie") ?? "";
  const names = new Set<string>();
  for (const part of header.split(";")) {
    const name = part.split("=")[0]?.trim() ?? "";
    if (/^portal_auth0(:[0-9a-f-]{36})?$/i.test(name)) names.add(name);
  }
  return [...names].slice(0, 20);
}
