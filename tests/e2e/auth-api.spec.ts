import type { APIResponse, BrowserContext } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { HARBOUR_USERS } from "../support/oidc-standin-demo";
import { ACME, expect, HARBOUR, KIWI, test } from "./fixtures";

/** The cookies an API answer set, put into the browser as it would keep them (host-only, this host). */
async function keepCookies(context: BrowserContext, response: APIResponse, origin: string) {
  const cookies = response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => header.value.split(";")[0]!)
    .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) }));
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: origin })));
  return cookies;
}

test.describe("auth JSON API", () => {
  test("config per host", async ({ hostRequest }) => {
    const acme = await hostRequest.get(`${ACME}/api/auth/config`);
    expect(acme.status()).toBe(200);
    expect(await acme.json()).toEqual({ authProvider: "credentials", auth0: null });
  });

  test("token-verify needs a token, and says whether it is live", async ({ hostRequest }) => {
    const missing = await hostRequest.get(`${ACME}/api/auth/token-verify`);
    expect(missing.status()).toBe(400);
    expect((await missing.json()).message).toBe("Missing token");
    const bogus = await hostRequest.get(`${ACME}/api/auth/token-verify?token=${"a".repeat(43)}`);
    expect(await bogus.json()).toEqual({ valid: false });
    const hostile = await hostRequest.get(
      `${ACME}/api/auth/token-verify?token=${encodeURIComponent("' OR 1=1 --<b>")}`,
    );
    expect(hostile.status()).toBe(200);
    expect(await hostile.json()).toEqual({ valid: false });
  });

  test("verify and update-password answer 401 without a session, and keep the cookie", async ({ hostRequest }) => {
    const verify = await hostRequest.get(`${ACME}/api/auth/verify`, { headers: { cookie: "portal_session=stale" } });
    expect(verify.status()).toBe(401);
    expect(verify.headers()["set-cookie"]).toBeUndefined();
    const update = await hostRequest.fetch(`${ACME}/api/auth/update-password`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie: "portal_session=stale" },
      data: { oldPassword: "x", newPassword: "y".repeat(12) },
    });
    expect(update.status()).toBe(401);
    expect(update.headers()["set-cookie"]).toBeUndefined();
  });

  test("forgot-send answers the same for known and unknown emails; bad input is a 400", async ({ hostRequest }) => {
    const known = await hostRequest.post(`${KIWI}/api/sample/forgot-send`, { data: { email: "liam@tasman.example" } });
    const unknown = await hostRequest.post(`${KIWI}/api/sample/forgot-send`, {
      data: { email: "ghost@tasman.example" },
    });
    expect(known.status()).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
    const bad = await hostRequest.post(`${KIWI}/api/sample/forgot-send`, { data: { email: "<script>" } });
    expect(bad.status()).toBe(400);
    const notJson = await hostRequest.post(`${KIWI}/api/sample/forgot-send`, {
      headers: { "content-type": "application/json" },
      data: "{not json",
    });
    expect(notJson.status()).toBe(400);
    const huge = await hostRequest.post(`${KIWI}/api/sample/forgot-send`, { data: { email: "a".repeat(40_000) } });
    expect(huge.status()).toBe(413);
    const get = await hostRequest.get(`${KIWI}/api/sample/forgot-send`);
    expect(get.status()).toBe(405);
  });

  test("forgot-change refuses a missing or bogus token", async ({ hostRequest }) => {
    const missing = await hostRequest.post(`${ACME}/api/sample/forgot-change`, {
      data: { email: "olivia@coastal.example", password: encodeURIComponent("a new password!") },
    });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).message).toBe("Missing token");
    const bogus = await hostRequest.post(`${ACME}/api/sample/forgot-change`, {
      data: { email: "olivia@coastal.example", password: encodeURIComponent("a new password!"), token: "x".repeat(43) },
    });
    expect(bogus.status()).toBe(400);
    expect((await bogus.json()).message).toContain("expired or has already been used");
  });

  test("session: signed in on one host only", async ({ hostRequest }) => {
    const signIn = await hostRequest.post(`${ACME}/auth/signin`, {
      headers: { origin: ACME },
      form: { email: "olivia@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/" },
    });
    expect(signIn.status()).toBe(302);
    const cookie = (signIn.headers()["set-cookie"] ?? "").split(";")[0]!;
    expect(cookie).toMatch(/^portal_session=/);
    const session = await (await hostRequest.get(`${ACME}/api/auth/session`, { headers: { cookie } })).json();
    expect(session).toMatchObject({ authenticated: true, user: { email: "olivia@coastal.example", verified: true } });
    const verify = await hostRequest.get(`${ACME}/api/auth/verify`, { headers: { cookie } });
    expect(await verify.json()).toBe(true);
    const elsewhere = await (await hostRequest.get(`${KIWI}/api/auth/session`, { headers: { cookie } })).json();
    expect(elsewhere).toEqual({ authenticated: false });
    const harbour = await (await hostRequest.get(`${HARBOUR}/api/auth/session`, { headers: { cookie } })).json();
    expect(harbour).toEqual({ authenticated: false });
  });

  test("/user/login is the sign-in page too", async ({ hostRequest }) => {
    const response = await hostRequest.get(`${ACME}/user/login?callbackUrl=%2Fprivacy-policy`);
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/auth/signin?callbackUrl=%2Fprivacy-policy");
  });

  test("/api/auth/signin carries error and callback to the sign-in page; providers are checked", async ({
    hostRequest,
  }) => {
    const withError = await hostRequest.get(
      `${ACME}/api/auth/signin?error=CredentialsSignin&callbackUrl=%2Fprivacy-policy`,
    );
    expect(withError.status()).toBe(302);
    expect(withError.headers()["location"]).toBe("/auth/signin?error=CredentialsSignin&callbackUrl=%2Fprivacy-policy");
    const unknownProvider = await hostRequest.get(`${ACME}/api/auth/signin/github`);
    expect(unknownProvider.headers()["location"]).toBe("/auth/signin");
  });
});

test.describe("the sign-in API's result (spec §4, §7; decision 092)", () => {
  test("credentials over JSON: the result, then the cookie it set signs the browser in", async ({
    hostRequest,
    page,
  }) => {
    const wrong = await hostRequest.post(`${ACME}/api/auth/signin`, {
      headers: { origin: ACME },
      data: { email: "olivia@coastal.example", password: "not-it" },
    });
    expect(wrong.status()).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "CredentialsSignin", status: 401, ok: false, url: null });

    const crossSite = await hostRequest.post(`${ACME}/api/auth/signin`, {
      headers: { origin: KIWI },
      data: { email: "olivia@coastal.example", password: DEMO_PASSWORD },
    });
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: "CrossOrigin", ok: false });
    expect(crossSite.headers()["set-cookie"]).toBeUndefined();

    const wrongMethod = await hostRequest.fetch(`${ACME}/api/auth/signin`, { method: "DELETE" });
    expect(wrongMethod.status()).toBe(405);
    expect(wrongMethod.headers()["allow"]).toBe("GET, POST");

    const good = await hostRequest.post(`${ACME}/api/auth/signin`, {
      headers: { origin: ACME },
      form: { email: "olivia@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/statements" },
    });
    expect(good.status()).toBe(200);
    expect(await good.json()).toEqual({
      error: null,
      status: 200,
      ok: true,
      url: `${ACME}/statements`,
      message: "Signed in.",
    });
    await keepCookies(page.context(), good, ACME);
    await page.goto(`${ACME}/statements`);
    await expect(page.getByRole("banner")).toContainText("Signed in as Olivia Nguyen");
  });

  test("Auth0 over JSON: the provider's address and its state cookies, and the round trip completes", async ({
    hostRequest,
    page,
  }) => {
    const mia = HARBOUR_USERS.find((user) => user.email === "mia@harbour.example")!;
    const unknown = await hostRequest.post(`${HARBOUR}/api/auth/signin/github`, {
      headers: { origin: HARBOUR },
      data: {},
    });
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: "UnknownProvider",
      url: `${HARBOUR}/auth/signin?callbackUrl=%2F`,
    });

    const start = await hostRequest.post(`${HARBOUR}/api/auth/signin/auth0`, {
      headers: { origin: HARBOUR },
      data: { callbackUrl: "/privacy-policy" },
    });
    expect(start.status()).toBe(200);
    const result = (await start.json()) as { ok: boolean; url: string; error: null };
    expect(result).toMatchObject({ ok: true, error: null });
    const authorize = new URL(result.url);
    expect(authorize.pathname).toBe("/authorize");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    const kept = await keepCookies(page.context(), start, HARBOUR);
    expect(kept.map((cookie) => cookie.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^portal_auth0/), "portal_callback"]),
    );

    await page.goto(result.url);
    await page.getByLabel("Email").fill(mia.email);
    await page.getByLabel("Password").fill(mia.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(`${HARBOUR}/privacy-policy`);
    await expect(page.getByRole("banner")).toContainText("Signed in as Mia Chen");
  });
});

test.describe("auth base calls of spec §7: csrf, providers, signout, _log", () => {
  test("providers per host", async ({ hostRequest }) => {
    expect(await (await hostRequest.get(`${ACME}/api/auth/providers`)).json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${ACME}/api/auth/signin/credentials`,
        callbackUrl: `${ACME}/auth/signin`,
      },
    });
    expect(await (await hostRequest.get(`${HARBOUR}/api/auth/providers`)).json()).toEqual({
      auth0: {
        id: "auth0",
        name: "Auth0",
        type: "oauth",
        signinUrl: `${HARBOUR}/api/auth/signin/auth0`,
        callbackUrl: `${HARBOUR}/api/auth/callback/auth0`,
      },
    });
  });

  test("csrf token, then a JSON sign-out that needs it and ends the session", async ({ hostRequest }) => {
    expect(await (await hostRequest.get(`${KIWI}/api/auth/csrf`)).json()).toEqual({ csrfToken: null });
    const signIn = await hostRequest.post(`${KIWI}/auth/signin`, {
      headers: { origin: KIWI },
      form: { email: "aroha@orchards.example", password: DEMO_PASSWORD, callbackUrl: "/" },
    });
    const cookie = (signIn.headers()["set-cookie"] ?? "").split(";")[0]!;
    const { csrfToken } = await (await hostRequest.get(`${KIWI}/api/auth/csrf`, { headers: { cookie } })).json();
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const noToken = await hostRequest.post(`${KIWI}/api/auth/signout`, { headers: { cookie, origin: KIWI }, data: {} });
    expect(noToken.status()).toBe(403);
    const crossSite = await hostRequest.post(`${KIWI}/api/auth/signout`, {
      headers: { cookie, origin: ACME },
      data: { csrfToken },
    });
    expect(crossSite.status()).toBe(403);
    expect(await (await hostRequest.get(`${KIWI}/api/auth/session`, { headers: { cookie } })).json()).toMatchObject({
      authenticated: true,
    });
    const get = await hostRequest.get(`${KIWI}/api/auth/signout`, { headers: { cookie } });
    expect(get.status()).toBe(405);
    expect((await get.json()).message).toMatch(/use POST/);

    const out = await hostRequest.post(`${KIWI}/api/auth/signout`, {
      headers: { cookie, origin: KIWI },
      data: { csrfToken, callbackUrl: "https://evil.example/" },
    });
    expect(out.status()).toBe(200);
    expect(await out.json()).toEqual({ url: `${KIWI}/auth/signin` });
    expect(out.headers()["set-cookie"]).toMatch(/^portal_session=;/);
    expect(await (await hostRequest.get(`${KIWI}/api/auth/session`, { headers: { cookie } })).json()).toEqual({
      authenticated: false,
    });
  });

  test("_log takes a small JSON line (204) and refuses the rest", async ({ hostRequest }) => {
    const ok = await hostRequest.post(`${ACME}/api/auth/_log`, {
      headers: { origin: ACME },
      data: { level: "error", message: "CLIENT_FETCH_ERROR\n forged line", code: "CLIENT_FETCH_ERROR" },
    });
    expect(ok.status()).toBe(204);
    const big = await hostRequest.post(`${ACME}/api/auth/_log`, {
      headers: { origin: ACME },
      data: { level: "warn", message: "x".repeat(5000) },
    });
    expect(big.status()).toBe(413);
    const malformed = await hostRequest.post(`${ACME}/api/auth/_log`, {
      headers: { origin: ACME, "content-type": "application/json" },
      data: "{level:",
    });
    expect(malformed.status()).toBe(400);
    const get = await hostRequest.get(`${ACME}/api/auth/_log`);
    expect(get.status()).toBe(405);
    expect(get.headers()["content-type"]).toMatch(/^application\/json/);
    const crossSite = await hostRequest.post(`${ACME}/api/auth/_log`, {
      headers: { origin: KIWI },
      data: { level: "warn", message: "x" },
    });
    expect(crossSite.status()).toBe(403);
  });
});

test.describe("unknown API paths", () => {
  test("answer a JSON 404 for every method; known calls still answer", async ({ hostRequest }) => {
    for (const path of ["/api/payTo/agreements", "/api/payTo/config?x=1", "/api/nope", "/api/sample/nope/deeper"]) {
      const get = await hostRequest.get(`${ACME}${path}`);
      expect(get.status(), path).toBe(404);
      expect(get.headers()["content-type"], path).toMatch(/^application\/json/);
      expect((await get.json()).message, path).toMatch(/^Not found: there is no API call at \/api\//);
      for (const method of ["HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
        const other = await hostRequest.fetch(`${ACME}${path}`, {
          method,
          headers: { origin: ACME, "content-type": "application/json" },
          data: method === "HEAD" ? undefined : {},
        });
        expect(other.status(), `${method} ${path}`).toBe(404);
        expect(other.headers()["content-type"], `${method} ${path}`).toMatch(/^application\/json/);
      }
    }
    expect((await hostRequest.get(`${ACME}/api/host/heartbeat`)).status()).toBe(200);
    expect((await hostRequest.get(`${ACME}/api/auth/session`)).status()).toBe(200);
    const statements = await hostRequest.get(`${ACME}/api/sample/statements?accountId=x`);
    expect(statements.status()).toBe(401);
    // A page path that does not exist is still the HTML page-not-found screen.
    const pagePath = await hostRequest.get(`${ACME}/no-such-page`);
    expect(pagePath.status()).toBe(404);
    expect(pagePath.headers()["content-type"]).toMatch(/^text\/html/);
  });
});
