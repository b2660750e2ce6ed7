import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../../tests/support/test-db";
import type { DatabaseHandle } from "../platform/db.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { resetEnvForTesting } from "../platform/env.server";
import { findHostBranding, type HostBranding } from "../host/host.server";
import { serializeLanguageCookie } from "../host/language.server";
import { securityHeaders } from "../platform/security-headers.server";
import { clearSessionCookie, createSession, getSession, hasSessionCookie } from "./session.server";

/** Behind a TLS-terminating proxy (TRUST_PROXY=true, X-Forwarded-Proto: https): decision 024. */
let handle: DatabaseHandle;
let acme: HostBranding;
let contactId: string;
const saved = process.env.TRUST_PROXY;

const viaProxy = (proto: "https" | "http", cookie?: string) =>
  new Request("http://acme.localhost/", {
    headers: { host: "acme.localhost", "x-forwarded-proto": proto, ...(cookie ? { cookie } : {}) },
  });

function setTrustProxy(value: string) {
  process.env.TRUST_PROXY = value;
  resetEnvForTesting();
}

beforeAll(async () => {
  setTrustProxy("true");
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  acme = (await findHostBranding(handle.db, "acme.localhost"))!;
  contactId = (
    await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
  if (saved === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = saved;
  resetEnvForTesting();
});

const start = (request: Request) =>
  createSession(request, { businessId: acme.businessId, contactId, authMethod: "credentials" });

describe("Strict-Transport-Security", () => {
  it("is sent when the proxy says the browser talks https, and only when the proxy is trusted", () => {
    expect(securityHeaders(viaProxy("https"), "n")["Strict-Transport-Security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(securityHeaders(viaProxy("http"), "n")["Strict-Transport-Security"]).toBeUndefined();
    setTrustProxy("false");
    try {
      expect(securityHeaders(viaProxy("https"), "n")["Strict-Transport-Security"]).toBeUndefined();
    } finally {
      setTrustProxy("true");
    }
  });
});

describe("the language cookie", () => {
  it("is Secure over https, and not over plain http (where a Secure cookie would never come back)", async () => {
    expect(await serializeLanguageCookie(viaProxy("https"), "ID")).toMatch(/; Secure/);
    expect(await serializeLanguageCookie(viaProxy("http"), "ID")).not.toMatch(/Secure/);
  });
});

describe("the session cookie", () => {
  it("over https is __Host-portal_session: Secure, Path=/, no Domain", async () => {
    const cookie = await start(viaProxy("https"));
    expect(cookie).toMatch(/^__Host-portal_session=/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).not.toMatch(/Domain=/i);
    const pair = cookie.split(";")[0]!;
    expect((await getSession(viaProxy("https", pair), acme.businessId))?.contact.id).toBe(contactId);
    // Over plain http the prefixed name means nothing (browsers would never send it there).
    expect(await getSession(viaProxy("http", pair), acme.businessId)).toBeNull();
    expect(await clearSessionCookie(viaProxy("https", pair))).toMatch(/^__Host-portal_session=;.*Max-Age=0/);
  });

  it("over plain http keeps the plain name", async () => {
    const cookie = await start(viaProxy("http"));
    expect(cookie).toMatch(/^portal_session=/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it("over https a plain-named cookie is never read: a sibling subdomain could have planted it", async () => {
    // A genuine session under the plain name (as one host's http session, or one a sibling
    // subdomain set for the parent domain with its owner's own signed id).
    const planted = (await start(viaProxy("http"))).split(";")[0]!;
    const request = viaProxy("https", planted);
    expect(hasSessionCookie(request)).toBe(false);
    expect(await getSession(request, acme.businessId)).toBeNull();
    // The prefixed cookie is the only one read, even with a planted one beside it.
    const own = (await start(viaProxy("https"))).split(";")[0]!;
    expect((await getSession(viaProxy("https", `${planted}; ${own}`), acme.businessId))?.contact.id).toBe(contactId);
  });

  it("a look-alike cookie name is not a session cookie", () => {
    expect(hasSessionCookie(viaProxy("http", "xportal_session=abc; portal_session_x=1"))).toBe(false);
    expect(hasSessionCookie(viaProxy("http", "__Host-portal_session=abc"))).toBe(false);
  });
});
