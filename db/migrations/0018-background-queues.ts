/**
 * The periodic background work moves onto the job queue (issue 18; decision 043): the card
 * reconciler, the PayTo payment and agreement polls, and the expiry sweep each get a queue,
 * created as migration 0012 created the instalment queues, so that any process can offer their
 * jobs and the jobs CLI can list them before a worker has ever started.
 *
 * - policy singleton: at most one job of the queue is active at a time (a slow sweep is never
 *   overlapped by the next slot's); each process offers one job per time slot and pg-boss keeps one.
 * - retried with backoff a few times (a sweep that failed — the database or a provider was
 *   away — is tried again within minutes; the next slot's job would catch up anyway).
 * - expireInSeconds: a sweep is a bounded batch; one active for longer than this is taken to
 *   have died with its process and is retried.
 */
export const name = "0018-background-queues";

const queue = (queueName: string, options: Record<string, unknown>) =>
  `SELECT pgboss.create_queue('${queueName}', '${JSON.stringify(options)}'::json);`;

const periodic = { policy: "singleton", retryLimit: 3, retryDelay: 15, retryBackoff: true, expireInSeconds: 600 };

export const up = /* sql */ `
${queue("payment-reconcile", periodic)}
${queue("payto-payment-poll", periodic)}
${queue("payto-agreement-poll", periodic)}
${queue("expiry-sweep", { ...periodic, expireInSeconds: 900 })}
`;
