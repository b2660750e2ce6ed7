import { sql } from "kysely";
import { afterAll, describe, expect, inject, it } from "vitest";
import { migrations } from "../../db/migrations/index";
import { DEMO_BUSINESSES } from "../../db/seed/demo";
import {
  createDatabase,
  dropDatabase,
  dropStaleTemplates,
  STALE_TEMPLATE_AGE_MS,
  TEMPLATE_KEY,
  templateCreatedAt,
  templateName,
  withAdmin,
} from "./pg-template";
import { createSeededPostgresDatabase, TEST_DATABASE_URL } from "./test-db";

/** The run's PostgreSQL template (issue 29, "Fast set-up"): made once, cloned per file, cleaned up. */
describe("template names", () => {
  it("carry when they were made, and nothing else parses as one", () => {
    const made = Date.UTC(2026, 0, 2, 3, 4, 5);
    const name = templateName(made);
    expect(name).toMatch(/^portal_template_[0-9a-z]+_[0-9a-f]{8}$/);
    expect(templateCreatedAt(name)).toBe(made);
    expect(templateCreatedAt("portal_template_prod")).toBeUndefined();
    expect(templateCreatedAt("portal_test_abc_0123abcd")).toBeUndefined();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the run's template on PostgreSQL (TEST_DATABASE_URL)", () => {
  const server = TEST_DATABASE_URL!;
  const made: string[] = [];
  afterAll(async () => {
    for (const name of made) await dropDatabase(server, name).catch(() => {});
  });

  async function databaseNames(): Promise<string[]> {
    return withAdmin(server, async (admin) =>
      (await admin.query<{ datname: string }>("SELECT datname FROM pg_database")).rows.map((row) => row.datname),
    );
  }

  it("is provided by the global set-up, exists, and nobody is connected to it", async () => {
    const template = inject(TEMPLATE_KEY);
    expect(template).toMatch(/^portal_template_/);
    expect(await databaseNames()).toContain(template);
    const sessions = await withAdmin(
      server,
      async (admin) => (await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1", [template])).rowCount,
    );
    expect(sessions).toBe(0);
  });

  it("clones into seeded databases, several at once", async () => {
    const clones = await Promise.all([1, 2, 3].map(() => createSeededPostgresDatabase()));
    try {
      for (const clone of clones) {
        const businesses = await clone.handle.db.selectFrom("businesses").select("name").execute();
        expect(businesses.map((row) => row.name)).toEqual(
          expect.arrayContaining(DEMO_BUSINESSES.map((demo) => demo.name)),
        );
        const applied = await sql<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`.execute(
          clone.handle.db,
        );
        expect(applied.rows[0]!.n).toBe(migrations.length);
      }
    } finally {
      await Promise.all(clones.map((clone) => clone.drop()));
    }
  });

  it("drops only templates more than a day old, never a live run's or another name", async () => {
    const now = Date.now();
    const stale = templateName(now - STALE_TEMPLATE_AGE_MS - 60_000);
    const live = templateName(now - 60_000);
    const other = `portal_template_keep_${now.toString(36)}`;
    for (const name of [stale, live, other]) {
      await createDatabase(server, name);
      made.push(name);
    }
    expect(await dropStaleTemplates(server, now)).toContain(stale);
    const names = await databaseNames();
    expect(names).not.toContain(stale);
    expect(names).toContain(live);
    expect(names).toContain(other);
    expect(names).toContain(inject(TEMPLATE_KEY));
  });
});
