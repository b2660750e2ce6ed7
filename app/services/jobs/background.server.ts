import { pollPayToPayments, reconcileCardPayments } from "../payments/reconcile.server";
import { pollAgreements } from "../payments/payto/agreements.server";
import { registerReceiptRenderer } from "../payments/receipts.server";
import { registerReceiptPdfMaker } from "../documents/receipt-attachment.server";
import { instalmentHandlers, runDueInstalmentsNow, SWEEP_EVERY_MS } from "../schedules/instalment-runner.server";
import type { DatabaseHandle } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { expireStale } from "./expiry.server";
import { logger } from "../platform/logger.server";
import { mailJobHandler } from "../platform/mail-outbox.server";
import {
  offerSlotJob,
  QUEUES,
  startQueue,
  type JobHandler,
  type QueueName,
  type RunningQueue,
} from "../platform/queue.server";

/**
 * The process's background work (ARCHITECTURE "Background work"; decisions 035 and 043): one
 * PgBoss working every queue below, and the periodic jobs offered once per time slot.
 *
 * - On PostgreSQL each portal process runs this; pg-boss hands each job to one of them, and keeps
 *   one job per slot of a periodic queue however many processes offer it (offerSlotJob).
 * - On PGlite the one process runs it all; every statement pg-boss sends, and every query a
 *   handler runs, takes the shared connection for one statement (or one short transaction) at a
 *   time, so requests get in between.
 *
 * Started by entry.server.tsx at start-up, stopped by its `shutdown()` (SIGTERM/SIGINT).
 */
export type BackgroundHandler = (job: { id: string; data: unknown }, handle: DatabaseHandle) => Promise<unknown>;

/**
 * Every queue this process works, and what works it: a new queue is one line here (and its
 * queue in a migration). A handler may run more than once for one job (a retry, an expired
 * worker): each is idempotent. What it returns is kept as the job's output.
 */
export const BACKGROUND_HANDLERS: Partial<Record<QueueName, BackgroundHandler>> = {
  [QUEUES.sweep]: (_job, handle) => instalmentHandlers(handle)[QUEUES.sweep](),
  [QUEUES.charge]: (job, handle) => instalmentHandlers(handle)[QUEUES.charge](job),
  [QUEUES.email]: (job, handle) => instalmentHandlers(handle)[QUEUES.email](job),
  [QUEUES.reconcile]: () => reconcileCardPayments(),
  [QUEUES.paytoPayments]: () => pollPayToPayments(),
  [QUEUES.paytoAgreements]: () => pollAgreements(),
  [QUEUES.expiry]: (_job, handle) => expireStale(handle.db),
  // The outbox's fallback: a message the kick after its commit did not deliver (decision 044).
  [QUEUES.mail]: (job) => mailJobHandler(job),
};

/** The periodic queues and how often each gets a job (milliseconds), from the configuration. */
export function periodicJobs(): Partial<Record<QueueName, number>> {
  const env = getEnv();
  return {
    [QUEUES.sweep]: SWEEP_EVERY_MS,
    [QUEUES.reconcile]: env.RECONCILE_EVERY_MS,
    [QUEUES.paytoPayments]: env.PAYTO_POLL_MS,
    [QUEUES.paytoAgreements]: env.PAYTO_POLL_MS,
    [QUEUES.expiry]: env.EXPIRY_EVERY_MS,
  };
}

export type BackgroundWork = {
  queue: RunningQueue;
  /** Offers each periodic job for the current slot now (the timers do it every interval). */
  offerAll(): Promise<void>;
  /** The e2e suite's "run the due instalments now" (decision 035). */
  runDueInstalmentsNow(timeoutMs?: number): Promise<{ jobs: number; states: Record<string, number> }>;
  stop(timeoutMs?: number): Promise<void>;
};

export type BackgroundOptions = {
  /** Which queues to work: all of BACKGROUND_HANDLERS unless given. */
  handlers?: Partial<Record<QueueName, BackgroundHandler>>;
  /** The periodic offers: periodicJobs() unless given; `{}` offers none (tests offer by hand). */
  periodic?: Partial<Record<QueueName, number>>;
  pollingIntervalSeconds?: number;
};

/** Starts a PgBoss working the queues and the timers offering the periodic jobs. */
export async function startBackgroundWork(
  handle: DatabaseHandle,
  options: BackgroundOptions = {},
): Promise<BackgroundWork> {
  // The mail queue sends receipts, which the outbox renders at sending with the domain's renderer,
  // and their PDFs, made at sending by the documents' maker.
  registerReceiptRenderer();
  registerReceiptPdfMaker();
  const registry = options.handlers ?? BACKGROUND_HANDLERS;
  const handlers: Partial<Record<QueueName, JobHandler>> = {};
  for (const [name, handler] of Object.entries(registry) as [QueueName, BackgroundHandler][]) {
    handlers[name] = (job) => handler(job, handle);
  }
  const queue = await startQueue(handle, { handlers, pollingIntervalSeconds: options.pollingIntervalSeconds });
  const periodic = Object.entries(options.periodic ?? periodicJobs()) as [QueueName, number][];
  const offer = (name: QueueName, everyMs: number) =>
    offerSlotJob(queue.boss, name, everyMs).then(
      () => undefined,
      (error: unknown) => logger.error("a periodic job could not be offered", { queue: name, error }),
    );
  const timers = periodic.map(([name, everyMs]) => {
    const timer = setInterval(() => void offer(name, everyMs), everyMs);
    // The timers never keep the process alive; shutdown() clears them.
    timer.unref();
    return timer;
  });
  const offerAll = async () => {
    await Promise.all(periodic.map(([name, everyMs]) => offer(name, everyMs)));
  };
  void offerAll();
  let stopped = false;
  return {
    queue,
    offerAll,
    runDueInstalmentsNow: (timeoutMs) => runDueInstalmentsNow(handle.db, timeoutMs),
    async stop(timeoutMs) {
      if (stopped) return;
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await queue.stop(timeoutMs);
    },
  };
}

// One per process (the portal's), kept on globalThis like the database.
const globalKey = Symbol.for("portal.background-work");
const store = globalThis as unknown as { [globalKey]?: Promise<BackgroundWork> };

/** Starts the process's background work once (entry.server.tsx); later calls get the same one. */
export function startProcessBackgroundWork(handle: DatabaseHandle): Promise<BackgroundWork> {
  const started = (store[globalKey] ??= startBackgroundWork(handle));
  // A failed start must not stick: a later call tries again.
  started.catch(() => {
    if (store[globalKey] === started) delete store[globalKey];
  });
  return started;
}

export function processBackgroundWork(): Promise<BackgroundWork> | undefined {
  return store[globalKey];
}

/** Graceful stop on SIGTERM/SIGINT: timers cleared, jobs in hand finish (or are handed back for a retry). */
export async function stopProcessBackgroundWork() {
  const running = store[globalKey];
  if (!running) return;
  delete store[globalKey];
  await (await running.catch(() => undefined))?.stop();
}
