import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, type DatabaseHandle } from "../../app/services/platform/db.server";
import { migrate } from "../../app/services/platform/migrate.server";
import { enqueue, QUEUES, type QueueName } from "../../app/services/platform/queue.server";
import { createPostgresDatabase, TEST_DATABASE_URL } from "../support/test-db";

/**
 * The jobs CLI as an operator runs it (scripts/jobs.ts; decision 043): a real process on a
 * database seeded with jobs in every state that matters — failed (live and archived), active
 * past its expiry, retried many times, completed — on PostgreSQL (DATABASE_URL) and on a fresh
 * embedded database in a temporary DATA_DIR. Bad input is refused before the database is opened.
 */
function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/jobs.ts", ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        SESSION_SECRET: "cli-test-secret-cli-test-secret-0123456",
        NODE_ENV: "test",
        SEED_DEMO_DATA: "false",
        ...env,
      },
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

/** A CLI process starts in a second or two, but several helpers share this machine's two cores. */
const CLI_TIMEOUT = 180_000;

function cliSuite(setup: () => Promise<{ env: Record<string, string>; jobs: Seeded; cleanup: () => Promise<void> }>) {
  let env: Record<string, string>;
  let jobs: Seeded;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ env, jobs, cleanup } = await setup());
  });
  afterAll(async () => {
    await cleanup();
  });

  it(
    "list: jobs per queue and state, every queue shown",
    async () => {
      const result = await run(["list"], env);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^payment-reconcile +failed 1$/m);
      expect(result.stdout).toMatch(/^instalment-email +archived 1$/m);
      expect(result.stdout).toMatch(/^expiry-sweep +active 1$/m);
      expect(result.stdout).toMatch(/^payto-agreement-poll +no jobs$/m);
      const json = JSON.parse((await run(["list", "--json"], env)).stdout) as { queue: string; states: object }[];
      expect(json.find((q) => q.queue === "instalment-charge")?.states).toEqual({ retry: 1 });
    },
    CLI_TIMEOUT,
  );

  it(
    "failed: live and archived, with attempts and the last error's message (never its stack)",
    async () => {
      const result = await run(["failed"], env);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${jobs.failed}  payment-reconcile  failed  attempts 4 of 4`);
      expect(result.stdout).toContain("last error: gateway unavailable");
      expect(result.stdout).toContain(`${jobs.archived}  instalment-email  failed (archived)`);
      expect(result.stdout).not.toContain(jobs.completed);
      expect(result.stdout).not.toContain("secret/path");
    },
    CLI_TIMEOUT,
  );

  it(
    "stuck: active past its expiry, and retried many times; nothing else",
    async () => {
      const result = await run(["stuck"], env);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${jobs.stuck}  expiry-sweep  active`);
      expect(result.stdout).toContain(`${jobs.retried}  instalment-charge  retry  attempts 6 of 7`);
      expect(result.stdout).toContain("last error: gateway timed out");
      expect(result.stdout).not.toContain(jobs.failed);
      expect(result.stdout).not.toContain(jobs.completed);
    },
    CLI_TIMEOUT,
  );

  it(
    "show: one job in full, live or archived; its output without a stack",
    async () => {
      const shown = await run(["show", jobs.completed], env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`${jobs.completed}  payto-payment-poll  completed`);
      expect(shown.stdout).toContain('output: {"succeeded":2}');
      const failed = await run(["show", jobs.failed.toUpperCase()], env);
      expect(failed.code).toBe(0);
      expect(failed.stdout).toContain("gateway unavailable");
      expect(failed.stdout).not.toContain("secret/path");
      expect((await run(["show", jobs.archived], env)).stdout).toContain("(archived)");
    },
    CLI_TIMEOUT,
  );

  it(
    "retry: a failed job goes back to be tried; a second retry, a live job, an archived one and unknown ids change nothing",
    async () => {
      const retried = await run(["retry", jobs.failed], env);
      expect(retried.stderr).toBe("");
      expect(retried.code).toBe(0);
      expect(retried.stdout).toContain(`Job ${jobs.failed} (payment-reconcile) will be tried again`);
      expect(retried.stdout).toContain(`${jobs.failed}  payment-reconcile  retry`);
      const again = await run(["retry", jobs.failed], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("is retry: only a failed job can be retried. Nothing changed.");
      const live = await run(["retry", jobs.stuck], env);
      expect(live.code).toBe(1);
      expect(live.stderr).toContain("is active: only a failed job can be retried");
      const archived = await run(["retry", jobs.archived], env);
      expect(archived.code).toBe(1);
      expect(archived.stderr).toContain("is archived");
      const unknown = await run(["retry", "00000000-0000-4000-8000-000000000000"], env);
      expect(unknown).toMatchObject({ code: 1, stderr: "No job 00000000-0000-4000-8000-000000000000.\n" });
      expect((await run(["show", "00000000-0000-4000-8000-000000000000"], env)).code).toBe(1);
      // The failed list no longer has it; nothing else moved.
      expect((await run(["failed"], env)).stdout).not.toContain(jobs.failed);
      expect((await run(["stuck"], env)).stdout).toContain(jobs.stuck);
    },
    CLI_TIMEOUT,
  );
}

describe("bad input, refused before any database is opened", () => {
  // No DATABASE_URL and a DATA_DIR that must stay empty: a command that opened the database would create it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-jobs-cli-bad-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir };
  it.each([
    [["show", "nope"], /"nope" is not a job id \(a UUID/],
    [["retry", "1234"], /"1234" is not a job id/],
    [["retry", "'; DROP TABLE pgboss.job; --"], /is not a job id/],
    [["show"], /show takes one job id/],
    [["show", "00000000-0000-4000-8000-000000000000", "extra"], /show takes one job id/],
    [["list", "extra"], /list takes no arguments/],
    [["explode"], /Unknown command "explode"/],
    [["failed", "--limit", "0"], /--limit must be a whole number from 1 to 500/],
    [["list", "--limit", "5"], /list does not take --limit/],
    [["list", "--bogus"], /Unknown option '--bogus'/],
  ])("%j", async (args, message) => {
    const result = await run(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Run with --help");
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
  it("--help prints the commands", async () => {
    const result = await run(["--help"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("retry <id>");
  });
});

describe("on an embedded database (DATA_DIR)", () => {
  cliSuite(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-jobs-cli-"));
    // The portal's own folder layout; migrated here so the jobs can be seeded before the CLI opens it.
    const handle = await openPglite(path.join(dataDir, "pglite"));
    await migrate(handle);
    const jobs = await seedJobs(handle.db);
    await handle.close();
    return {
      env: { DATA_DIR: dataDir },
      jobs,
      cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (DATABASE_URL)", () => {
  cliSuite(async () => {
    const database = await createPostgresDatabase();
    await migrate(database.handle);
    const jobs = await seedJobs(database.handle.db);
    return { env: { DATABASE_URL: database.url }, jobs, cleanup: database.drop };
  });
});
