import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, inject } from "vitest";
import { openPostgres, PGLITE_PARSERS, pgliteHandle, type DatabaseHandle } from "../../app/services/platform/db.server";
import { setDatabaseForTesting } from "../../app/services/platform/database.server";
import { createDatabase, databaseUrl, dropDatabase, TEMPLATE_KEY } from "./pg-template";
import { SNAPSHOT_FILE } from "./snapshot";

/** A private embedded database with every migration and the demo data, from the run's snapshot. */
export async function openSeededPglite(): Promise<DatabaseHandle> {
  const snapshot = fs.readFileSync(SNAPSHOT_FILE);
  const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]), parsers: PGLITE_PARSERS });
  return pgliteHandle(pglite);
}

/**
 * A seeded embedded database as the app's for this file's tests: opened before them, closed after. Call it at
 * the top of a file or a describe; the handle is there from the first test on.
 */
export function seededPgliteForTests(): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await openSeededPglite();
    setDatabaseForTesting(handle);
  }, 120_000);
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await handle?.close();
  });
  return () => {
    if (!handle) throw new Error("seededPgliteForTests: the database opens in beforeAll; read it inside a test");
    return handle;
  };
}

/** An empty embedded database (no migrations): for the migration tests themselves. */
export async function openEmptyPglite(): Promise<DatabaseHandle> {
  return pgliteHandle(await PGlite.create({ parsers: PGLITE_PARSERS }));
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

if (!TEST_DATABASE_URL && !process.env.PORTAL_PG_SKIP_NOTED) {
  process.env.PORTAL_PG_SKIP_NOTED = "1";
  process.stderr.write("PostgreSQL tests SKIPPED: set TEST_DATABASE_URL to run them (see README).\n");
}

export type PostgresTestDatabase = {
  handle: DatabaseHandle;
  url: string;
  drop: () => Promise<void>;
};

/** The run's template database, provided by the global set-up; undefined outside such a run. */
function runTemplate(): string | undefined {
  try {
    return inject(TEMPLATE_KEY);
  } catch {
    return undefined;
  }
}

function testDatabaseName(): string {
  return `portal_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

async function openTestDatabase(template?: string): Promise<PostgresTestDatabase> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const serverUrl = TEST_DATABASE_URL;
  const name = testDatabaseName();
  await createDatabase(serverUrl, name, template);
  const url = databaseUrl(serverUrl, name);
  const handle = openPostgres(url, { max: 4 });
  return {
    handle,
    url,
    async drop() {
      await handle.close().catch(() => {});
      await dropDatabase(serverUrl, name);
    },
  };
}

/**
 * A brand-new, empty database on the TEST_DATABASE_URL server (no migrations), dropped by `drop()`:
 * for the migration tests and those that build their own schema.
 * Each test file gets its own, so runs never see each other's data.
 */
export async function createPostgresDatabase(): Promise<PostgresTestDatabase> {
  return openTestDatabase();
}

/**
 * A database with every migration and the demo data, cloned from the run's template (made once by
 * tests/support/global-setup.ts), dropped by `drop()`. Outside a Vitest run with that set-up, it is
 * migrated and seeded here instead, with the same result.
 */
export async function createSeededPostgresDatabase(): Promise<PostgresTestDatabase> {
  const template = runTemplate();
  if (template) return openTestDatabase(template);
  const database = await openTestDatabase();
  try {
    const [{ migrate }, { seedDemoData }] = await Promise.all([
      import("../../app/services/platform/migrate.server"),
      import("../../db/seed/demo"),
    ]);
    await migrate(database.handle);
    await seedDemoData(database.handle.db);
  } catch (error) {
    await database.drop().catch(() => {});
    throw error;
  }
  return database;
}

/** A handle whose every query fails the way an unreachable server does. */
export function openUnreachableDatabase(): DatabaseHandle {
  // Port 1 on loopback: nothing listens, so connecting is refused at once.
  return openPostgres("postgres://portal@127.0.0.1:1/unreachable", { max: 1 });
}
