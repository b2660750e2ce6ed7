import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../app/services/platform/db.server";
import { enqueue, jobIdFor, QUEUES } from "../../app/services/platform/queue.server";
import { createPostgresDatabase, createSeededPostgresDatabase, TEST_DATABASE_URL } from "../support/test-db";
import { SNAPSHOT_FILE } from "../support/snapshot";

/**
 * `npm run portal -- db backup` / `db restore` (scripts/portal/db-backup.ts; decision 048) as an operator runs
 * them: real processes, real pg_dump and pg_restore, scratch databases and folders made here and
 * dropped at the end.
 */
type Run = { code: number | null; stdout: string; stderr: string };

function run(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/portal.ts", "db", ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same rows, whatever the order they were written in: count and an md5 over every column that matters. */
const PAYMENTS_CHECKSUM = `
  SELECT count(*)::int AS n,
         coalesce(sum(amount_cents), 0)::bigint AS total,
         md5(coalesce(string_agg(
           concat_ws('|', id, business_id, account_id, request_guid, reference, method, status, amount_cents, created_at),
           ',' ORDER BY id), '')) AS digest
  FROM payments`;

/** Every table of the portal's and pg-boss's schemas with its row count, as one sorted list. */
const TABLE_COUNTS = `
  SELECT table_schema || '.' || table_name AS name,
         (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', table_schema, table_name), false, true, '')))[1]::text::int AS n
  FROM information_schema.tables
  WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'
  ORDER BY 1`;

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "portal-db-backup-"));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function writePayments(db: Db, count: number) {
  const account = await db.selectFrom("accounts").select(["id", "business_id"]).orderBy("id").executeTakeFirstOrThrow();
  for (let i = 0; i < count; i += 1) {
    await db
      .insertInto("payments")
      .values({
        business_id: account.business_id,
        account_id: account.id,
        request_guid: randomUUID(),
        request_hash: createHash("sha256").update(`backup-${i}`).digest("hex"),
        reference: `BKP-${randomBytes(4).toString("hex")}`,
        method: "promise",
        status: i % 2 === 0 ? "promised" : "failed",
        currency: "AUD",
        amount_cents: 10_000 + i * 137,
        subtotal_cents: 10_000 + i * 137,
        promise_date: "2026-12-01",
      })
      .execute();
  }
}

describe.skipIf(!TEST_DATABASE_URL)("portal db backup and db restore on PostgreSQL (TEST_DATABASE_URL)", () => {
  let source: Awaited<ReturnType<typeof createSeededPostgresDatabase>>;
  let jobId: string;
  let backup: Run;
  let restore: Run;
  const restoredName = `portal_test_restored_${randomBytes(4).toString("hex")}`;
  const neverMade = `portal_test_never_${randomBytes(4).toString("hex")}`;
  const dumpFile = () => path.join(scratch, "portal.dump");

  async function query<Row extends pg.QueryResultRow>(database: string, text: string): Promise<Row[]> {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  }
  const databaseExists = async (name: string) =>
    (await query("postgres", `SELECT 1 FROM pg_database WHERE datname = '${name}'`)).length === 1;
  const sourceName = () => new URL(source.url).pathname.slice(1);

  beforeAll(async () => {
    source = await createSeededPostgresDatabase();
    await writePayments(source.handle.db, 7);
    // A job waiting in the queue is part of the state a restore must bring back (the outbox's mail).
    jobId = (await enqueue(source.handle.db, QUEUES.email, { kind: "backup-test" }, { key: "backup-test" }))!;
    expect(jobId).toBe(jobIdFor(QUEUES.email, "backup-test"));
    // The operator's round trip, which every test below starts from: back up, restore into a new name.
    backup = await run(["backup", "--out", dumpFile()], { DATABASE_URL: source.url });
    restore = await run(["restore", "--from", dumpFile(), "--into", restoredName], { DATABASE_URL: source.url });
  });

  afterAll(async () => {
    await source?.drop();
    for (const name of [restoredName, neverMade]) {
      await query("postgres", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });

  it("backs up with pg_dump and restores into a new database with the same rows and the job queue", async () => {
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up portal_test_\w+ to .*portal\.dump \([\d.]+ KB, \d+ tables/);
    expect(fs.readFileSync(dumpFile()).subarray(0, 5).toString("latin1")).toBe("PGDMP");
    // Nothing left behind beside the dump (no partial file).
    expect(fs.readdirSync(scratch).filter((file) => file.startsWith("portal.dump"))).toEqual(["portal.dump"]);

    // The same file again is refused: a backup is never overwritten.
    const again = await run(["backup", "--out", dumpFile()], { DATABASE_URL: source.url });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");

    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`into database ${restoredName}`);

    const [before] = await query<{ n: number; total: string; digest: string }>(sourceName(), PAYMENTS_CHECKSUM);
    const [after] = await query<{ n: number; total: string; digest: string }>(restoredName, PAYMENTS_CHECKSUM);
    expect(before!.n).toBeGreaterThanOrEqual(7);
    expect(after).toEqual(before);
    expect(await query(restoredName, TABLE_COUNTS)).toEqual(await query(sourceName(), TABLE_COUNTS));

    // pg-boss came along: its version row, its queues, and the job that was waiting.
    const [version] = await query<{ version: number }>(restoredName, "SELECT version FROM pgboss.version");
    expect(version!.version).toBeGreaterThan(0);
    const queues = await query<{ name: string }>(restoredName, "SELECT name FROM pgboss.queue ORDER BY name");
    expect(queues.map((q) => q.name)).toEqual(expect.arrayContaining(Object.values(QUEUES)));
    const jobs = await query<{ state: string }>(
      restoredName,
      `SELECT state::text FROM pgboss.job WHERE id = '${jobId}'`,
    );
    expect(jobs).toEqual([{ state: "created" }]);
    // And the migrations ledger, so the portal starting on it applies nothing twice.
    const migrated = await query<{ n: number }>(restoredName, "SELECT count(*)::int AS n FROM schema_migrations");
    expect(migrated[0]!.n).toBeGreaterThan(0);
  });

  it("refuses to restore over a database that holds tables, and changes nothing", async () => {
    const [before] = await query(sourceName(), PAYMENTS_CHECKSUM);
    const refused = await run(["restore", "--from", dumpFile(), "--into", sourceName()], {
      DATABASE_URL: source.url,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`database ${sourceName()} is not empty`);
    expect(refused.stderr).toContain("--replace");
    expect(await query(sourceName(), PAYMENTS_CHECKSUM)).toEqual([before]);
  });

  it("with --replace, restores beside a database no one is using and swaps it in", async () => {
    await query(restoredName, "DELETE FROM payments WHERE reference LIKE 'BKP-%'");
    const replaced = await run(["restore", "--from", dumpFile(), "--into", restoredName, "--replace"], {
      DATABASE_URL: source.url,
    });
    expect(replaced.stderr).toBe("");
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`Replaced database ${restoredName}`);
    expect(await query(restoredName, PAYMENTS_CHECKSUM)).toEqual(await query(sourceName(), PAYMENTS_CHECKSUM));
  });

  it("refuses --replace while someone is connected to the database", async () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${restoredName}`;
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      const refused = await run(["restore", "--from", dumpFile(), "--into", restoredName, "--replace"], {
        DATABASE_URL: source.url,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("1 open connection(s)");
      expect((await holder.query("SELECT count(*)::int AS n FROM payments")).rows[0].n).toBeGreaterThan(0);
    } finally {
      await holder.end();
    }
  });

  it("a restore that fails part-way leaves nothing behind, and --replace leaves the old database as it was", async () => {
    // A dump pg_restore can read but not apply: an index on a function that reads another table
    // unqualified, which fails under the empty search_path pg_restore uses (a known pg_dump trap).
    const broken = await createPostgresDatabase();
    try {
      await broken.handle.scriptTransaction((tx) =>
        tx.exec(`CREATE TABLE other (x int); INSERT INTO other VALUES (1);
          CREATE FUNCTION plus_other(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x + $1 FROM other LIMIT 1';
          CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2); CREATE INDEX ON t (plus_other(a));`),
      );
      const brokenFile = path.join(scratch, "broken.dump");
      const dumped = await run(["backup", "--out", brokenFile], { DATABASE_URL: broken.url });
      expect(dumped.code).toBe(0);

      const fresh = await run(["restore", "--from", brokenFile, "--into", neverMade], { DATABASE_URL: source.url });
      expect(fresh.code).toBe(1);
      expect(fresh.stderr).toContain(`pg_restore failed; database ${neverMade} was removed again`);
      expect(fresh.stderr).toContain('relation "other" does not exist');
      expect(await databaseExists(neverMade)).toBe(false);

      const before = await query(restoredName, PAYMENTS_CHECKSUM);
      const over = await run(["restore", "--from", brokenFile, "--into", restoredName, "--replace"], {
        DATABASE_URL: source.url,
      });
      expect(over.code).toBe(1);
      expect(over.stderr).toContain(`pg_restore failed; database ${restoredName} is unchanged`);
      expect(await query(restoredName, PAYMENTS_CHECKSUM)).toEqual(before);
      const sideDatabases = await query(
        "postgres",
        "SELECT datname FROM pg_database WHERE datname LIKE '%_restoring_%'",
      );
      expect(sideDatabases).toEqual([]);
    } finally {
      await broken.drop();
    }
  });

  it("says clearly what is wrong with a missing, foreign or mismatched file, and creates no database", async () => {
    const env = { DATABASE_URL: source.url };
    const missing = await run(["restore", "--from", path.join(scratch, "nope.dump"), "--into", neverMade], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`${path.join(scratch, "nope.dump")} does not exist.\n`);

    const junkFile = path.join(scratch, "junk.dump");
    fs.writeFileSync(junkFile, "not a dump at all");
    const junk = await run(["restore", "--from", junkFile, "--into", neverMade], env);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain("is not a backup made by portal db backup");

    const truncatedFile = path.join(scratch, "truncated.dump");
    fs.writeFileSync(truncatedFile, fs.readFileSync(dumpFile()).subarray(0, 4096));
    const truncated = await run(["restore", "--from", truncatedFile, "--into", neverMade], env);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toContain("could not be read");

    const badName = await run(["restore", "--from", dumpFile(), "--into", "x; DROP DATABASE postgres"], env);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain("--into must be a database name");

    const noTarget = await run(["restore", "--from", dumpFile()], env);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain("exactly one of --into");

    // A server that is not there: the tool's own words, never the password in the URL.
    const unreachable = "postgres://portal:s3cret-pass@127.0.0.1:1/portal";
    const noServer = await run(["backup", "--out", path.join(scratch, "none.dump")], { DATABASE_URL: unreachable });
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toContain("pg_dump failed");
    expect(noServer.stderr).not.toContain("s3cret-pass");
    expect(fs.existsSync(path.join(scratch, "none.dump"))).toBe(false);
    const noRestoreServer = await run(["restore", "--from", dumpFile(), "--into", unreachable], {});
    expect(noRestoreServer.code).toBe(1);
    expect(noRestoreServer.stderr).toContain("ECONNREFUSED");
    expect(noRestoreServer.stderr).not.toContain("s3cret-pass");

    expect(await databaseExists(neverMade)).toBe(false);
  });
});

describe("portal db backup and db restore on the embedded database", () => {
  it("backs up DATA_DIR/pglite and restores it into another data folder; refuses to restore over one", async () => {
    const dataDir = path.join(scratch, "data");
    const folder = path.join(dataDir, "pglite");
    fs.mkdirSync(folder, { recursive: true });
    // The run's migrated and seeded snapshot, as a portal's data folder, with one payment more.
    const seeded = await PGlite.create(folder, { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) });
    const account = (
      await seeded.query<{ id: string; business_id: string }>("SELECT id, business_id FROM accounts LIMIT 1")
    ).rows[0]!;
    await seeded.query(
      `INSERT INTO payments (business_id, account_id, request_guid, request_hash, reference, method, status, currency,
         amount_cents, subtotal_cents, promise_date)
       VALUES ($1, $2, $3, $4, 'BKP-PGLITE', 'promise', 'promised', 'AUD', 4321, 4321, '2026-12-01')`,
      [account.business_id, account.id, randomUUID(), createHash("sha256").update("pglite").digest("hex")],
    );
    const before = (await seeded.query(PAYMENTS_CHECKSUM)).rows;
    await seeded.close();

    const archive = path.join(scratch, "pglite.tar.gz");
    const backup = await run(["backup", "--out", archive], { DATA_DIR: dataDir });
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);

    const restoredDir = path.join(scratch, "restored");
    const restore = await run(["restore", "--from", archive, "--into-data-dir", restoredDir], {});
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);

    const restored = await PGlite.create(path.join(restoredDir, "pglite"));
    try {
      expect((await restored.query(PAYMENTS_CHECKSUM)).rows).toEqual(before);
      expect((await restored.query("SELECT version FROM pgboss.version")).rows).toHaveLength(1);
    } finally {
      await restored.close();
    }

    const over = await run(["restore", "--from", archive, "--into-data-dir", dataDir], {});
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("already holds a database");
    // A PostgreSQL dump is not an embedded backup, nor the other way round.
    const wrongWay = await run(["restore", "--from", archive, "--into", "portal_anything"], {});
    expect(wrongWay.code).toBe(2);
    expect(wrongWay.stderr).toContain("restore it with --into-data-dir");

    const empty = await run(["backup"], { DATA_DIR: path.join(scratch, "no-data") });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("there is no embedded database");
    expect(fs.existsSync(path.join(scratch, "no-data", "pglite"))).toBe(false);
  });
});
