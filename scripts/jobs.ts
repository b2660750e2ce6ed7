/**
 * The jobs CLI (issue 18; decision 043): what the background queues hold, the failed and stuck
 * jobs, one job in full, and a failed job tried again. It opens the database the portal is
 * configured with: DATABASE_URL, or the embedded one in DATA_DIR (default ./data), which belongs
 * to one process — stop `npm start` first.
 *
 *   npm run jobs -- list
 *   npm run jobs -- failed
 *   npm run jobs -- stuck
 *   npm run jobs -- show <job id>
 *   npm run jobs -- retry <job id>
 */
import { parseArgs } from "node:util";
import { isScript, lineWriter, runCommand, UsageError, type CliIo, type Out } from "./cli-entry";

// Run as a script, before the services load: their log lines would otherwise mix with this command's output.
if (isScript(import.meta.url)) process.env.LOG_LEVEL ??= "warn";

const { closeDatabase, getDatabaseHandle, isDatabaseOpen } = await import("../app/services/platform/database.server");
const admin = await import("../app/services/platform/jobs-admin.server");

const USAGE = `Background jobs (npm run jobs -- <command> [options]):

  list               jobs per queue and state (created, retry, active, completed, failed, cancelled),
                     and how many each queue has archived
  failed [--limit N] failed jobs, newest first: id, queue, attempts, last error, dates
  stuck  [--limit N] jobs active for longer than their expiry (their worker died or hangs), or
                     tried ${admin.STUCK_AFTER_RETRIES} times or more and not finished
  show <id>          one job: its state, attempts, data, output (or last error) and dates
  retry <id>         a failed job, tried once more as soon as a worker fetches it

Options: --json (machine-readable), --limit (1-500, default 50).
The database is the portal's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data;
stop the portal first).`;

class NotFound extends Error {}

const when = (value: Date | null) => (value ? value.toISOString() : "-");

function printSummary(out: Out, job: import("../app/services/platform/jobs-admin.server").JobSummary) {
  out(
    `${job.id}  ${job.queue}  ${job.state}${job.archived ? " (archived)" : ""}  attempts ${job.attempts} of ${job.retryLimit + 1}`,
  );
  out(
    `  created ${when(job.createdOn)}  started ${when(job.startedOn)}  ${job.completedOn ? `ended ${when(job.completedOn)}` : `next try after ${when(job.startAfter)}`}`,
  );
  if (job.lastError) out(`  last error: ${job.lastError}`);
}

function jobId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command} takes one job id.`);
  const id = positionals[0]!.trim();
  if (!admin.JOB_ID.test(id)) {
    throw new UsageError(
      `${JSON.stringify(id)} is not a job id (a UUID such as 6f1c2a9e-0b7d-4c1e-9a3f-2d4b5c6e7f80).`,
    );
  }
  return id.toLowerCase();
}

async function main(argv: string[], io: CliIo): Promise<number> {
  const out = lineWriter(io.stdout);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: "boolean" }, limit: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return values.help ? 0 : 2;
  }
  const json = values.json === true;
  let limit = 50;
  if (values.limit !== undefined) {
    if (!/^\d{1,3}$/.test(values.limit) || Number(values.limit) < 1 || Number(values.limit) > 500) {
      throw new UsageError("--limit must be a whole number from 1 to 500.");
    }
    if (command !== "failed" && command !== "stuck") throw new UsageError(`${command} does not take --limit.`);
    limit = Number(values.limit);
  }
  if (!["list", "failed", "stuck", "show", "retry"].includes(command)) {
    throw new UsageError(`Unknown command ${JSON.stringify(command)}.`);
  }
  if ((command === "list" || command === "failed" || command === "stuck") && rest.length > 0) {
    throw new UsageError(`${command} takes no arguments.`);
  }
  // Checked before the database is opened: bad input changes nothing and costs nothing.
  const id = command === "show" || command === "retry" ? jobId(rest, command) : "";
  const db = (await getDatabaseHandle()).db;

  switch (command) {
    case "list": {
      const counts = await admin.jobCounts(db);
      if (json) {
        out(JSON.stringify(counts, null, 2));
        return 0;
      }
      for (const { queue, states } of counts) {
        const parts = Object.entries(states).map(([state, n]) => `${state} ${n}`);
        out(`${queue.padEnd(24)} ${parts.length ? parts.join(", ") : "no jobs"}`);
      }
      return 0;
    }
    case "failed":
    case "stuck": {
      const jobs = command === "failed" ? await admin.failedJobs(db, limit) : await admin.stuckJobs(db, limit);
      if (json) {
        out(JSON.stringify(jobs, null, 2));
        return 0;
      }
      if (jobs.length === 0) out(command === "failed" ? "No failed jobs." : "No stuck jobs.");
      for (const job of jobs) printSummary(out, job);
      return 0;
    }
    case "show": {
      const job = await admin.findJob(db, id);
      if (!job) throw new NotFound(`No job ${id}.`);
      if (json) {
        out(JSON.stringify(job, null, 2));
        return 0;
      }
      printSummary(out, job);
      out(`  data: ${JSON.stringify(job.data)}`);
      if (job.output !== null && job.output !== undefined) out(`  output: ${JSON.stringify(job.output)}`);
      if (job.singletonKey) out(`  one per slot: ${job.singletonKey} at ${when(job.singletonOn)}`);
      out(
        `  expires after ${job.expireIn} active; retries after ${job.retryDelay}s${job.retryBackoff ? ", doubling" : ""}`,
      );
      return 0;
    }
    case "retry": {
      const outcome = await admin.retryJob(db, id);
      if (!outcome.ok) {
        if (outcome.reason === "not_found") throw new NotFound(`No job ${id}.`);
        io.stderr.write(
          outcome.reason === "archived"
            ? `Job ${id} (${outcome.job.queue}) is archived: it is kept for the record and cannot be retried.\n`
            : `Job ${id} (${outcome.job.queue}) is ${outcome.job.state}: only a failed job can be retried. Nothing changed.\n`,
        );
        return 1;
      }
      if (json) out(JSON.stringify(outcome.job, null, 2));
      else {
        out(`Job ${id} (${outcome.job.queue}) will be tried again:`);
        printSummary(out, outcome.job);
      }
      return 0;
    }
  }
  return 2;
}

/**
 * Runs one jobs command (`argv` as after the script's name: ["failed", "--limit", "10"]), writing to
 * `io`, and returns its exit code: 0 done, 1 not found or refused, 2 a usage error. It uses the
 * process's database (DATABASE_URL, or the embedded one in DATA_DIR): opened here if nothing in the
 * process has opened it yet, and then closed here; a database the caller had open stays open.
 */
export function runCli(argv: string[], io: CliIo = process): Promise<number> {
  const explain = (error: unknown) => (error instanceof NotFound ? [error.message] : undefined);
  return runCommand({ main, explain, database: { isOpen: isDatabaseOpen, close: closeDatabase } }, argv, io);
}

if (isScript(import.meta.url)) process.exitCode = await runCli(process.argv.slice(2));
