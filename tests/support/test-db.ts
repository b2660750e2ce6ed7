import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { openPostgres, PGLITE_PARSERS, pgliteHandle, type DatabaseHandle } from "../../app/services/platform/db.server";
import { SNAPSHOT_FILE } from "./snapshot";

/** A private embedded database with every migration and the demo data, from the run's snapshot. */
export async function openSeededPglite(): Promise<DatabaseHandle> {
  const snapshot = fs.readFileSync(SNAPSHOT_FILE);
  const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]), parsers: PGLITE_PARSERS });
  return pgliteHandle(pglite);
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

/**
 * A brand-new database on the TEST_DATABASE_URL server, dropped by `drop()`.
 * Each test file gets its own, so runs never see each other's data.
 */
export async function createPostgresDatabase(): Promise<{
  handle: DatabaseHandle;
  url: string;
  drop: () => Promise<void>;
}> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `portal_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), { max: 4 });
  return {
    handle,
    url: url.toString(),
    async drop() {
      await handle.close().catch(() => {});
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** A handle whose every query fails the way an unreachable server does. */
export function openUnreachableDatabase(): DatabaseHandle {
  // Port 1 on loopback: nothing listens, so connecting is refused at once.
  return openPostgres("postgres://portal@127.0.0.1:1/unreachable", { max: 1 });
}
