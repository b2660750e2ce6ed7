import { sql } from "kysely";
import { now } from "../platform/clock.server";
import type { DatabaseHandle, Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import {
  enqueue,
  jobsInHand,
  jobStates,
  offerSlotJob,
  QUEUES,
  startQueue,
  type RunningQueue,
} from "../platform/queue.server";
import { ABANDONED_AFTER_MS, payInstalment } from "./instalment-charges.server";
import { sendInstalmentEmail } from "./instalment-email.server";
import type { InstalmentEmail } from "./instalment-outcomes.server";

/**
 * The instalment runner (issue 15; decision 035), on the job queue:
 *
 * - every minute each portal process offers a `instalment-sweep` job keyed to that minute; pg-boss
 *   keeps one per minute (its singleton by time slot), so one process sweeps, whichever fetches it
 *   (the portal's background work, background.server.ts, offers it with the other periodic jobs);
 * - the sweep finds the instalments whose try day has come in their business's time zone (from the
 *   portal's clock) and the tries left unresolved, and writes one `instalment-charge` job for each
 *   instalment's try (named by it, so a second sweep adds nothing);
 * - a charge job runs `payInstalment` as the runner; an error is retried by pg-boss with backoff,
 *   and the attempt protocol makes any repeat charge nothing twice;
 * - `instalment-email` jobs (written by the state changes themselves) send the emails.
 */
export const SWEEP_EVERY_MS = 60_000;
/** The most instalments one sweep hands out; the next minute's takes the rest. */
export const SWEEP_LIMIT = 500;

/**
 * One sweep: writes a charge job for every due instalment and every unresolved try. `at` is the
 * portal's clock; "due" is the instalment's next try day at or before today in its business's time
 * zone (an instalment due on the 1st in Sydney is charged from 00:00 Sydney time, the previous
 * evening in UTC). Returns the ids of the jobs it wrote.
 */
export async function sweepInstalments(db: Db, at: Date = now()): Promise<string[]> {
  const due = await sql<{ id: string; business_id: string; attempts: number; tries: number }>`
    SELECT i.id, i.business_id, i.attempts,
           (SELECT count(*) FROM instalment_attempts a WHERE a.instalment_id = i.id)::int AS tries
    FROM schedule_instalments i
    JOIN payment_schedules s ON s.id = i.schedule_id
    JOIN businesses b ON b.id = i.business_id
    WHERE i.status = 'scheduled'
      AND s.status IN ('active', 'arrears')
      AND i.next_attempt_on <= (${at.toISOString()}::timestamptz AT TIME ZONE b.time_zone)::date
    ORDER BY i.next_attempt_on, i.id
    LIMIT ${SWEEP_LIMIT}`.execute(db);
  // Tries left started or pending whose payment is not with a PayTo bank (that one settles by
  // itself): a process died between the claim and the recording.
  const stuck = await sql<{ id: string; instalment_id: string; business_id: string }>`
    SELECT a.id, a.instalment_id, a.business_id
    FROM instalment_attempts a
    LEFT JOIN payments p ON p.business_id = a.business_id AND p.request_guid = a.request_guid
    WHERE a.outcome IN ('started', 'pending')
      AND a.started_at < ${new Date(at.getTime() - ABANDONED_AFTER_MS).toISOString()}::timestamptz
      AND (p.id IS NULL OR p.status IN ('pending', 'unknown'))
    ORDER BY a.started_at
    LIMIT ${SWEEP_LIMIT}`.execute(db);
  if (due.rows.length === 0 && stuck.rows.length === 0) return [];
  return db.transaction().execute(async (tx) => {
    const ids: string[] = [];
    for (const row of due.rows) {
      // One job per try: the runner's count and every try so far (a contact's too) name it.
      const id = await enqueue(
        tx,
        QUEUES.charge,
        { businessId: row.business_id, instalmentId: row.id },
        { key: `due:${row.id}:${row.attempts}:${row.tries}` },
      );
      if (id) ids.push(id);
    }
    for (const row of stuck.rows) {
      const id = await enqueue(
        tx,
        QUEUES.charge,
        { businessId: row.business_id, instalmentId: row.instalment_id },
        { key: `resume:${row.id}` },
      );
      if (id) ids.push(id);
    }
    return ids;
  });
}

type ChargeJob = { businessId: string; instalmentId: string };

export async function runChargeJob(data: unknown) {
  const job = data as ChargeJob;
  const outcome = await payInstalment({
    businessId: job.businessId,
    instalmentId: job.instalmentId,
    trigger: "runner",
  });
  logger.info("instalment run", { instalmentId: job.instalmentId, outcome: outcome.kind });
  return outcome;
}

/** The instalment queues' handlers, as the background registry (and the runner's tests) work them. */
export const instalmentHandlers = (handle: DatabaseHandle) => ({
  [QUEUES.sweep]: async () => {
    await sweepInstalments(handle.db);
  },
  [QUEUES.charge]: async (job: { data: unknown }) => {
    await runChargeJob(job.data);
  },
  [QUEUES.email]: async (job: { data: unknown }) => {
    await sendInstalmentEmail(job.data as InstalmentEmail);
  },
});

/**
 * Sweeps now (not waiting for the minute) and waits until the jobs it wrote — and any other
 * charges due, and the emails they wrote — have run in whichever process works the queues.
 */
export async function runDueInstalmentsNow(db: Db, timeoutMs = 60_000) {
  const ids = await sweepInstalments(db);
  // eslint-disable-next-line no-restricted-syntax -- a timeout: how long to wait, measured on the real clock (a duration is not a date)
  const deadline = Date.now() + timeoutMs;
  for (const name of [QUEUES.charge, QUEUES.email]) {
    // eslint-disable-next-line no-restricted-syntax -- a timeout: how long to wait, measured on the real clock (a duration is not a date)
    while ((await jobsInHand(db, name)) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const states = await jobStates(db, QUEUES.charge, ids);
  const counts: Record<string, number> = {};
  for (const state of states.values()) counts[state] = (counts[state] ?? 0) + 1;
  return { jobs: ids.length, states: counts };
}

export type InstalmentRunner = {
  queue: RunningQueue;
  /** Sweeps now (not waiting for the minute) and waits until the jobs it wrote have run. */
  runDueNow(timeoutMs?: number): Promise<{ jobs: number; states: Record<string, number> }>;
  stop(): Promise<void>;
};

/**
 * The instalment queues alone in a PgBoss of their own: a runner "process" for the runner's
 * tests. The portal works them with everything else (background.server.ts).
 * `sweepEveryMs: 0` leaves the minute's offer off (tests sweep by hand).
 */
export async function startInstalmentRunner(
  handle: DatabaseHandle,
  options: { sweepEveryMs?: number; pollingIntervalSeconds?: number } = {},
): Promise<InstalmentRunner> {
  const queue = await startQueue(handle, {
    pollingIntervalSeconds: options.pollingIntervalSeconds,
    handlers: instalmentHandlers(handle),
  });
  const every = options.sweepEveryMs ?? SWEEP_EVERY_MS;
  const offerSweep = () =>
    offerSlotJob(queue.boss, QUEUES.sweep, every).catch((error: unknown) =>
      logger.error("instalment sweep could not be offered", { error }),
    );
  let timer: NodeJS.Timeout | undefined;
  if (every > 0) {
    void offerSweep();
    timer = setInterval(() => void offerSweep(), every);
    timer.unref();
  }
  return {
    queue,
    runDueNow: (timeoutMs) => runDueInstalmentsNow(handle.db, timeoutMs),
    async stop() {
      if (timer) clearInterval(timer);
      await queue.stop();
    },
  };
}
