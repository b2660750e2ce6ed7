import path from "node:path";
import { openPglite, openPostgres, type DatabaseHandle, type Db } from "./db.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { migrate } from "./migrate.server";

/**
 * The process's database: opened on first use, migrated, and handed to the start-up step its
 * caller set (`onDatabaseReady`: the app and its CLIs seed a brand-new embedded database with the
 * demo hosts). Kept on globalThis so that a re-imported server build in development does not open
 * a second PGlite.
 */
type State = { ready: Promise<DatabaseHandle> };
const globalKey = Symbol.for("portal.database");
const store = globalThis as unknown as { [globalKey]?: State };

/** Runs once the database is open and migrated, before anyone uses it; a failure stops the open. */
export type DatabaseReadyStep = (handle: DatabaseHandle) => Promise<void>;

let readyStep: DatabaseReadyStep | undefined;

/**
 * Sets what is done with the database when this process opens it, after migrating: the platform
 * knows no data of the domains, so the process's start-up passes it in (entry.server.tsx, the
 * CLI's scripts/portal/cli.ts). Set it before the first use of the database.
 */
export function onDatabaseReady(step: DatabaseReadyStep | undefined) {
  readyStep = step;
}

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
    if (readyStep) await readyStep(handle);
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
