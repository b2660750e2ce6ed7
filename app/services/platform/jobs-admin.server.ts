import { sql } from "kysely";
import type { Db } from "./db.server";
import { QUEUE_SCHEMA, retryFailedJob } from "./queue.server";
import { UUID } from "~/lib/ids";

/**
 * What `portal jobs` (scripts/portal/jobs.ts; decision 043) reads and does, over pg-boss's own tables:
 * `job` holds live jobs and recent finished ones; `archive` holds finished ones moved out after
 * 12 hours (completed) or 7 days (failed), kept 14 days (queue.server.ts's maintenance).
 */
export const JOB_ID = UUID;

/** A job that has been retried this many times, and is not finished, counts as stuck. */
export const STUCK_AFTER_RETRIES = 3;

export type JobSummary = {
  id: string;
  queue: string;
  state: string;
  attempts: number;
  retryLimit: number;
  lastError: string | null;
  createdOn: Date;
  startedOn: Date | null;
  startAfter: Date;
  completedOn: Date | null;
  archived: boolean;
};

export type JobDetail = JobSummary & {
  data: unknown;
  output: unknown;
  singletonKey: string | null;
  singletonOn: Date | null;
  expireIn: string;
  retryDelay: number;
  retryBackoff: boolean;
};

type Row = {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  output: unknown;
  data: unknown;
  created_on: Date | string;
  started_on: Date | string | null;
  start_after: Date | string;
  completed_on: Date | string | null;
  singleton_key: string | null;
  singleton_on: Date | string | null;
  expire_in: string;
  archived: boolean;
};

const COLUMNS = sql.raw(`id::text AS id, name, state::text AS state, retry_count, retry_limit, retry_delay,
  retry_backoff, output, data, created_on, started_on, start_after, completed_on, singleton_key,
  singleton_on, expire_in::text AS expire_in`);
const JOB = sql.raw(`${QUEUE_SCHEMA}.job`);
const ARCHIVE = sql.raw(`${QUEUE_SCHEMA}.archive`);

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/** A failed job's output is the error pg-boss kept: its message only (never a stack trace). */
function errorOf(output: unknown): string | null {
  if (!output || typeof output !== "object") return null;
  const record = output as Record<string, unknown>;
  const inner = record.value && typeof record.value === "object" ? (record.value as Record<string, unknown>) : record;
  return typeof inner.message === "string" ? inner.message : null;
}

function withoutStack(output: unknown): unknown {
  if (!output || typeof output !== "object" || Array.isArray(output)) return output;
  const entries = Object.entries(output as Record<string, unknown>)
    .filter(([key]) => key !== "stack")
    .map(([key, value]) => [key, key === "value" ? withoutStack(value) : value]);
  return Object.fromEntries(entries);
}

function summary(row: Row): JobSummary {
  return {
    id: row.id,
    queue: row.name,
    state: row.state,
    // pg-boss counts retries; the first try is one more.
    attempts: row.started_on === null ? row.retry_count : row.retry_count + 1,
    retryLimit: row.retry_limit,
    lastError: row.state === "completed" ? null : errorOf(row.output),
    createdOn: new Date(row.created_on),
    startedOn: date(row.started_on),
    startAfter: new Date(row.start_after),
    completedOn: date(row.completed_on),
    archived: row.archived,
  };
}

/** Jobs per queue and state (every queue, even one with none), and how many each has archived. */
export async function jobCounts(db: Db) {
  const live = await sql<{ name: string; state: string; n: number }>`
    SELECT name, state::text AS state, count(*)::int AS n FROM ${JOB} GROUP BY name, state`.execute(db);
  const archived = await sql<{ name: string; n: number }>`
    SELECT name, count(*)::int AS n FROM ${ARCHIVE} GROUP BY name`.execute(db);
  const queues = await sql<{ name: string }>`SELECT name FROM ${sql.raw(`${QUEUE_SCHEMA}.queue`)}`.execute(db);
  const counts = new Map<string, Record<string, number>>();
  const of = (name: string) => {
    let entry = counts.get(name);
    if (!entry) counts.set(name, (entry = {}));
    return entry;
  };
  for (const row of queues.rows) of(row.name);
  for (const row of live.rows) of(row.name)[row.state] = row.n;
  for (const row of archived.rows) of(row.name).archived = row.n;
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([queue, states]) => ({ queue, states }));
}

/** Failed jobs, newest first (live and archived). */
export async function failedJobs(db: Db, limit = 50): Promise<JobSummary[]> {
  const rows = await sql<Row>`
    SELECT * FROM (
      SELECT ${COLUMNS}, false AS archived FROM ${JOB} WHERE state = 'failed'
      UNION ALL
      SELECT ${COLUMNS}, true AS archived FROM ${ARCHIVE} WHERE state = 'failed'
    ) f
    ORDER BY completed_on DESC NULLS LAST, created_on DESC
    LIMIT ${limit}`.execute(db);
  return rows.rows.map(summary);
}

/**
 * Stuck jobs: active for longer than their expiry (the worker died, or hangs; pg-boss's
 * maintenance will fail them), or tried at least STUCK_AFTER_RETRIES times and not finished.
 */
export async function stuckJobs(db: Db, limit = 50): Promise<JobSummary[]> {
  const rows = await sql<Row>`
    SELECT ${COLUMNS}, false AS archived FROM ${JOB}
    WHERE (state = 'active' AND started_on + expire_in < now())
       OR (state IN ('created', 'retry', 'active') AND retry_count >= ${STUCK_AFTER_RETRIES})
    ORDER BY created_on
    LIMIT ${limit}`.execute(db);
  return rows.rows.map(summary);
}

export async function findJob(db: Db, id: string): Promise<JobDetail | null> {
  if (!JOB_ID.test(id)) return null;
  const rows = await sql<Row>`
    SELECT ${COLUMNS}, false AS archived FROM ${JOB} WHERE id = ${id}::uuid
    UNION ALL
    SELECT ${COLUMNS}, true AS archived FROM ${ARCHIVE} WHERE id = ${id}::uuid
    LIMIT 1`.execute(db);
  const row = rows.rows[0];
  if (!row) return null;
  return {
    ...summary(row),
    data: row.data,
    output: withoutStack(row.output),
    singletonKey: row.singleton_key,
    singletonOn: date(row.singleton_on),
    expireIn: row.expire_in,
    retryDelay: row.retry_delay,
    retryBackoff: row.retry_backoff,
  };
}

export type RetryOutcome =
  | { ok: true; job: JobDetail }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "not_failed" | "archived"; job: JobDetail };

/** A failed job tried once more, as soon as a worker fetches it. Anything else changes nothing. */
export async function retryJob(db: Db, id: string): Promise<RetryOutcome> {
  const job = await findJob(db, id);
  if (!job) return { ok: false, reason: "not_found" };
  if (job.archived) return { ok: false, reason: "archived", job };
  if (job.state !== "failed") return { ok: false, reason: "not_failed", job };
  if (!(await retryFailedJob(db, job.queue, job.id))) {
    // Another retry (or a worker) moved it in between.
    const now = await findJob(db, id);
    return now ? { ok: false, reason: "not_failed", job: now } : { ok: false, reason: "not_found" };
  }
  return { ok: true, job: (await findJob(db, id)) ?? job };
}
