import path from "node:path";
import { seedDemoData } from "../../../db/seed/demo";
import { openPglite, openPostgres, type DatabaseHandle, type Db } from "./db.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { migrate } from "./migrate.server";

/**
 * The process's database: opened on first use, migrated, and (for a brand-new
 * embedded database) seeded with the demo hosts. Kept on globalThis so that a
 * re-imported server build in development does not open a second PGlite.
 */
type State = { ready: Promise<DatabaseHandle> };
const globalKey = Symbol.for("portal.database");
const store = globalThis as unknown as { [globalKey]?: State };

async function openConfigured(): Promise<DatabaseHandle> {
  const env = getEnv();
  const handle = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL, {
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      })
    : await openPglite(path.join(env.DATA_DIR, "pglite"));
  try {
    const applied = await migrate(handle);
    if (applied.length > 0) logger.info("database migrated", { applied, kind: handle.kind });
    if (handle.kind === "pglite" && env.SEED_DEMO_DATA) {
      const seeded = await seedDemoData(handle.db, { onlyIfEmpty: true });
      if (seeded.length > 0) logger.info("demo data seeded", { hosts: seeded });
    }
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

export function getDatabaseHandle(): Promise<DatabaseHandle> {
  let state = store[globalKey];
  if (!state) {
    const ready = openConfigured();
    state = { ready };
    store[globalKey] = state;
    // A failed start must not stick: the next caller tries again.
    ready.catch(() => {
      if (store[globalKey] === state) delete store[globalKey];
    });
  }
  return state.ready;
}

export async function getDb(): Promise<Db> {
  return (await getDatabaseHandle()).db;
}

/** Whether this process has opened (or is opening) its database. */
export function isDatabaseOpen(): boolean {
  return store[globalKey] !== undefined;
}

/**
 * Closes the process's database and forgets it, so the next use opens it again: a CLI command
 * run in-process (scripts/portal/) closes the database it opened.
 */
export async function closeDatabase(): Promise<void> {
  const state = store[globalKey];
  if (!state) return;
  delete store[globalKey];
  await state.ready.then((handle) => handle.close()).catch(() => {});
}

/** Tests point the portal at a database they opened themselves. */
export function setDatabaseForTesting(handle: DatabaseHandle | undefined) {
  if (handle) store[globalKey] = { ready: Promise.resolve(handle) };
  else delete store[globalKey];
}
