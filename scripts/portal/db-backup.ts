/**
 * `portal db backup` and `portal db restore` (issue 18; decision 048): a logical copy of the portal's
 * database, and that copy put back into a database of its own.
 *
 * PostgreSQL (DATABASE_URL set): pg_dump's custom format, taken in one transaction (a consistent snapshot
 * while the portal keeps running), and pg_restore in one transaction into a named database, so a restore
 * that fails half-way leaves nothing behind. The embedded database (DATA_DIR/pglite): PGlite's own
 * `dumpDataDir` (a gzipped tar of its data folder), with the portal stopped, since that folder belongs to
 * one process at a time.
 *
 * The client tools come from PATH (Debian: apt-get install postgresql-client), or from PG_BIN_DIR when the
 * server is newer than the packaged ones (pg_dump refuses a server newer than itself).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { ConfigurationError, parseEnv } from "../../app/services/platform/env.server";
import { Refusal, UsageError, type CliOutput } from "./cli";

/** A backup or restore that could not be done: exit code 1, its message as it is. */
class BackupError extends Refusal {}

/** A connection string without its password (which goes to the tools as PGPASSWORD), for arguments and messages. */
function withoutPassword(connection: string): { url: string; password?: string } {
  const url = new URL(connection);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = "";
  return { url: url.toString(), password };
}

/** The same server, another database. */
function onDatabase(connection: string, database: string): string {
  const url = new URL(connection);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

function databaseNameOf(connection: string): string {
  return decodeURIComponent(new URL(connection).pathname.replace(/^\//, "")) || "postgres";
}

// Created and dropped by name, so only plain names: no quoting games, no surprises in a shell.
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function utcStamp(date = new Date()) {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

function tool(name: "pg_dump" | "pg_restore") {
  const dir = process.env.PG_BIN_DIR?.trim();
  return dir ? path.join(dir, name) : name;
}

type Run = { code: number; stdout: string; stderr: string };

/** Runs a client tool; the password travels in the environment, never on the command line. */
function runTool(name: "pg_dump" | "pg_restore", args: string[], password?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool(name), args, {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${tool(name)} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), the server's major version or newer, or set PG_BIN_DIR to their folder.`,
            )
          : error,
      );
    });
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The tool's own words, trimmed to the end that says what went wrong. */
function toolMessage(run: Run) {
  const lines = run.stderr.trim().split("\n").filter(Boolean);
  return lines.slice(-12).join("\n") || `exit code ${run.code}: the file is damaged or not a dump`;
}

function reserveOutput(out: string) {
  if (fs.existsSync(out))
    throw new BackupError(`${out} already exists: choose another --out (a backup is never overwritten).`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  return `${out}.partial-${process.pid}`;
}

function sizeOf(file: string) {
  const bytes = fs.statSync(file).size;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

async function backupPostgres(stdout: CliOutput, connection: string, out: string | undefined) {
  const target = out ?? path.join("backups", `portal-${databaseNameOf(connection)}-${utcStamp()}.dump`);
  const partial = reserveOutput(target);
  const { url, password } = withoutPassword(connection);
  const started = Date.now();
  try {
    // pg_dump reads everything in one repeatable-read transaction: the file is the database at one
    // instant, jobs and payments alike, while the portal keeps writing. It waits at most a minute for
    // its share locks (a migration holding one would otherwise stall it for as long).
    const dump = await runTool(
      "pg_dump",
      ["--format=custom", "--lock-wait-timeout=60000", `--file=${partial}`, `--dbname=${url}`],
      password,
    );
    if (dump.code !== 0) throw new BackupError(`pg_dump failed:\n${toolMessage(dump)}`);
    // Read the file back: a dump pg_restore cannot list is no backup.
    const list = await runTool("pg_restore", ["--list", partial]);
    if (list.code !== 0) throw new BackupError(`the dump could not be read back:\n${toolMessage(list)}`);
    const tables = list.stdout.split("\n").filter((line) => / TABLE DATA /.test(line)).length;
    fs.renameSync(partial, target);
    stdout.write(
      `Backed up ${databaseNameOf(connection)} to ${target} (${sizeOf(target)}, ${tables} tables, ${((Date.now() - started) / 1000).toFixed(1)} s).\n`,
    );
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

function pgliteFolder(dataDir: string) {
  return path.join(path.resolve(dataDir), "pglite");
}

async function backupPglite(stdout: CliOutput, dataDir: string, out: string | undefined) {
  const folder = pgliteFolder(dataDir);
  // Opening a folder that holds no database would make a new, empty one: refuse instead.
  if (!fs.existsSync(path.join(folder, "PG_VERSION"))) {
    throw new BackupError(
      `there is no embedded database in ${folder}: set DATA_DIR to the portal's data folder (or DATABASE_URL for PostgreSQL).`,
    );
  }
  const target = out ?? path.join("backups", `portal-pglite-${utcStamp()}.tar.gz`);
  const partial = reserveOutput(target);
  try {
    const pglite = await PGlite.create(folder);
    try {
      const archive = await pglite.dumpDataDir("gzip");
      fs.writeFileSync(partial, Buffer.from(await archive.arrayBuffer()));
    } finally {
      await pglite.close();
    }
    fs.renameSync(partial, target);
    stdout.write(`Backed up the embedded database in ${folder} to ${target} (${sizeOf(target)}).\n`);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

type BackupKind = "custom" | "pglite";

/** What a file is, from its first bytes; anything else is refused before any database is touched. */
function backupKind(file: string): BackupKind {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new BackupError(`${file} does not exist.`);
  }
  if (!stat.isFile()) throw new BackupError(`${file} is not a file.`);
  const head = Buffer.alloc(5);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, 5, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString("latin1") === "PGDMP") return "custom";
  if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
  throw new BackupError(
    `${file} is not a backup made by portal db backup (neither a pg_dump custom-format file nor an embedded database's .tar.gz).`,
  );
}

/** Tables, views and sequences outside PostgreSQL's own schemas: a database with any is not "empty". */
async function userRelations(connection: string): Promise<number> {
  const client = new pg.Client({ connectionString: connection });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
         AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function restorePostgres(stdout: CliOutput, file: string, into: string, replace: boolean) {
  let connection: string;
  if (/^postgres(ql)?:\/\//.test(into)) {
    connection = into;
  } else {
    if (!DATABASE_NAME.test(into)) {
      throw new UsageError(`--into must be a database name (letters, digits and _, at most 63) or a postgres:// URL.`);
    }
    const env = readEnv();
    if (!env.DATABASE_URL) {
      throw new UsageError(
        "--into names a database on the DATABASE_URL server, and DATABASE_URL is not set: set it, or give a postgres:// URL.",
      );
    }
    connection = onDatabase(env.DATABASE_URL, into);
  }
  const name = databaseNameOf(connection);
  if (!DATABASE_NAME.test(name)) throw new UsageError(`the database name "${name}" is not a plain name.`);
  if (name === "postgres" || name.startsWith("template")) {
    throw new UsageError(`${name} is one of PostgreSQL's own databases: restore into a database of the portal's.`);
  }

  // The file is read before anything changes: an unreadable one stops here.
  const list = await runTool("pg_restore", ["--list", file]);
  if (list.code !== 0) throw new BackupError(`${file} could not be read:\n${toolMessage(list)}`);

  const admin = new pg.Client({ connectionString: onDatabase(connection, "postgres") });
  await admin.connect();
  const openConnections = async (database: string) => {
    const result = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [database],
    );
    return result.rows[0]?.n ?? 0;
  };
  const refuseWhileOpen = async () => {
    const open = await openConnections(name);
    if (open > 0) {
      throw new BackupError(
        `database ${name} has ${open} open connection(s): stop the portal processes (and anything else using it) before --replace. Nothing was changed.`,
      );
    }
  };
  try {
    const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
    const relations = exists ? await userRelations(connection) : 0;
    if (relations > 0 && !replace) {
      throw new BackupError(
        `database ${name} is not empty (${relations} tables, views or sequences): restore into a new name, or add --replace to drop it and restore in its place.`,
      );
    }
    if (relations > 0) await refuseWhileOpen();

    // --replace restores beside the old database and swaps only once the restore has succeeded:
    // a bad file, or a restore that fails half-way, leaves the old database as it was.
    const replacing = relations > 0;
    const target = replacing ? `${name.slice(0, 40)}_restoring_${process.pid.toString(36)}` : name;
    const made = replacing || !exists;
    if (made) await admin.query(`CREATE DATABASE ${quoteIdent(target)} TEMPLATE template0`);

    const { url, password } = withoutPassword(onDatabase(connection, target));
    const started = Date.now();
    // One transaction: a restore that fails part-way leaves the database as empty as it was.
    // Owners and grants are the restoring role's: a managed server's roles differ between accounts.
    const restore = await runTool(
      "pg_restore",
      ["--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges", `--dbname=${url}`, file],
      password,
    );
    if (restore.code !== 0) {
      if (made) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(target)}`).catch(() => {});
      const outcome = replacing
        ? `database ${name} is unchanged`
        : made
          ? `database ${name} was removed again`
          : `database ${name} is as empty as it was`;
      throw new BackupError(`pg_restore failed; ${outcome}:\n${toolMessage(restore)}`);
    }
    if (replacing) {
      // Someone may have connected while the restore ran: then the old database stays.
      try {
        await refuseWhileOpen();
      } catch (error) {
        await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(target)}`).catch(() => {});
        throw error;
      }
      await admin.query(`DROP DATABASE ${quoteIdent(name)}`);
      await admin.query(`ALTER DATABASE ${quoteIdent(target)} RENAME TO ${quoteIdent(name)}`);
      stdout.write(`Replaced database ${name} (--replace): the old one was dropped.\n`);
    }
    const restored = await userRelations(connection);
    stdout.write(
      `Restored ${file} into database ${name} (${restored} tables, views and sequences, ${((Date.now() - started) / 1000).toFixed(1)} s).\n` +
        "Point DATABASE_URL at it and start the portal: start-up applies any migration newer than the backup.\n",
    );
  } finally {
    await admin.end();
  }
}

async function restorePglite(stdout: CliOutput, file: string, dataDir: string, replace: boolean) {
  const folder = pgliteFolder(dataDir);
  let movedAside: string | undefined;
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
    if (!replace) {
      throw new BackupError(
        `${folder} already holds a database: restore into another --into-data-dir, or add --replace to move it aside.`,
      );
    }
    movedAside = `${folder}.replaced-${utcStamp()}`;
    fs.renameSync(folder, movedAside);
  }
  fs.mkdirSync(folder, { recursive: true });
  try {
    const archive = new Blob([fs.readFileSync(file)]);
    const pglite = await PGlite.create(folder, { loadDataDir: archive });
    try {
      const result = await pglite.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
      );
      stdout.write(`Restored ${file} into ${folder} (${result.rows[0]?.n ?? 0} tables).\n`);
    } finally {
      await pglite.close();
    }
    if (movedAside) stdout.write(`The database that was there is in ${movedAside}.\n`);
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true });
    if (movedAside) fs.renameSync(movedAside, folder);
    throw new BackupError(
      `the embedded backup could not be restored (${error instanceof Error ? error.message : String(error)}); ${folder} is as it was.`,
    );
  }
}

function readEnv() {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}

/** `portal db backup`: DATABASE_URL's database with pg_dump, or the embedded one as a .tar.gz. */
export async function backup(stdout: CliOutput, options: { out?: string }): Promise<void> {
  const env = readEnv();
  if (env.DATABASE_URL) await backupPostgres(stdout, env.DATABASE_URL, options.out);
  else await backupPglite(stdout, env.DATA_DIR, options.out);
}

export type RestoreOptions = { from?: string; into?: string; intoDataDir?: string; replace?: boolean };

/** `portal db restore`: a dump into a PostgreSQL database, or an embedded backup into a data folder. */
export async function restore(stdout: CliOutput, options: RestoreOptions): Promise<void> {
  if (!options.from) throw new UsageError("db restore needs --from <backup file>.");
  if (Boolean(options.into) === Boolean(options.intoDataDir)) {
    throw new UsageError("db restore needs exactly one of --into <database> and --into-data-dir <folder>.");
  }
  const kind = backupKind(options.from);
  if (options.into) {
    if (kind !== "custom") {
      throw new UsageError(
        `${options.from} is an embedded database's backup: restore it with --into-data-dir <folder>.`,
      );
    }
    await restorePostgres(stdout, options.from, options.into, options.replace === true);
  } else {
    if (kind !== "pglite") {
      throw new UsageError(`${options.from} is a PostgreSQL dump: restore it with --into <database>.`);
    }
    await restorePglite(stdout, options.from, options.intoDataDir!, options.replace === true);
  }
}
