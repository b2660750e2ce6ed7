import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../../../db/seed/demo";
import { CLIENT_ADDRESS_HEADER } from "~/services/platform/request-log.server";
import { seededPgliteForTests } from "../../../../tests/support/test-db";
import * as session from "./session";
import * as signin from "./signin";
import * as provider from "./signin_.$provider";

/**
 * POST /api/auth/signin and /api/auth/signin/:provider (issue 35, decision 092): the spec's sign-in result
 * `{error, status, ok, url}`, under the sign-in page's rules (the same strategy, limits and lock), with the
 * session cookie on success and nothing counted or set for a request refused before the attempt.
 */
const database = seededPgliteForTests();
beforeEach(async () => {
  await database().db.deleteFrom("rate_limit_hits").execute();
  await database().db.deleteFrom("sign_in_addresses").execute();
});

type Result = { error: string | null; status: number; ok: boolean; url: string | null; message: string };

function post(
  body: unknown,
  options: { host?: string; path?: string; type?: string; address?: string; origin?: string | null } = {},
) {
  const host = options.host ?? "acme.localhost";
  const type = options.type ?? "application/json";
  const headers: Record<string, string> = {
    host,
    "content-type": type,
    [CLIENT_ADDRESS_HEADER]: options.address ?? "198.51.100.20",
  };
  if (options.origin !== null) headers.origin = options.origin ?? `http://${host}`;
  return new Request(`http://${host}${options.path ?? "/api/auth/signin"}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : type === "application/json" ? JSON.stringify(body) : String(body),
  });
}

async function signIn(body: unknown, options: Parameters<typeof post>[1] = {}) {
  const response = await signin.action({ request: post(body, options), params: {}, context: {} });
  return { response, result: (await response.json()) as Result };
}

async function sessionOf(cookie: string, host = "acme.localhost") {
  const request = new Request(`http://${host}/api/auth/session`, { headers: { host, cookie } });
  const response = await session.loader({ request, params: {}, context: {} });
  return (await response.json()) as { authenticated: boolean; user?: { email: string } };
}

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((cookie) => /^__Host-portal_session=|^portal_session=/.test(cookie))
    ?.split(";")[0];

const hits = async () => (await database().db.selectFrom("rate_limit_hits").select("key").execute()).length;

describe("POST /api/auth/signin: credentials", () => {
  it("signs in with JSON: ok, 200, the callback as an absolute URL, and a working session cookie", async () => {
    const { response, result } = await signIn({
      email: "Olivia@Coastal.example",
      password: DEMO_PASSWORD,
      callbackUrl: "/statements?from=2026-01-01",
    });
    expect(response.status).toBe(200);
    expect(result).toEqual({
      error: null,
      status: 200,
      ok: true,
      url: "http://acme.localhost/statements?from=2026-01-01",
      message: "Signed in.",
    });
    expect(response.headers.get("cache-control")).toBe("no-store");
    const cookie = sessionCookie(response);
    expect(cookie).toBeTruthy();
    expect(await sessionOf(cookie!)).toMatchObject({ authenticated: true, user: { email: "olivia@coastal.example" } });
  });

  it("signs in with a form body too, and without a callback goes home", async () => {
    const body = new URLSearchParams({ email: "olivia@coastal.example", password: DEMO_PASSWORD });
    const { result } = await signIn(body.toString(), { type: "application/x-www-form-urlencoded" });
    expect(result).toMatchObject({ ok: true, status: 200, error: null, url: "http://acme.localhost/" });
  });

  it("takes the callback from the query when the body has none", async () => {
    const { result } = await signIn(
      { email: "olivia@coastal.example", password: DEMO_PASSWORD },
      { path: "/api/auth/signin?callbackUrl=%2Fpayment-methods" },
    );
    expect(result.url).toBe("http://acme.localhost/payment-methods");
  });

  it("sends a contact whose email is not confirmed to confirm it first, as the page does", async () => {
    const { result } = await signIn({ email: "new@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/" });
    expect(result).toMatchObject({ ok: true, url: "http://acme.localhost/auth/verify" });
  });

  it("a wrong password and an unknown email answer the same 401, set no cookie and say nothing of who exists", async () => {
    const wrong = await signIn({ email: "olivia@coastal.example", password: "not-it" });
    const unknown = await signIn({ email: "nobody@coastal.example", password: "not-it" });
    for (const { response, result } of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(result).toEqual({
        error: "CredentialsSignin",
        status: 401,
        ok: false,
        url: null,
        message: "That email and password don't match. Check them and try again.",
      });
    }
  });

  it("fields of another type read as empty, as a form would send them: a 401, never a 500", async () => {
    const { response, result } = await signIn({ email: ["olivia@coastal.example"], password: { x: 1 } });
    expect(response.status).toBe(401);
    expect(result.error).toBe("CredentialsSignin");
  });

  it("is held by the page's lock: ten failures from one address, then 429 even with the right password", async () => {
    for (let i = 0; i < 10; i++) {
      const { result } = await signIn(
        { email: "sam@coastal.example", password: `wrong-${i}` },
        { address: "203.0.113.40" },
      );
      expect(result.error).toBe("CredentialsSignin");
    }
    const { response, result } = await signIn(
      { email: "sam@coastal.example", password: DEMO_PASSWORD },
      { address: "203.0.113.40" },
    );
    expect(response.status).toBe(429);
    expect(result).toMatchObject({ error: "RateLimited", status: 429, ok: false, url: null });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("a disabled login is refused after the password, as on the page", async () => {
    await database()
      .db.updateTable("contacts")
      .set({ disabled_at: new Date() })
      .where("email", "=", "sam@coastal.example")
      .execute();
    try {
      const { response, result } = await signIn({ email: "sam@coastal.example", password: DEMO_PASSWORD });
      expect(response.status).toBe(401);
      expect(result).toMatchObject({ error: "Disabled", ok: false, url: null });
      expect(response.headers.getSetCookie()).toEqual([]);
    } finally {
      await database()
        .db.updateTable("contacts")
        .set({ disabled_at: null })
        .where("email", "=", "sam@coastal.example")
        .execute();
    }
  });

  it("refuses a request from another site before any attempt: 403, nothing counted, no cookie", async () => {
    const { response, result } = await signIn(
      { email: "olivia@coastal.example", password: DEMO_PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(result).toMatchObject({ error: "CrossOrigin", status: 403, ok: false, url: null });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await hits()).toBe(0);
  });

  it("refuses a callback to another origin (spec §8's INVALID_CALLBACK_URL_ERROR) before any attempt", async () => {
    for (const callbackUrl of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]) {
      const { response, result } = await signIn({
        email: "olivia@coastal.example",
        password: DEMO_PASSWORD,
        callbackUrl,
      });
      expect(response.status).toBe(400);
      expect(result).toMatchObject({ error: "INVALID_CALLBACK_URL_ERROR", ok: false, url: null });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(await hits()).toBe(0);
  });

  it("a body it cannot read is a 400, 413 or 415 in the same shape, and counts nothing", async () => {
    const cases: [string, string, number][] = [
      ["{", "application/json", 400],
      ["<a/>", "application/xml", 415],
      [JSON.stringify({ email: "x".repeat(20_000) }), "application/json", 413],
    ];
    for (const [body, type, status] of cases) {
      const { response, result } = await signIn(body, { type });
      expect(response.status, body.slice(0, 10)).toBe(status);
      expect(result).toMatchObject({ error: "InvalidRequest", status, ok: false, url: null });
      expect(result.message.length).toBeGreaterThan(10);
    }
    expect(await hits()).toBe(0);
  });

  it("a wrong method is a JSON 405 naming GET and POST", async () => {
    const request = new Request("http://acme.localhost/api/auth/signin", {
      method: "PUT",
      headers: { host: "acme.localhost", origin: "http://acme.localhost" },
    });
    const response = await signin.action({ request, params: {}, context: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
    expect(await response.json()).toMatchObject({ error: "MethodNotAllowed", status: 405, ok: false });
  });
});

describe("POST /api/auth/signin/:provider", () => {
  const viaProvider = async (name: string, body: unknown, host = "acme.localhost") => {
    const request = post(body, { host, path: `/api/auth/signin/${name}` });
    const response = await provider.action({ request, params: { provider: name }, context: {} });
    return { response, result: (await response.json()) as Result };
  };

  it("credentials on a password host signs in as /api/auth/signin does", async () => {
    const { response, result } = await viaProvider("credentials", {
      email: "olivia@coastal.example",
      password: DEMO_PASSWORD,
      callbackUrl: "/",
    });
    expect(result).toMatchObject({ ok: true, status: 200, url: "http://acme.localhost/" });
    expect(sessionCookie(response)).toBeTruthy();
  });

  it("a provider the host does not use answers 404 with the sign-in page's address (spec §8), counting nothing", async () => {
    for (const [name, host] of [
      ["github", "acme.localhost"],
      ["auth0", "acme.localhost"],
      ["credentials", "harbour.localhost"],
    ] as const) {
      const { response, result } = await viaProvider(
        name,
        { email: "olivia@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/statements" },
        host,
      );
      expect(response.status, `${name} on ${host}`).toBe(404);
      expect(result).toMatchObject({
        error: "UnknownProvider",
        ok: false,
        url: `http://${host}/auth/signin?callbackUrl=%2Fstatements`,
      });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(await hits()).toBe(0);
  });

  it("the host's provider that cannot be loaded (no client secret here) answers 503 with the error page's address", async () => {
    const { response, result } = await viaProvider("auth0", {}, "harbour.localhost");
    expect(response.status).toBe(503);
    expect(result).toMatchObject({
      error: "Configuration",
      ok: false,
      url: "http://harbour.localhost/error?error=Configuration",
    });
  });

  it("POST /api/auth/signin on an Auth0 host is the unknown provider's answer: passwords are not taken there", async () => {
    const { response, result } = await signIn(
      { email: "mia@harbour.example", password: "Harbour!2026" },
      { host: "harbour.localhost" },
    );
    expect(response.status).toBe(404);
    expect(result.error).toBe("UnknownProvider");
    expect(await hits()).toBe(0);
  });
});
