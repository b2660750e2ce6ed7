import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";
import { createPostgresDatabase, openEmptyPglite, TEST_DATABASE_URL } from "../tests/support/test-db";
import { migrations } from "./migrations/index";
import { DEMO_BUSINESSES, seedDemoData } from "./seed/demo";

/** Tables that are not tenant data: the tenant root itself and bookkeeping. */
// The sandbox gateway's tables stand in for the gateway's own storage, keyed by its tokens
// and our idempotency keys, not by tenant (decision 015).
const NOT_TENANT_DATA = new Set([
  "businesses",
  "schema_migrations",
  "sandbox_gateway_tokens",
  "sandbox_gateway_charges",
  // The PayTo sandbox's own records, standing in for the provider's storage (decision 027).
  "sandbox_payto_agreements",
  "sandbox_payto_payments",
  "sandbox_payto_payids",
  "sandbox_payto_incoming",
  "sandbox_payto_webhooks",
  // The sandboxes' fault switch (decision 046): one row for the whole stand-in, no tenant's data.
  "sandbox_faults",
]);

function migrationAndSeedSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, close } = await open());
  });
  afterAll(async () => {
    await close?.();
  });

  it("applies every migration on an empty database, then nothing the second time", async () => {
    expect(await migrate(handle)).toEqual(migrations.map((m) => m.name));
    expect(await migrate(handle)).toEqual([]);
    const rows = await handle.db.selectFrom("schema_migrations").select("name").orderBy("name").execute();
    expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name).sort());
  });

  it("gives every tenant table a business_id", async () => {
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(handle.db);
    const withBusiness = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'business_id'`.execute(handle.db);
    const has = new Set(withBusiness.rows.map((r) => r.table_name));
    const missing = tables.rows.map((r) => r.table_name).filter((t) => !NOT_TENANT_DATA.has(t) && !has.has(t));
    expect(missing).toEqual([]);
  });

  it("seeds the demo hosts once, with different brands, parent and child accounts", async () => {
    const created = await seedDemoData(handle.db);
    expect(created).toEqual(DEMO_BUSINESSES.flatMap((b) => b.hostnames));
    expect(await seedDemoData(handle.db)).toEqual([]);
    expect(await seedDemoData(handle.db, { onlyIfEmpty: true })).toEqual([]);

    const brands = await handle.db
      .selectFrom("hosts")
      .innerJoin("businesses", "businesses.id", "hosts.business_id")
      .select(["hosts.hostname", "businesses.theme", "businesses.name", "businesses.logo_directory"])
      .orderBy("hosts.hostname")
      .execute();
    expect(brands.map((b) => b.hostname)).toEqual(["acme.localhost", "harbour.localhost", "kiwi.localhost"]);
    expect(new Set(brands.map((b) => b.theme)).size).toBe(3);
    expect(new Set(brands.map((b) => b.name)).size).toBe(3);
    expect(new Set(brands.map((b) => b.logo_directory)).size).toBe(3);

    // Every child account's parent belongs to the same business.
    const children = await handle.db
      .selectFrom("accounts as child")
      .innerJoin("accounts as parent", "parent.id", "child.parent_account_id")
      .select(["child.business_id as childBusiness", "parent.business_id as parentBusiness"])
      .execute();
    expect(children.length).toBeGreaterThanOrEqual(2);
    for (const row of children) expect(row.childBusiness).toBe(row.parentBusiness);

    // Saved payment methods, each card backed by a sandbox-gateway token, one default per account.
    const cards = await handle.db
      .selectFrom("cards")
      .innerJoin("sandbox_gateway_tokens as t", "t.token", "cards.gateway_token")
      .select(["cards.account_id", "cards.is_default", "cards.last4", "t.last4 as tokenLast4"])
      .execute();
    expect(cards.length).toBeGreaterThanOrEqual(3);
    for (const card of cards) expect(card.last4).toBe(card.tokenLast4);
    const defaults = cards.filter((card) => card.is_default).map((card) => card.account_id);
    expect(new Set(defaults).size).toBe(defaults.length);
    const banks = await handle.db.selectFrom("bank_accounts").select(["country", "routing"]).execute();
    expect(banks.map((b) => b.country).sort()).toEqual(["AU", "NZ"]);

    // Contacts with and without portal access, and an unverified one.
    const contacts = await handle.db.selectFrom("contacts").select(["permissions", "verified_at"]).execute();
    expect(contacts.some((c) => c.permissions.includes("accessCustomerPortal"))).toBe(true);
    expect(contacts.some((c) => !c.permissions.includes("accessCustomerPortal"))).toBe(true);
    expect(contacts.some((c) => c.verified_at === null)).toBe(true);
  });

  it("rejects data that breaks the schema's rules", async () => {
    await expect(
      handle.db
        .insertInto("businesses")
        .values({ name: "Bad", theme: "hot-pink" as never })
        .execute(),
    ).rejects.toThrow();
    await expect(
      handle.db
        .insertInto("hosts")
        .values({ hostname: "UPPER.localhost", business_id: "00000000-0000-0000-0000-000000000000" })
        .execute(),
    ).rejects.toThrow();
  });
}

describe("migrations and seed on PGlite", () => {
  migrationAndSeedSuite(async () => {
    const handle = await openEmptyPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("migrations and seed on PostgreSQL (TEST_DATABASE_URL)", () => {
  migrationAndSeedSuite(async () => {
    const created = await createPostgresDatabase();
    return { handle: created.handle, close: created.drop };
  });

  it("two portal processes starting at once apply each migration exactly once", async () => {
    const created = await createPostgresDatabase();
    try {
      const { openPostgres } = await import("../app/services/platform/db.server");
      const other = openPostgres(created.url, { max: 2 });
      try {
        const [a, b] = await Promise.all([migrate(created.handle), migrate(other)]);
        expect([...a, ...b].sort()).toEqual(migrations.map((m) => m.name).sort());
      } finally {
        await other.close();
      }
    } finally {
      await created.drop();
    }
  });
});
