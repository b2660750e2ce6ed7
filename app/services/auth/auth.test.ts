import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../../db/seed/demo";
import { openSeededPglite } from "../../../tests/support/test-db";
import { requirePageAccess, SignInError, verifyCredentials, verifyIdToken } from "./auth.server";
import { issueToken, peekToken, spendToken } from "./auth-tokens.server";
import type { DatabaseHandle } from "../platform/db.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { findHostBranding, type HostBranding } from "../host/host.server";
import { hashPassword, verifyPassword } from "./password.server";
import { changePassword, resetPassword } from "./password-flows.server";
import { CROSS_ORIGIN_MARKER } from "../platform/request-guard.server";
import { isCrossOrigin } from "../platform/request-context.server";
import { createSession, getSession } from "./session.server";

let handle: DatabaseHandle;
let acme: HostBranding;
let kiwi: HostBranding;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  acme = (await findHostBranding(handle.db, "acme.localhost"))!;
  kiwi = (await findHostBranding(handle.db, "kiwi.localhost"))!;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

const page = (path: string, init: { host?: string; cookie?: string; method?: string; body?: string } = {}) =>
  new Request(`http://${init.host ?? "acme.localhost"}${path}`, {
    method: init.method ?? "GET",
    headers: {
      host: init.host ?? "acme.localhost",
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: init.body,
  });

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

async function contactId(email: string) {
  const row = await handle.db.selectFrom("contacts").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

describe("passwords", () => {
  it("hashes with argon2id and accepts any characters", async () => {
    const password = "p%+&= ünïcødé 🔑 'x' OR 1=1";
    const hash = await hashPassword(password);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword(`${password} `, hash)).toBe(false);
    // NFC and NFD spellings of the same text are the same password.
    expect(await verifyPassword("café".normalize("NFD"), await hashPassword("café".normalize("NFC")))).toBe(true);
    expect(await verifyPassword("anything", null)).toBe(false);
  });
});

describe("credentials", () => {
  it("signs in a known contact and refuses wrong passwords and unknown emails alike", async () => {
    const request = page("/auth/signin");
    const olivia = await verifyCredentials(
      acme,
      form({ email: " Olivia@Coastal.example ", password: DEMO_PASSWORD }),
      request,
    );
    expect(olivia.email).toBe("olivia@coastal.example");
    await expect(
      verifyCredentials(acme, form({ email: "olivia@coastal.example", password: "nope" }), request),
    ).rejects.toMatchObject({ code: "CredentialsSignin" });
    await expect(
      verifyCredentials(acme, form({ email: "ghost@coastal.example", password: "nope" }), request),
    ).rejects.toMatchObject({ code: "CredentialsSignin" });
    await expect(verifyCredentials(acme, form({ email: "<script>", password: "" }), request)).rejects.toBeInstanceOf(
      SignInError,
    );
  });

  it("never signs in a contact of another business on this host", async () => {
    await expect(
      verifyCredentials(
        kiwi,
        form({ email: "olivia@coastal.example", password: DEMO_PASSWORD }),
        page("/auth/signin", { host: "kiwi.localhost" }),
      ),
    ).rejects.toMatchObject({ code: "CredentialsSignin" });
  });

  it("locks an account after 10 failures, even for the right password", async () => {
    const request = page("/auth/signin");
    for (let i = 0; i < 10; i++) {
      await expect(
        verifyCredentials(acme, form({ email: "sam@coastal.example", password: `bad-${i}` }), request),
      ).rejects.toMatchObject({ code: "CredentialsSignin" });
    }
    await expect(
      verifyCredentials(acme, form({ email: "sam@coastal.example", password: DEMO_PASSWORD }), request),
    ).rejects.toMatchObject({ code: "RateLimited" });
    // Another account from the same address is not locked by it.
    await expect(
      verifyCredentials(acme, form({ email: "olivia@coastal.example", password: DEMO_PASSWORD }), request),
    ).resolves.toBeTruthy();
  });
});

describe("parallel guessing", () => {
  it("cannot slip past the limit by sending many attempts at once", async () => {
    const request = page("/auth/signin", { host: "kiwi.localhost" });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        verifyCredentials(kiwi, form({ email: "liam@tasman.example", password: `parallel-${i}` }), request).catch(
          (e: SignInError) => e.code,
        ),
      ),
    );
    expect(results.filter((r) => r === "CredentialsSignin").length).toBeLessThanOrEqual(10);
    expect(results.filter((r) => r === "RateLimited").length).toBeGreaterThanOrEqual(20);
    // A reset link lifts the lock for the owner (tested below); clear it for the other tests.
    await handle.db.deleteFrom("rate_limit_hits").execute();
  });
});

describe("page form bodies", () => {
  it.each([
    ["JSON", "application/json", '{"email":"x"}', 415],
    ["plain text", "text/plain", "email=x", 415],
    ["a broken multipart body", "multipart/form-data; boundary=zzz", "--zzz\r\nbroken", 400],
    ["an oversized body", "application/x-www-form-urlencoded", `email=${"a".repeat(70_000)}`, 413],
  ])("%s → %i, not 500", async (_label, type, body, status) => {
    const { readForm } = await import("../platform/http.server");
    const request = new Request("http://acme.localhost/auth/signin", {
      method: "POST",
      headers: { "content-type": type },
      body,
    });
    const thrown = await readForm(request).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(status);
  });
});

describe("sessions", () => {
  it("are found only on their own business's host", async () => {
    const cookie = (
      await createSession(page("/"), {
        businessId: acme.businessId,
        contactId: await contactId("olivia@coastal.example"),
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    expect(cookie).toMatch(/^portal_session=/);
    const onAcme = await getSession(page("/", { cookie }), acme.businessId);
    expect(onAcme?.contact.email).toBe("olivia@coastal.example");
    expect(await getSession(page("/", { host: "kiwi.localhost", cookie }), kiwi.businessId)).toBeNull();
    // The database keeps only a hash of the cookie's id.
    const rows = await handle.db.selectFrom("sessions").select("id_hash").execute();
    const raw = decodeURIComponent(cookie.split("=")[1]!);
    expect(rows.some((r) => raw.includes(r.id_hash))).toBe(false);
  });

  it("refuse a forged or tampered cookie", async () => {
    expect(await getSession(page("/", { cookie: "portal_session=abc" }), acme.businessId)).toBeNull();
    expect(await getSession(page("/", { cookie: `portal_session=${"A".repeat(43)}.sig` }), acme.businessId)).toBeNull();
  });

  it("send a visitor without one to sign-in with SessionRequired, and a dead one with SessionExpired", async () => {
    const thrown = await requirePageAccess(page("/?x=1")).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe(
      "/auth/signin?callbackUrl=%2F%3Fx%3D1&error=SessionRequired",
    );
    const cookie = (
      await createSession(page("/"), {
        businessId: acme.businessId,
        contactId: await contactId("olivia@coastal.example"),
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    await handle.db.deleteFrom("sessions").execute();
    const expired = (await requirePageAccess(page("/", { cookie })).catch((e: unknown) => e)) as Response;
    expect(expired.headers.get("location")).toContain("error=SessionExpired");
    expect(expired.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  it("give 404 on portal routes without accessCustomerPortal, but allow public ones", async () => {
    const cookie = (
      await createSession(page("/"), {
        businessId: acme.businessId,
        contactId: await contactId("sam@coastal.example"),
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    const denied = (await requirePageAccess(page("/", { cookie })).catch((e: unknown) => e)) as {
      init?: { status?: number };
    };
    expect(denied.init?.status).toBe(404);
    await expect(requirePageAccess(page("/privacy-policy", { cookie }))).resolves.toBeTruthy();
    await expect(requirePageAccess(page("/payment/complete/abc", { cookie }))).resolves.toBeTruthy();
  });
});

describe("single-use tokens and password reset", () => {
  it("a reset link works once, only with its own email, and ends every session", async () => {
    const id = await contactId("liam@tasman.example");
    const token = await issueToken(kiwi.businessId, id, "password-reset");
    const cookie = (
      await createSession(page("/", { host: "kiwi.localhost" }), {
        businessId: kiwi.businessId,
        contactId: id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    expect(await peekToken(kiwi.businessId, token, "password-reset")).toMatchObject({ email: "liam@tasman.example" });
    expect(await peekToken(acme.businessId, token, "password-reset")).toBeNull();
    expect(await peekToken(kiwi.businessId, token, "email-verify")).toBeNull();

    const request = page("/auth/password/reset", { host: "kiwi.localhost" });
    const wrongEmail = await resetPassword(
      kiwi,
      { email: "aroha@orchards.example", token, password: "another password" },
      request,
    );
    expect(wrongEmail.ok).toBe(false);
    // The attempt with the wrong email spent the link.
    const second = await resetPassword(
      kiwi,
      { email: "liam@tasman.example", token, password: "another password" },
      request,
    );
    expect(second.ok).toBe(false);

    const fresh = await issueToken(kiwi.businessId, id, "password-reset");
    const ok = await resetPassword(
      kiwi,
      { email: "liam@tasman.example", token: fresh, password: "a new one %+& 🔑" },
      request,
    );
    expect(ok.ok).toBe(true);
    expect(await getSession(page("/", { host: "kiwi.localhost", cookie }), kiwi.businessId)).toBeNull();
    await expect(
      verifyCredentials(kiwi, form({ email: "liam@tasman.example", password: "a new one %+& 🔑" }), request),
    ).resolves.toBeTruthy();
  });

  it("a new link makes the older one useless, and an expired link fails", async () => {
    const id = await contactId("aroha@orchards.example");
    const first = await issueToken(kiwi.businessId, id, "password-reset");
    const second = await issueToken(kiwi.businessId, id, "password-reset");
    expect(await peekToken(kiwi.businessId, first, "password-reset")).toBeNull();
    expect(await peekToken(kiwi.businessId, second, "password-reset")).not.toBeNull();
    await handle.db
      .updateTable("auth_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect(await peekToken(kiwi.businessId, second, "password-reset")).toBeNull();
    expect(
      await handle.db.transaction().execute((tx) => spendToken(tx, kiwi.businessId, second, "password-reset")),
    ).toBeNull();
  });

  it("two requests racing with one link: exactly one wins", async () => {
    const id = await contactId("aroha@orchards.example");
    const token = await issueToken(kiwi.businessId, id, "password-reset");
    const request = page("/auth/password/reset", { host: "kiwi.localhost" });
    const results = await Promise.all([
      resetPassword(kiwi, { email: "aroha@orchards.example", token, password: "first racer pw" }, request),
      resetPassword(kiwi, { email: "aroha@orchards.example", token, password: "second racer pw" }, request),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("changing the password keeps this session and ends the others", async () => {
    const id = await contactId("olivia@coastal.example");
    const mine = (
      await createSession(page("/"), { businessId: acme.businessId, contactId: id, authMethod: "credentials" })
    ).split(";")[0]!;
    const other = (
      await createSession(page("/"), { businessId: acme.businessId, contactId: id, authMethod: "credentials" })
    ).split(";")[0]!;
    const session = (await getSession(page("/", { cookie: mine }), acme.businessId))!;
    const wrong = await changePassword(
      session,
      { oldPassword: "wrong", newPassword: "a fresh password" },
      page("/auth/password"),
    );
    expect(wrong).toMatchObject({ ok: false, field: "oldPassword" });
    const ok = await changePassword(
      session,
      { oldPassword: DEMO_PASSWORD, newPassword: "a fresh password" },
      page("/auth/password"),
    );
    expect(ok.ok).toBe(true);
    expect(await getSession(page("/", { cookie: mine }), acme.businessId)).not.toBeNull();
    expect(await getSession(page("/", { cookie: other }), acme.businessId)).toBeNull();
  });
});

describe("Auth0 id tokens are verified, not just decoded", () => {
  const domain = "idp.example:4311";
  const clientId = "harbour-portal";
  let keySet: ReturnType<typeof createLocalJWKSet>;
  let sign: (
    claims: { iss?: string; aud?: string; exp?: number; iat?: number },
    useOtherKey?: boolean,
  ) => Promise<string>;

  beforeAll(async () => {
    const good = await generateKeyPair("RS256", { extractable: true });
    const other = await generateKeyPair("RS256");
    keySet = createLocalJWKSet({ keys: [{ ...(await exportJWK(good.publicKey)), kid: "k1", alg: "RS256" }] });
    sign = (claims, useOtherKey = false) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email: "mia@harbour.example", email_verified: true })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setSubject("auth0|mia")
        .setIssuer(claims.iss ?? `https://${domain}/`)
        .setAudience(claims.aud ?? clientId)
        .setIssuedAt(claims.iat ?? now)
        .setExpirationTime(claims.exp ?? now + 3600)
        .sign(useOtherKey ? other.privateKey : good.privateKey);
    };
  });

  it("accepts a good token", async () => {
    expect((await verifyIdToken(await sign({}), domain, clientId, keySet)).sub).toBe("auth0|mia");
  });

  it("allows 15 s of clock skew and no more", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(
      verifyIdToken(await sign({ exp: now - 10, iat: now - 100 }), domain, clientId, keySet),
    ).resolves.toBeTruthy();
    await expect(
      verifyIdToken(await sign({ exp: now - 30, iat: now - 100 }), domain, clientId, keySet),
    ).rejects.toMatchObject({ code: "TokenInvalid" });
  });

  it.each([
    ["a bad signature", {}, true],
    ["another issuer", { iss: "https://evil.example/" }, false],
    ["another audience", { aud: "someone-else" }, false],
  ] as const)("refuses %s", async (_label, claims, otherKey) => {
    await expect(verifyIdToken(await sign(claims, otherKey), domain, clientId, keySet)).rejects.toMatchObject({
      code: "TokenInvalid",
    });
  });

  it("refuses a token that is not a JWT at all", async () => {
    await expect(verifyIdToken("not.a.jwt", domain, clientId, keySet)).rejects.toMatchObject({ code: "TokenInvalid" });
  });
});

describe("cross-origin detection", () => {
  const post = (headers: Record<string, string>) =>
    new Request("http://acme.localhost:3000/auth/signin", {
      method: "POST",
      headers: { host: "acme.localhost:3000", ...headers },
    });
  it.each([
    [{ origin: "http://acme.localhost:3000" }, false],
    [{ origin: "http://kiwi.localhost:3000" }, true],
    [{ origin: "https://acme.localhost:3000" }, true],
    [{ origin: "null" }, true],
    [{ "sec-fetch-site": "same-origin" }, false],
    [{ "sec-fetch-site": "same-site" }, true],
    [{ "sec-fetch-site": "cross-site" }, true],
    [{}, false],
    [{ [CROSS_ORIGIN_MARKER]: "1" }, true],
  ])("%j → %s", (headers, expected) => {
    expect(isCrossOrigin(post(headers))).toBe(expected);
  });
});
