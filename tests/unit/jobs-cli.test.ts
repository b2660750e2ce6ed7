import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { isDatabaseOpen, setDatabaseForTesting } from "../../app/services/platform/database.server";
import { openPglite, type DatabaseHandle } from "../../app/services/platform/db.server";
import { resetEnvForTesting } from "../../app/services/platform/env.server";
import { migrate } from "../../app/services/platform/migrate.server";
import { enqueue, QUEUES, type QueueName } from "../../app/services/platform/queue.server";
import { runInProcess, runNpmScript } from "../support/cli";
import { createPostgresDatabase, TEST_DATABASE_URL } from "../support/test-db";

/**
 * `portal jobs …` as an operator runs it (scripts/portal/jobs.ts; decision 043), its commands run in-process
 * (issue 29) on a database seeded with jobs in every state that matters — failed (live and
 * archived), active past its expiry, retried many times, completed — on PostgreSQL (DATABASE_URL,
 * opened by each command) and on an embedded database in a temporary DATA_DIR; and once as
 * `npm run portal -- jobs`, a real process on that DATA_DIR. Bad input is refused before the database is opened.
 */
const run = (args: string[]) => runInProcess(["jobs", ...args]);

type Seeded = { failed: string; archived: string; stuck: string; retried: string; completed: string };

/** One job of each kind worth seeing, written as pg-boss writes them and then moved along. */
async function seedJobs(db: DatabaseHandle["db"]): Promise<Seeded> {
  const job = (queue: QueueName, key: string) =>
    db.transaction().execute(async (tx) => (await enqueue(tx, queue, { key }, { key }))!);
  const failed = await job(QUEUES.reconcile, "failed");
  await sql`
    UPDATE pgboss.job SET state = 'failed', retry_count = 3, started_on = now() - interval '5 minutes',
      completed_on = now() - interval '4 minutes',
      output = ${JSON.stringify({ name: "Error", message: "gateway unavailable", stack: "Error: gateway unavailable\n    at secret/path.ts:1" })}::jsonb
    WHERE id = ${failed}::uuid`.execute(db);
  const archived = await job(QUEUES.email, "archived");
  await sql`
    UPDATE pgboss.job SET state = 'failed', retry_count = 8, started_on = now() - interval '9 days',
      completed_on = now() - interval '8 days', output = '{"message":"mail server refused"}'::jsonb
    WHERE id = ${archived}::uuid`.execute(db);
  await sql`
    WITH moved AS (DELETE FROM pgboss.job WHERE id = ${archived}::uuid RETURNING *)
    INSERT INTO pgboss.archive SELECT *, now() FROM moved`.execute(db);
  const stuck = await job(QUEUES.expiry, "stuck");
  await sql`
    UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 hour', expire_in = interval '15 minutes'
    WHERE id = ${stuck}::uuid`.execute(db);
  const retried = await job(QUEUES.charge, "retried");
  await sql`
    UPDATE pgboss.job SET state = 'retry', retry_count = 5, started_on = now() - interval '2 minutes',
      start_after = now() + interval '10 minutes', output = '{"message":"gateway timed out"}'::jsonb
    WHERE id = ${retried}::uuid`.execute(db);
  const completed = await job(QUEUES.paytoPayments, "completed");
  await sql`
    UPDATE pgboss.job SET state = 'completed', started_on = now() - interval '1 minute', completed_on = now(),
      output = '{"succeeded":2}'::jsonb
    WHERE id = ${completed}::uuid`.execute(db);
  return { failed, archived, stuck, retried, completed };
}

/**
 * The commands against jobs seeded by `setup`, which also points the process at their database
 * (an installed handle, or DATABASE_URL) and returns how to undo that.
 */
function cliSuite(setup: () => Promise<{ jobs: Seeded; cleanup: () => Promise<void> }>) {
  let jobs: Seeded;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ jobs, cleanup } = await setup());
  });
  afterAll(async () => {
    await cleanup();
  });

  it("list: jobs per queue and state, every queue shown", async () => {
    const result = await run(["list"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^payment-reconcile +failed 1$/m);
    expect(result.stdout).toMatch(/^instalment-email +archived 1$/m);
    expect(result.stdout).toMatch(/^expiry-sweep +active 1$/m);
    expect(result.stdout).toMatch(/^payto-agreement-poll +no jobs$/m);
    const json = JSON.parse((await run(["list", "--json"])).stdout) as { queue: string; states: object }[];
    expect(json.find((q) => q.queue === "instalment-charge")?.states).toEqual({ retry: 1 });
  });

  it("failed: live and archived, with attempts and the last error's message (never its stack)", async () => {
    const result = await run(["failed"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${jobs.failed}  payment-reconcile  failed  attempts 4 of 4`);
    expect(result.stdout).toContain("last error: gateway unavailable");
    expect(result.stdout).toContain(`${jobs.archived}  instalment-email  failed (archived)`);
    expect(result.stdout).not.toContain(jobs.completed);
    expect(result.stdout).not.toContain("secret/path");
  });

  it("stuck: active past its expiry, and retried many times; nothing else", async () => {
    const result = await run(["stuck"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${jobs.stuck}  expiry-sweep  active`);
    expect(result.stdout).toContain(`${jobs.retried}  instalment-charge  retry  attempts 6 of 7`);
    expect(result.stdout).toContain("last error: gateway timed out");
    expect(result.stdout).not.toContain(jobs.failed);
    expect(result.stdout).not.toContain(jobs.completed);
  });

  it("show: one job in full, live or archived; its output without a stack", async () => {
    const shown = await run(["show", jobs.completed]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`${jobs.completed}  payto-payment-poll  completed`);
    expect(shown.stdout).toContain('output: {"succeeded":2}');
    const failed = await run(["show", jobs.failed.toUpperCase()]);
    expect(failed.code).toBe(0);
    expect(failed.stdout).toContain("gateway unavailable");
    expect(failed.stdout).not.toContain("secret/path");
    expect((await run(["show", jobs.archived])).stdout).toContain("(archived)");
  });

  it("retry: a failed job goes back to be tried; a second retry, a live job, an archived one and unknown ids change nothing", async () => {
    const retried = await run(["retry", jobs.failed]);
    expect(retried.stderr).toBe("");
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(`Job ${jobs.failed} (payment-reconcile) will be tried again`);
    expect(retried.stdout).toContain(`${jobs.failed}  payment-reconcile  retry`);
    const again = await run(["retry", jobs.failed]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is retry: only a failed job can be retried. Nothing changed.");
    const live = await run(["retry", jobs.stuck]);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain("is active: only a failed job can be retried");
    const archived = await run(["retry", jobs.archived]);
    expect(archived.code).toBe(1);
    expect(archived.stderr).toContain("is archived");
    const unknown = await run(["retry", "00000000-0000-4000-8000-000000000000"]);
    expect(unknown).toMatchObject({ code: 1, stderr: "No job 00000000-0000-4000-8000-000000000000.\n" });
    expect((await run(["show", "00000000-0000-4000-8000-000000000000"])).code).toBe(1);
    // The failed list no longer has it; nothing else moved.
    expect((await run(["failed"])).stdout).not.toContain(jobs.failed);
    expect((await run(["stuck"])).stdout).toContain(jobs.stuck);
  });
}

describe("bad input, refused before any database is opened", () => {
  // No database installed or configured, and a DATA_DIR that must stay empty: a command that
  // opened the database would create it there.
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-jobs-cli-bad-"));
    vi.stubEnv("DATA_DIR", dataDir);
    resetEnvForTesting();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetEnvForTesting();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    expect(isDatabaseOpen()).toBe(false);
  });
  it.each([
    [["show", "nope"], /"nope" is not a job id \(a UUID/],
    [["retry", "1234"], /"1234" is not a job id/],
    [["retry", "'; DROP TABLE pgboss.job; --"], /is not a job id/],
    // Counted by commander (decision 062), in its words.
    [["show"], /missing required argument 'id'/],
    [["show", "00000000-0000-4000-8000-000000000000", "extra"], /too many arguments for 'show'/],
    [["list", "extra"], /too many arguments for 'list'/],
    [["failed", "--limit", "0"], /--limit must be a whole number from 1 to 500/],
    [["list", "--limit", "5"], /unknown option '--limit'/],
    [["list", "--bogus"], /unknown option '--bogus'/],
  ])("%j", async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Run with --help");
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    expect(isDatabaseOpen()).toBe(false);
  });
  it("an unknown verb: exit code 2 and the verbs there are, the database never opened", async () => {
    const result = await run(["explode"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("error: unknown command 'explode'");
    expect(result.stderr).toContain("retry [options] <id>");
    expect(fs.readdirSync(dataDir)).toEqual([]);
    expect(isDatabaseOpen()).toBe(false);
  });
  it("--help prints the commands", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("retry [options] <id>");
  });
});

describe("on an embedded database (DATA_DIR)", () => {
  let dataDir: string;
  let jobs: Seeded;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-jobs-cli-"));
    // The portal's own folder layout; migrated here so the jobs can be seeded before the CLI opens it.
    const handle = await openPglite(path.join(dataDir, "pglite"));
    await migrate(handle);
    jobs = await seedJobs(handle.db);
    await handle.close();
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "npm run portal -- jobs failed, as a real process: opens DATA_DIR's database and exits 0",
    { timeout: 90_000 },
    async () => {
      const result = await runNpmScript(["jobs", "failed"], { DATA_DIR: dataDir });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${jobs.failed}  payment-reconcile  failed  attempts 4 of 4`);
    },
  );

  describe("in-process", () => {
    cliSuite(async () => {
      const handle = await openPglite(path.join(dataDir, "pglite"));
      setDatabaseForTesting(handle);
      return {
        jobs,
        cleanup: async () => {
          setDatabaseForTesting(undefined);
          await handle.close();
        },
      };
    });
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (DATABASE_URL)", () => {
  cliSuite(async () => {
    const database = await createPostgresDatabase();
    await migrate(database.handle);
    const jobs = await seedJobs(database.handle.db);
    // No database installed: each command opens the configured one and closes it again.
    vi.stubEnv("DATABASE_URL", database.url);
    resetEnvForTesting();
    return {
      jobs,
      cleanup: async () => {
        vi.unstubAllEnvs();
        resetEnvForTesting();
        await database.drop();
      },
    };
  });
});
