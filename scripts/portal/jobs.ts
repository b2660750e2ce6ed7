/**
 * `portal jobs …` (issue 18; decision 043): what the background queues hold, the failed and stuck
 * jobs, one job in full, and a failed job tried again.
 *
 *   npm run portal -- jobs list
 *   npm run portal -- jobs failed --limit 10
 *   npm run portal -- jobs show <job id>
 *   npm run portal -- jobs retry <job id>
 */
import type { Command } from "commander";
import { getDatabaseHandle } from "../../app/services/platform/database.server";
import * as admin from "../../app/services/platform/jobs-admin.server";
import { JSON_OPTION, Refusal, runVerb, UsageError, verb, type Out, type Run } from "./cli";

const when = (value: Date | null) => (value ? value.toISOString() : "-");

function printSummary(out: Out, job: admin.JobSummary) {
  out(
    `${job.id}  ${job.queue}  ${job.state}${job.archived ? " (archived)" : ""}  attempts ${job.attempts} of ${job.retryLimit + 1}`,
  );
  out(
    `  created ${when(job.createdOn)}  started ${when(job.startedOn)}  ${job.completedOn ? `ended ${when(job.completedOn)}` : `next try after ${when(job.startAfter)}`}`,
  );
  if (job.lastError) out(`  last error: ${job.lastError}`);
}

function jobId(value: string): string {
  const id = value.trim();
  if (!admin.JOB_ID.test(id)) {
    throw new UsageError(
      `${JSON.stringify(id)} is not a job id (a UUID such as 6f1c2a9e-0b7d-4c1e-9a3f-2d4b5c6e7f80).`,
    );
  }
  return id.toLowerCase();
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 50;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 500) {
    throw new UsageError("--limit must be a whole number from 1 to 500.");
  }
  return Number(value);
}

type Options = { json?: boolean; limit?: string };

/** The verbs of `portal jobs`. */
export function addJobsVerbs(noun: Command, run: Run): void {
  const { out, io } = run;

  const list = verb(
    noun,
    "list",
    "jobs per queue and state (created, retry, active, completed, failed, cancelled), and how many each queue has archived",
  ).option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(list, run, async (options: Options) => {
    const { db } = await getDatabaseHandle();
    const counts = await admin.jobCounts(db);
    if (options.json) out(JSON.stringify(counts, null, 2));
    else {
      for (const { queue, states } of counts) {
        const parts = Object.entries(states).map(([state, n]) => `${state} ${n}`);
        out(`${queue.padEnd(24)} ${parts.length ? parts.join(", ") : "no jobs"}`);
      }
    }
    return 0;
  });

  for (const [name, summary] of [
    ["failed", "failed jobs, newest first: id, queue, attempts, last error, dates"],
    [
      "stuck",
      `jobs active for longer than their expiry (their worker died or hangs), or tried ${admin.STUCK_AFTER_RETRIES} times or more and not finished`,
    ],
  ] as const) {
    const command = verb(noun, name, summary)
      .option("--limit <n>", "how many, 1-500 (default 50)")
      .option(JSON_OPTION[0], JSON_OPTION[1]);
    runVerb(command, run, async (options: Options) => {
      // Checked before the database is opened: bad input changes nothing and costs nothing.
      const limit = limitOf(options.limit);
      const { db } = await getDatabaseHandle();
      const jobs = name === "failed" ? await admin.failedJobs(db, limit) : await admin.stuckJobs(db, limit);
      if (options.json) out(JSON.stringify(jobs, null, 2));
      else {
        if (jobs.length === 0) out(name === "failed" ? "No failed jobs." : "No stuck jobs.");
        for (const job of jobs) printSummary(out, job);
      }
      return 0;
    });
  }

  const show = verb(noun, "show", "one job: its state, attempts, data, output (or last error) and dates")
    .argument("<id>", "the job's id (a UUID)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(show, run, async (value: string, options: Options) => {
    const id = jobId(value);
    const { db } = await getDatabaseHandle();
    const job = await admin.findJob(db, id);
    if (!job) throw new Refusal(`No job ${id}.`);
    if (options.json) {
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
  });

  const retry = verb(noun, "retry", "a failed job, tried once more as soon as a worker fetches it")
    .argument("<id>", "the job's id (a UUID)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(retry, run, async (value: string, options: Options) => {
    const id = jobId(value);
    const { db } = await getDatabaseHandle();
    const outcome = await admin.retryJob(db, id);
    if (!outcome.ok) {
      if (outcome.reason === "not_found") throw new Refusal(`No job ${id}.`);
      io.stderr.write(
        outcome.reason === "archived"
          ? `Job ${id} (${outcome.job.queue}) is archived: it is kept for the record and cannot be retried.\n`
          : `Job ${id} (${outcome.job.queue}) is ${outcome.job.state}: only a failed job can be retried. Nothing changed.\n`,
      );
      return 1;
    }
    if (options.json) out(JSON.stringify(outcome.job, null, 2));
    else {
      out(`Job ${id} (${outcome.job.queue}) will be tried again:`);
      printSummary(out, outcome.job);
    }
    return 0;
  });
}
