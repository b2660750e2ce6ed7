import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as config from "./config";
import * as provider from "./signin_.$provider";
import * as tokenVerify from "./token-verify";
import * as forgotChange from "../sample+/forgot-change";
import { issueToken } from "~/services/auth/auth-tokens.server";
import { findHostBranding } from "~/services/host/host.server";
import { verifyCredentials } from "~/services/auth/auth.server";

const get = (path: string, host = "harbour.localhost") => new Request(`http://${host}${path}`, { headers: { host } });

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

describe("/api/auth/signin/:provider", () => {
  it("sends a provider the host does not use to the sign-in page", async () => {
    const response = await provider.loader({
      request: get("/api/auth/signin/github"),
      params: { provider: "github" },
      context: {},
    });
    expect(response.headers.get("location")).toBe("/auth/signin");
  });

  it("sends the host's provider that cannot be loaded (no client secret here) to /error", async () => {
    const response = await provider.loader({
      request: get("/api/auth/signin/auth0"),
      params: { provider: "auth0" },
      context: {},
    });
    expect(response.headers.get("location")).toBe("/error?error=Configuration");
  });
});

describe("/api/auth/config", () => {
  it("answers the provider, domain and client id for an Auth0 host, and nothing secret", async () => {
    const response = await config.loader({ request: get("/api/auth/config"), params: {}, context: {} });
    const body = await response.json();
    expect(body).toEqual({ authProvider: "auth0", auth0: { domain: "127.0.0.1:4311", clientId: "harbour-portal" } });
  });
});

describe("/api/auth/token-verify", () => {
  it("needs a token: 400 'Missing token'", async () => {
    const response = await tokenVerify.loader({
      request: get("/api/auth/token-verify", "acme.localhost"),
      params: {},
      context: {},
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Missing token");
  });

  it("rate limits checks per client address", async () => {
    let last = 200;
    for (let i = 0; i < 31; i++) {
      const response = await tokenVerify.loader({
        request: get(`/api/auth/token-verify?token=t${i}`, "kiwi.localhost"),
        params: {},
        context: {},
      });
      last = response.status;
    }
    expect(last).toBe(429);
  });
});

describe("POST /api/sample/forgot-change", () => {
  const post = (body: unknown, type = "application/json") =>
    new Request("http://acme.localhost/api/sample/forgot-change", {
      method: "POST",
      headers: { host: "acme.localhost", origin: "http://acme.localhost", "content-type": type },
      body:
        type === "application/json"
          ? JSON.stringify(body)
          : new URLSearchParams(body as Record<string, string>).toString(),
    });

  it("takes a URL-encoded password in JSON (spec §5) with any characters, once", async () => {
    const acme = (await findHostBranding(handle.db, "acme.localhost"))!;
    const contact = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "new@coastal.example")
      .executeTakeFirstOrThrow();
    const token = await issueToken(acme.businessId, contact.id, "password-reset");
    const password = "100% sure + & = ünïcødé 🔑";
    const response = await forgotChange.action({
      request: post({ email: "new@coastal.example", token, password: encodeURIComponent(password) }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    const form = new FormData();
    form.set("email", "new@coastal.example");
    form.set("password", password);
    await expect(verifyCredentials(acme, form, new Request("http://acme.localhost/"))).resolves.toMatchObject({
      verified: true,
    });
    const again = await forgotChange.action({
      request: post({ email: "new@coastal.example", token, password: encodeURIComponent(password) }),
      params: {},
      context: {},
    });
    expect(again.status).toBe(400);
  });

  it.each([
    ["no token", { email: "new@coastal.example", password: "abcdefghijk" }, "Missing token"],
    ["a bad email", { email: "<b>x</b>", password: "abcdefghijk", token: "t" }, "Enter an email address"],
    ["a short password", { email: "new@coastal.example", password: "short", token: "t" }, "at least 10"],
    ["a broken encoding", { email: "new@coastal.example", password: "%E0%A4%A", token: "t" }, "URL-encoded"],
    [
      "a non-string password",
      { email: "new@coastal.example", password: 12345678901, token: "t" },
      "Enter a new password",
    ],
  ])("refuses %s with a 400", async (_label, body, message) => {
    const response = await forgotChange.action({ request: post(body), params: {}, context: {} });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain(message);
  });

  it("refuses a body that is not an object, and a wrong content type", async () => {
    const list = await forgotChange.action({ request: post(["a"]), params: {}, context: {} }).catch((e: Response) => e);
    expect(list.status).toBe(400);
    const xml = await forgotChange
      .action({ request: post({}, "application/xml"), params: {}, context: {} })
      .catch((e: Response) => e);
    expect(xml.status).toBe(415);
  });
});
