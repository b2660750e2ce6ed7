import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import type { DB } from "./db-schema.server";
import { guardDialect } from "./db-unavailable.server";
import { logger } from "./logger.server";
import { countQuery } from "./request-scope.server";

export type Db = Kysely<DB>;

/** A script runner inside one transaction: plain SQL scripts plus parameterised queries. */
export type ScriptTransaction = {
  exec(script: string): Promise<void>;
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
};

/**
 * One open database: Kysely for queries (each one counted for the request that sent it:
 * request-scope.server.ts), plus the raw driver for multi-statement
 * migration scripts (Kysely sends one statement per query).
 */
export type DatabaseHandle = {
  kind: "pglite" | "postgres";
  db: Db;
  /**
   * The embedded database itself (PGlite only): the job queue's adapter runs pg-boss's
   * multi-statement scripts on it, inside Kysely's connection lock (queue.server.ts).
   */
  pglite?: PGlite;
  scriptTransaction<T>(fn: (tx: ScriptTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

// Return PostgreSQL bigint (int8) as a JS number: money is integer cents and stays far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));
// A calendar date stays the "YYYY-MM-DD" text it is: turned into a Date it would pick up the
// server's time zone and could move by a day.
const DATE_OID = 1082;
pg.types.setTypeParser(DATE_OID, (value) => value);

/** PGlite reads types the same way as `pg` above. Use for every PGlite.create. */
export const PGLITE_PARSERS = {
  20: (value: string) => Number(value),
  [DATE_OID]: (value: string) => value,
};

export type PostgresOptions = {
  max?: number;
  /** How long to wait for a connection (decision 046: fail fast when the database is lost). */
  connectTimeoutMs?: number;
  /** The most one statement may run (unset: no limit); migration scripts are never limited. */
  statementTimeoutMs?: number;
};

export function openPostgres(connectionString: string, options: PostgresOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // A connection the server ends (pg_terminate_backend, a restart, a network cut) must not crash
  // the process. Idle clients report through the pool; a client checked out between two queries
  // (inside a transaction) reports on itself, and with no listener Node would throw. Its next
  // query fails instead (DatabaseUnavailableError: a 503), and the pool drops it on release.
  pool.on("error", (error) => logger.warn("database connection lost (idle)", { error }));
  pool.on("connect", (client) => {
    client.on("error", (error) => logger.warn("database connection lost", { error }));
  });
  const db = new Kysely<DB>({ dialect: guardDialect(new PostgresDialect({ pool })), log: countQuery });
  return {
    kind: "postgres",
    db,
    async scriptTransaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        // Migrations and the queue's maintenance may take longer than any page's statement.
        if (options.statementTimeoutMs) await client.query("SET LOCAL statement_timeout = 0");
        const result = await fn({
          async exec(script) {
            await client.query(script);
          },
          async query(text, params = []) {
            return (await client.query(text, params)).rows;
          },
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await db.destroy();
    },
  };
}

export async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const pglite = await PGlite.create(dataDir, { parsers: PGLITE_PARSERS });
  return pgliteHandle(pglite);
}

export function pgliteHandle(pglite: PGlite): DatabaseHandle {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite), log: countQuery });
  return {
    kind: "pglite",
    db,
    pglite,
    scriptTransaction(fn) {
      return pglite.transaction((tx) =>
        fn({
          async exec(script) {
            await tx.exec(script);
          },
          async query(text, params = []) {
            return (await tx.query(text, params)).rows as never[];
          },
        }),
      );
    },
    async close() {
      // Kysely's PGlite driver closes the PGlite instance on destroy.
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** Health check used by the heartbeat: one round trip, bounded in time. */
export async function pingDatabase(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("database ping timed out")), timeoutMs);
    });
    const result = await Promise.race([db.selectNoFrom((eb) => eb.lit(1).as("ok")).execute(), timeout]);
    return result[0]?.ok === 1;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
