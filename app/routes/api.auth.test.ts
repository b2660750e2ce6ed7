import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/db.server";
import { setDatabaseForTesting } from "~/services/database.server";
import { openSeededPglite } from "../../tests/support/test-db";
import * as config from "./api.auth.config";
import * as provider from "./api.auth.signin_.$provider";
import * as tokenVerify from "./api.auth.token-verify";

const get = (path: string, host = "harbour.localhost") =>
  new Request(`http://${host}${path}`, { headers: { host } });

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
    const response = await provider.loader({ request: get("/api/auth/signin/github"), params: { provider: "github" }, context: {} });
    expect(response.headers.get("location")).toBe("/auth/signin");
  });

  it("sends the host's provider that cannot be loaded (no client secret here) to /error", async () => {
    const response = await provider.loader({ request: get("/api/auth/signin/auth0"), params: { provider: "auth0" }, context: {} });
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
    const response = await tokenVerify.loader({ request: get("/api/auth/token-verify", "acme.localhost"), params: {}, context: {} });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Missing token");
  });

  it("rate limits checks per client address", async () => {
    let last = 200;
    for (let i = 0; i < 31; i++) {
      const response = await tokenVerify.loader({ request: get(`/api/auth/token-verify?token=t${i}`, "kiwi.localhost"), params: {}, context: {} });
      last = response.status;
    }
    expect(last).toBe(429);
  });
});
