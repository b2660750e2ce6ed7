import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, HARBOUR, KIWI, test } from "./fixtures";

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
