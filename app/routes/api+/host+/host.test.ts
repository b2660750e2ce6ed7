import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite, openUnreachableDatabase } from "../../../../tests/support/test-db";
import * as bootstrap from "./bootstrap";
import * as heartbeatApi from "./heartbeat";
import * as heartbeatPage from "../../_public+/heartbeat";
import * as privacy from "../../_public+/privacy-policy";

const args = (request: Request) => ({ request, params: {}, context: {} });
const get = (path: string, host = "acme.localhost:3000") => new Request(`http://${host}${path}`, { headers: { host } });

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    // Remix's `data()` throws a DataWithResponseInit: status and body live on it.
    const init = error as { init?: { status?: number }; data?: unknown; type?: string };
    if (init?.type === "DataWithResponseInit") {
      return Response.json(init.data, { status: init.init?.status ?? 200 });
    }
    throw error;
  }
  throw new Error("expected the loader to throw a response");
}

describe("with the database up", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openSeededPglite();
    setDatabaseForTesting(handle);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await handle.close();
  });

  describe("GET /api/host/bootstrap", () => {
    it("answers the five branding fields for a known host", async () => {
      const response = await bootstrap.loader(args(get("/api/host/bootstrap?hostname=kiwi.localhost")));
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual([
        "businessId",
        "businessLabel",
        "businessName",
        "logoDirectory",
        "theme",
      ]);
      expect(body).toMatchObject({
        theme: "english-holly",
        businessName: "Kiwi Freight Co.",
        businessLabel: "Kiwi Freight customer portal",
        logoDirectory: "/brands/kiwi",
      });
      expect(body.businessId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("normalises case, port and a trailing dot", async () => {
      const response = await bootstrap.loader(args(get("/api/host/bootstrap?hostname=ACME.localhost.:8080")));
      expect(response.status).toBe(200);
      expect((await response.json()).businessName).toBe("Acme Plumbing Supplies");
    });

    it.each([
      ["no parameter", "/api/host/bootstrap", 400, /Missing hostname/],
      ["an empty value", "/api/host/bootstrap?hostname=", 400, /Missing hostname/],
      ["only spaces", "/api/host/bootstrap?hostname=%20%20", 400, /Missing hostname/],
      ["two values", "/api/host/bootstrap?hostname=a.localhost&hostname=b.localhost", 400, /exactly one/],
      ["SQL", `/api/host/bootstrap?hostname=${encodeURIComponent("x' OR 1=1 --")}`, 400, /Invalid hostname/],
      [
        "HTML",
        `/api/host/bootstrap?hostname=${encodeURIComponent("<script>alert(1)</script>")}`,
        400,
        /Invalid hostname/,
      ],
      ["unicode", `/api/host/bootstrap?hostname=${encodeURIComponent("аcme.localhost")}`, 400, /Invalid hostname/],
      ["an over-long name", `/api/host/bootstrap?hostname=${"a".repeat(5000)}`, 400, /Invalid hostname/],
      ["an unknown host", "/api/host/bootstrap?hostname=nowhere.localhost", 404, /No portal/],
    ])("%s → %i with a readable message", async (_label, path, status, message) => {
      const response = await bootstrap.loader(args(get(path)));
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      const body = await response.json();
      expect(body.message).toMatch(message);
      expect(JSON.stringify(body)).not.toMatch(/Acme|Kiwi|stack|at /);
    });

    it("refuses other methods with 405 and Allow", async () => {
      const response = bootstrap.action();
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET");
      expect((await response.json()).message).toMatch(/Method not allowed/);
    });
  });

  describe("heartbeat", () => {
    it("GET /api/host/heartbeat answers 200 ok, never cached", async () => {
      const response = await heartbeatApi.loader();
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "ok", database: "up" });
      expect(response.headers.get("cache-control")).toBe("no-store");
    });

    it("the /heartbeat page loader reports the time in the host's zone", async () => {
      const data = await heartbeatPage.loader(args(get("/heartbeat", "kiwi.localhost")));
      expect(data.businessName).toBe("Kiwi Freight Co.");
      expect(data.date).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    });
  });

  describe("per-host pages", () => {
    it("the privacy policy is the host's own text", async () => {
      const acme = await privacy.loader(args(get("/privacy-policy", "acme.localhost")));
      const kiwi = await privacy.loader(args(get("/privacy-policy", "kiwi.localhost")));
      expect(acme.content).toContain("Acme Plumbing Supplies");
      expect(kiwi.content).toContain("Kiwi Freight");
      expect(acme.content).not.toContain("Kiwi");
    });

    it("an unknown host is a 404, with no brand in it", async () => {
      const response = await thrownResponse(privacy.loader(args(get("/privacy-policy", "nowhere.localhost"))));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ reason: "unknown-host" });
    });

    it("a hostile Host header is a 404, not a 500", async () => {
      const request = new Request("http://acme.localhost/privacy-policy", { headers: { host: "evil<script>" } });
      const response = await thrownResponse(privacy.loader(args(request)));
      expect(response.status).toBe(404);
    });
  });
});

describe("with the database down", () => {
  let handle: DatabaseHandle;
  beforeAll(() => {
    handle = openUnreachableDatabase();
    setDatabaseForTesting(handle);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await handle.close();
  });

  it("GET /api/host/heartbeat answers 503 with Retry-After", async () => {
    const response = await heartbeatApi.loader();
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "unavailable", database: "down" });
    expect(response.headers.get("retry-after")).toBe("30");
  });

  it("GET /api/host/bootstrap answers 503, not 500", async () => {
    const response = await bootstrap.loader(args(get("/api/host/bootstrap?hostname=acme.localhost")));
    expect(response.status).toBe(503);
    expect((await response.json()).message).toMatch(/can't reach its database/);
  });

  it("the /heartbeat page answers 503", async () => {
    const response = await thrownResponse(heartbeatPage.loader(args(get("/heartbeat"))));
    expect(response.status).toBe(503);
  });
});
