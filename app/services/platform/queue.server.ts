import { createHash } from "node:crypto";
import { CompiledQuery } from "kysely";
import PgBoss from "pg-boss";
import type { DatabaseHandle, Db } from "./db.server";
import { logger } from "./logger.server";

/**
 * The portal's job queue (ARCHITECTURE "Background work"; decision 035): pg-boss 10.4.2 over the
 * portal's own database handle, so a job can be written in the same transaction as the change
 * that causes it (an outbox), on PGlite and on PostgreSQL alike.
 *
 * - Tables and queues come from migration 0012, so any process can write jobs.
 * - `startQueue` runs one PgBoss per process (workers, maintenance). On PostgreSQL, several
 *   processes each run one and pg-boss hands each job to one of them (FOR UPDATE SKIP LOCKED).
 *   On PGlite there is one process; every statement pg-boss sends goes through Kysely's
 *   connection lock, so it never lands inside a transaction the portal has open.
 * - `enqueue(tx, …)` writes a job inside the caller's transaction: it exists if and only if the
 *   transaction commits. A key names the job (its id is derived from it), so writing the same
 *   key twice makes one job.
 */
export const QUEUE_SCHEMA = "pgboss";

export const QUEUES = {
  /** Finds due instalments and unresolved attempts; one per minute across processes. */
  sweep: "instalment-sweep",
  /** Charges one instalment (or finishes an unresolved attempt): payInstalment as the runner. */
  charge: "instalment-charge",
  /** Sends one email about an instalment (receipt, declined, arrears): the outbox. */
  email: "instalment-email",
  /** Settles card payments whose outcome was lost (migration 0018); one per RECONCILE_EVERY_MS. */
  reconcile: "payment-reconcile",
  /** Asks the PayTo provider about payments still moving; one per PAYTO_POLL_MS. */
  paytoPayments: "payto-payment-poll",
  /** Asks the PayTo provider about agreements that can still change; one per PAYTO_POLL_MS. */
  paytoAgreements: "payto-agreement-poll",
  /** Deletes expired sessions, link sessions, old rate-limit hits and drafts; one per EXPIRY_EVERY_MS. */
  expiry: "expiry-sweep",
  /** Delivers one message of the mail outbox if the kick after its commit did not (decision 044). */
  mail: "mail",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** What pg-boss needs of a database: one statement (or, without values, a script) at a time. */
export type SqlAdapter = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount?: number }>;
};

/** pg-boss's statements inside a Kysely transaction (or on a PostgreSQL pool through Kysely). */
export function adapterOver(db: Db): SqlAdapter {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[], rowCount: Number(result.numAffectedRows ?? result.rows.length) };
    },
  };
}

/** A statement list without parameters, such as pg-boss's maintenance and migration scripts. */
const isScript = (text: string, values?: unknown[]) =>
  (!values || values.length === 0) && /;\s*\S/.test(text.trim().replace(/;\s*$/, ""));

/**
 * The process's adapter. PGlite: under Kysely's connection lock (the one connection the dialect
 * shares), a script through PGlite's exec (rolled back if it fails half-way), anything else as one
 * parameterised query. PostgreSQL: Kysely's pool, which answers scripts with the simple protocol.
 */
export function processAdapter(handle: DatabaseHandle): SqlAdapter {
  const pglite = handle.pglite;
  if (handle.kind !== "pglite" || !pglite) return adapterOver(handle.db);
  return {
    executeSql(text, values) {
      return handle.db.connection().execute(async () => {
        if (isScript(text, values)) {
          try {
            const results = await pglite.exec(text);
            return { rows: (results.at(-1)?.rows ?? []) as unknown[] };
          } catch (error) {
            await pglite.exec("ROLLBACK").catch(() => {});
            throw error;
          }
        }
        const result = await pglite.query(text, values ?? []);
        return { rows: result.rows as unknown[], rowCount: result.affectedRows ?? result.rows.length };
      });
    },
  };
}

/** A job id from a key: the same key is the same job (pg-boss inserts with ON CONFLICT DO NOTHING). */
export function jobIdFor(queue: QueueName, key: string): string {
  const hex = createHash("sha256").update(`${queue}\u0000${key}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

let sender: PgBoss | undefined;
/**
 * A PgBoss that is never started: only its `send`, always given the caller's transaction as its
 * database, is used. Any process can write jobs, whether or not it runs workers.
 */
function jobWriter(): PgBoss {
  sender ??= new PgBoss({
    schema: QUEUE_SCHEMA,
    db: {
      executeSql: () => Promise.reject(new Error("enqueue writes through the caller's transaction only")),
    },
  });
  return sender;
}

/**
 * Writes a job in `tx` (a Kysely transaction, or the database outside one). Returns its id, or
 * null when a job with this key already exists (nothing new written).
 */
export async function enqueue(
  tx: Db,
  queue: QueueName,
  data: object,
  options: { key: string; startAfter?: Date },
): Promise<string | null> {
  const id = jobIdFor(queue, options.key);
  return jobWriter().send(queue, data, {
    id,
    db: adapterOver(tx),
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
  });
}

/**
 * Puts a failed job back to be tried again (pg-boss's own retry: one more try allowed). Returns
 * false when the job is not failed (or not of that queue): nothing changed.
 */
export async function retryFailedJob(db: Db, queue: string, id: string): Promise<boolean> {
  // pg-boss 10 answers { jobs, requested, affected } here, though its types say void.
  const result = (await jobWriter().retry(queue, id, { db: adapterOver(db) })) as unknown as { affected?: number };
  return result?.affected === 1;
}

export type JobHandler = (job: { id: string; data: unknown }) => Promise<unknown>;

export type QueueOptions = {
  /** One handler per queue this process works on. */
  handlers: Partial<Record<QueueName, JobHandler>>;
  /** How often each worker asks for a job (pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds?: number;
};

export type RunningQueue = {
  boss: PgBoss;
  /** Stops fetching, waits for jobs in hand (up to `timeoutMs`), then stops maintenance. */
  stop(timeoutMs?: number): Promise<void>;
};

/**
 * Starts a PgBoss for this process over `handle`: checks its tables (migration 0012 made them;
 * a newer pg-boss migrates its own), makes sure the queues exist, runs maintenance (expiry,
 * archiving) at a modest pace, and works the queues given. A stopped one is never restarted:
 * start a new one.
 */
export async function startQueue(handle: DatabaseHandle, options: QueueOptions): Promise<RunningQueue> {
  const embedded = handle.kind === "pglite";
  const boss = new PgBoss({
    schema: QUEUE_SCHEMA,
    db: processAdapter(handle) as PgBoss.Db,
    migrate: true,
    supervise: true,
    // No cron: the runner's minute timer sends the sweep job itself (decision 035).
    schedule: false,
    // Maintenance every few minutes is plenty; on PGlite it shares the one connection.
    maintenanceIntervalSeconds: embedded ? 300 : 120,
    archiveCompletedAfterSeconds: 12 * 3600,
    archiveFailedAfterSeconds: 7 * 24 * 3600,
    deleteAfterDays: 14,
  });
  boss.on("error", (error: unknown) => logger.error("job queue error", { error }));
  await boss.start();
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  for (const [queue, handler] of Object.entries(options.handlers) as [QueueName, JobHandler][]) {
    await boss.work(queue, { batchSize: 1, pollingIntervalSeconds }, async (jobs) => {
      // One job per fetch: what its handler returns is kept as the job's output (the jobs CLI shows it).
      let output: unknown;
      for (const job of jobs) output = await handler({ id: job.id, data: job.data });
      return output;
    });
  }
  let stopped = false;
  return {
    boss,
    async stop(timeoutMs = 20_000) {
      if (stopped) return;
      stopped = true;
      // Jobs still running after the timeout are failed, so pg-boss retries them elsewhere (or
      // after a restart): the attempt protocol makes a repeat charge nothing twice.
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs }).catch((error: unknown) => {
        logger.error("job queue stop failed", { error });
      });
    },
  };
}

/**
 * Offers one job of `queue` for the current time slot of `everyMs` (at least a second): each
 * process offers its own, and pg-boss keeps one per slot and key across all of them (its
 * singleton index on the slot the database's clock names), so the work is done once per slot
 * whichever process fetches it. Returns the job's id, or null when this slot has one already.
 */
export function offerSlotJob(boss: PgBoss, queue: QueueName, everyMs: number): Promise<string | null> {
  return boss.send(queue, {}, { singletonKey: queue, singletonSeconds: slotSeconds(everyMs) });
}

/** pg-boss counts slots in whole seconds. */
export const slotSeconds = (everyMs: number) => Math.max(1, Math.round(everyMs / 1000));

/** The state of jobs by id (created, retry, active, completed, failed, cancelled), for tests and the test clock. */
export async function jobStates(db: Db, queue: QueueName, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const result = await db.executeQuery<{ id: string; state: string }>(
    CompiledQuery.raw(
      `SELECT id::text, state::text FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])
       UNION ALL
       SELECT id::text, state::text FROM ${QUEUE_SCHEMA}.archive WHERE name = $1 AND id = ANY($2::uuid[])`,
      [queue, ids],
    ),
  );
  return new Map(result.rows.map((row) => [row.id, row.state]));
}

/**
 * How many jobs of `queue` are being worked or waiting to be (due now): 0 once the queue has
 * caught up. Jobs waiting for a later retry are not counted.
 */
export async function jobsInHand(db: Db, queue: QueueName): Promise<number> {
  const result = await db.executeQuery<{ n: number }>(
    CompiledQuery.raw(
      `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job
       WHERE name = $1 AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
      [queue],
    ),
  );
  return Number(result.rows[0]?.n ?? 0);
}
