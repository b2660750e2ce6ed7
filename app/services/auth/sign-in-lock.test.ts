import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../../db/seed/demo";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import type { DatabaseHandle } from "../platform/db.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { findHostBranding, type HostBranding } from "../host/host.server";
import {
  consume,
  RATE_LIMIT_PRUNE_AFTER_MS,
  RATE_LIMIT_PRUNE_BATCH,
  setRateLimitClockForTesting,
} from "../platform/rate-limit.server";
import { CLIENT_ADDRESS_HEADER } from "../platform/request-log.server";
import { verifyCredentials } from "./auth.server";
import { issueToken } from "./auth-tokens.server";
import { resetPassword } from "./password-flows.server";

/**
 * The sign-in lock of decision 024, with the clock moved by the test: ten failures from one
 * address within 15 minutes lock the account there for 15 minutes from the tenth; a reset
 * lifts it everywhere; a distributed guesser cannot lock the owner out of a known address.
 */
let handle: DatabaseHandle;
let acme: HostBranding;
let now = Date.parse("2026-11-24T09:00:00Z");
const MINUTE = 60_000;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  acme = (await findHostBranding(handle.db, "acme.localhost"))!;
});
afterAll(async () => {
  setRateLimitClockForTesting(null);
  setDatabaseForTesting(undefined);
  await handle.close();
});
beforeEach(async () => {
  setRateLimitClockForTesting(() => now);
  await handle.db.deleteFrom("rate_limit_hits").execute();
  await handle.db.deleteFrom("sign_in_addresses").execute();
});
afterEach(() => {
  now += 24 * 60 * MINUTE;
});

const from = (address: string) =>
  new Request("http://acme.localhost/auth/signin", {
    method: "POST",
    headers: { host: "acme.localhost", [CLIENT_ADDRESS_HEADER]: address },
  });

const form = (email: string, password: string) => {
  const data = new FormData();
  data.set("email", email);
  data.set("password", password);
  return data;
};

const attempt = (email: string, password: string, address: string) =>
  verifyCredentials(acme, form(email, password), from(address)).then(
    () => "ok" as const,
    (error: { code?: string }) => error.code ?? "error",
  );

async function fail(email: string, address: string, times: number) {
  const results: string[] = [];
  for (let i = 0; i < times; i++) results.push(await attempt(email, `wrong-${i}`, address));
  return results;
}

describe("sliding window", () => {
  it("locks for 15 minutes from the tenth failure, not until the next quarter hour", async () => {
    // Failures at minutes 0..9: the tenth is at minute 9.
    const start = now;
    for (let i = 0; i < 10; i++) {
      now = start + i * MINUTE;
      expect(await attempt("sam@coastal.example", "wrong", "203.0.113.5")).toBe("CredentialsSignin");
    }
    now = start + 9 * MINUTE + 14 * MINUTE;
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "203.0.113.5")).toBe("RateLimited");
    // Refused attempts do not extend the lock.
    now = start + 9 * MINUTE + 15 * MINUTE + 1;
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "203.0.113.5")).toBe("ok");
  });

  it("a lock reached just before a quarter hour still lasts the whole 15 minutes", async () => {
    now = Date.parse("2026-11-25T10:14:00Z");
    expect(await fail("sam@coastal.example", "203.0.113.6", 10)).toEqual(Array(10).fill("CredentialsSignin"));
    now = Date.parse("2026-11-25T10:16:00Z");
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "203.0.113.6")).toBe("RateLimited");
    now = Date.parse("2026-11-25T10:28:59Z");
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "203.0.113.6")).toBe("RateLimited");
    now = Date.parse("2026-11-25T10:29:01Z");
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "203.0.113.6")).toBe("ok");
  });

  it("a failure every two minutes (never ten within 15 minutes) locks nothing", async () => {
    const start = now;
    for (let i = 0; i < 20; i++) {
      now = start + i * 2 * MINUTE;
      expect(await attempt("sam@coastal.example", "wrong", "203.0.113.7")).toBe("CredentialsSignin");
    }
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "203.0.113.7")).toBe("ok");
  });

  it("parallel attempts cannot slip past a limit", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => consume(acme.businessId, [{ key: "burst", max: 5, windowMs: 15 * MINUTE }])),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
  });

  it("every counted attempt prunes a bounded batch of hits no window reads, never a fresh one", async () => {
    const hits = (at: number, n: number, key: string) =>
      Array.from({ length: n }, () => ({ business_id: acme.businessId, key, at: new Date(at) }));
    const old = RATE_LIMIT_PRUNE_AFTER_MS + MINUTE;
    await handle.db
      .insertInto("rate_limit_hits")
      .values([...hits(now - old, RATE_LIMIT_PRUNE_BATCH + 5, "old"), ...hits(now - 20 * MINUTE, 3, "fresh")])
      .execute();
    const left = async () => {
      const rows = await handle.db.selectFrom("rate_limit_hits").select("key").execute();
      return { old: rows.filter((r) => r.key === "old").length, fresh: rows.filter((r) => r.key === "fresh").length };
    };
    const limit = [{ key: "prune", max: 10, windowMs: 15 * MINUTE }];
    expect(await consume(acme.businessId, limit)).toBe(true);
    expect(await left()).toEqual({ old: 5, fresh: 3 });
    expect(await consume(acme.businessId, limit)).toBe(true);
    expect(await left()).toEqual({ old: 0, fresh: 3 });
  });
});

describe("lifting the lock", () => {
  it("the owner's own password reset lifts the lock at the address that locked", async () => {
    await fail("olivia@coastal.example", "198.51.100.9", 10);
    expect(await attempt("olivia@coastal.example", DEMO_PASSWORD, "198.51.100.9")).toBe("RateLimited");
    const contact = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "olivia@coastal.example")
      .where("business_id", "=", acme.businessId)
      .executeTakeFirstOrThrow();
    const token = await issueToken(acme.businessId, contact.id, "password-reset");
    const reset = await resetPassword(
      acme,
      { email: "olivia@coastal.example", token, password: "a new long password" },
      from("198.51.100.200"),
    );
    expect(reset).toEqual({ ok: true });
    now += MINUTE;
    expect(await attempt("olivia@coastal.example", "a new long password", "198.51.100.9")).toBe("ok");
  });

  it("failures from ten addresses do not lock the owner out of an address that signed in before", async () => {
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "192.0.2.1")).toBe("ok");
    for (let a = 0; a < 10; a++) await fail("sam@coastal.example", `198.18.0.${a}`, 10);
    // The account-wide ceiling (100) is full: a new address is refused even a right password…
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "192.0.2.99")).toBe("RateLimited");
    // …but the owner's usual address gets through with the right password,
    expect(await attempt("sam@coastal.example", DEMO_PASSWORD, "192.0.2.1")).toBe("ok");
    // and is still held to its own pair limit for wrong ones.
    expect(await fail("sam@coastal.example", "192.0.2.1", 11)).toEqual([
      ...Array(10).fill("CredentialsSignin"),
      "RateLimited",
    ]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the same window on PostgreSQL (TEST_DATABASE_URL)", () => {
  let pg: Awaited<ReturnType<typeof createSeededPostgresDatabase>>;
  let businessId: string;
  beforeAll(async () => {
    pg = await createSeededPostgresDatabase();
    setDatabaseForTesting(pg.handle);
    businessId = (await findHostBranding(pg.handle.db, "acme.localhost"))!.businessId;
  });
  afterAll(async () => {
    setDatabaseForTesting(handle);
    await pg?.drop();
  });

  it("locks for one window from the max-th attempt, and refused attempts do not extend it", async () => {
    const limit = { key: "pg-window", max: 3, windowMs: 15 * MINUTE };
    const start = now;
    for (let i = 0; i < 3; i++) {
      now = start + i * 5 * MINUTE;
      expect(await consume(businessId, [limit])).toBe(true);
    }
    now = start + 10 * MINUTE + 14 * MINUTE;
    expect(await consume(businessId, [limit])).toBe(false);
    now = start + 10 * MINUTE + 15 * MINUTE + 1;
    expect(await consume(businessId, [limit])).toBe(true);
  });

  it("parallel attempts on several connections cannot slip past a limit", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => consume(businessId, [{ key: "pg-burst", max: 5, windowMs: 15 * MINUTE }])),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
  });

  it("a reset lifts the per-address lock (sign-in on PostgreSQL)", async () => {
    const kiwi = (await findHostBranding(pg.handle.db, "kiwi.localhost"))!;
    const attemptKiwi = (password: string) =>
      verifyCredentials(kiwi, form("liam@tasman.example", password), from("203.0.113.50")).then(
        () => "ok",
        (error: { code?: string }) => error.code,
      );
    for (let i = 0; i < 10; i++) expect(await attemptKiwi(`wrong-${i}`)).toBe("CredentialsSignin");
    expect(await attemptKiwi(DEMO_PASSWORD)).toBe("RateLimited");
    const contact = await pg.handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "liam@tasman.example")
      .executeTakeFirstOrThrow();
    const token = await issueToken(kiwi.businessId, contact.id, "password-reset");
    expect(
      await resetPassword(
        kiwi,
        { email: "liam@tasman.example", token, password: "another long password" },
        from("203.0.113.51"),
      ),
    ).toEqual({ ok: true });
    expect(await attemptKiwi("another long password")).toBe("ok");
  });
});
