/**
 * `portal db …`: the portal's database from the command line.
 *
 * - `migrate` applies pending migrations to the configured database (DATABASE_URL, or the embedded one
 *   in DATA_DIR). Safe while other portal processes start against the same PostgreSQL: migrations take
 *   an advisory lock.
 * - `seed` migrates, then adds the demo hosts that are not there yet; existing hosts are left untouched,
 *   so it can run any number of times.
 * - `backup` and `restore`: scripts/portal/db-backup.ts (decision 048).
 *
 * The embedded database belongs to one process at a time: stop the portal first.
 */
import path from "node:path";
import type { Command } from "commander";
import type { DatabaseHandle } from "../../app/services/platform/db.server";
import { getEnv } from "../../app/services/platform/env.server";
import { runVerb, verb, type Run } from "./cli";
import { backup, restore, type RestoreOptions } from "./db-backup";

/** The configured database, opened for this command alone and closed after it. */
async function withOwnDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const { openPglite, openPostgres } = await import("../../app/services/platform/db.server");
  const env = getEnv();
  const handle = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL)
    : await openPglite(path.join(env.DATA_DIR, "pglite"));
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

/** The verbs of `portal db`. */
export function addDbVerbs(noun: Command, run: Run): void {
  const { out, io } = run;

  runVerb(verb(noun, "migrate", "apply pending migrations to the configured database"), run, async () => {
    const { migrate } = await import("../../app/services/platform/migrate.server");
    const applied = await withOwnDatabase((handle) => migrate(handle));
    out(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.");
    return 0;
  });

  runVerb(verb(noun, "seed", "migrate, then add the demo hosts that are missing (safe to repeat)"), run, async () => {
    const { migrate } = await import("../../app/services/platform/migrate.server");
    const { seedDemoData } = await import("../../db/seed/demo");
    const created = await withOwnDatabase(async (handle) => {
      await migrate(handle);
      return seedDemoData(handle.db);
    });
    out(
      created.length ? `Seeded demo hosts: ${created.join(", ")}` : "Demo hosts were already there; nothing changed.",
    );
    return 0;
  });

  const backupCommand = verb(noun, "backup", "a consistent copy of the configured database in a file")
    .option("--out <file>", "where to write it (default: backups/portal-<database>-<UTC time>.dump or .tar.gz)")
    .addHelpText(
      "after",
      `
PostgreSQL (DATABASE_URL): pg_dump, custom format, one consistent snapshot; the portal may keep running.
Embedded (no DATABASE_URL): DATA_DIR/pglite as a .tar.gz; stop the portal first.
An existing file is never overwritten. PG_BIN_DIR names the folder of pg_dump and pg_restore when they
are not the ones on PATH.`,
    );
  runVerb(
    backupCommand,
    run,
    async (options: { out?: string }) => {
      await backup(io.stdout, options);
      return 0;
    },
    { usesDatabase: false },
  );

  const restoreCommand = verb(noun, "restore", "put a backup back into a database of its own")
    .usage("--from <file> (--into <database name | postgres:// URL> | --into-data-dir <folder>) [--replace]")
    .option("--from <file>", "the backup file (required)")
    .option("--into <database>", "a database name on the DATABASE_URL server, or a postgres:// URL (for a .dump)")
    .option("--into-data-dir <folder>", "a data folder, restored as <folder>/pglite (for an embedded .tar.gz)")
    .option("--replace", "restore over a database that holds tables (or move an embedded one aside)")
    .addHelpText(
      "after",
      `
A .dump goes into that database (created when it does not exist). One that already holds tables is refused
unless --replace: then the backup is restored beside it and swapped in once the restore has succeeded, and
only while no one is connected to it. An embedded .tar.gz becomes <folder>/pglite (start the portal with
DATA_DIR=<folder>); an existing one is refused unless --replace, which moves it aside, never deletes it.`,
    );
  runVerb(
    restoreCommand,
    run,
    async (options: RestoreOptions) => {
      await restore(io.stdout, options);
      return 0;
    },
    { usesDatabase: false },
  );
}
