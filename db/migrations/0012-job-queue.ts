/**
 * The job queue (issue 15; decision 035): pg-boss's own tables in the `pgboss` schema, and the
 * queues the instalment runner uses, installed like every other part of the schema so that any
 * process — the portal, the CLI, a test — can write a job in its own transaction (the outbox)
 * before a queue worker has ever started.
 *
 * The tables are pg-boss 10.4.2's (the version is pinned exactly in package.json): its
 * construction plan, run inside this migration's transaction instead of its own. pg-boss checks
 * its `pgboss.version` row when it starts and migrates its own tables from there on an upgrade.
 */
import PgBoss from "pg-boss";

export const name = "0012-job-queue";

/** pg-boss's schema script without its own BEGIN/COMMIT: the migration runner's transaction holds it. */
function pgBossSchema(): string {
  const plan = PgBoss.getConstructionPlans("pgboss").trim();
  const body = /^BEGIN;([\s\S]*)COMMIT;$/.exec(plan)?.[1];
  if (!body) throw new Error("pg-boss's construction plan has changed shape: check migration 0012");
  return body;
}

const queue = (queueName: string, options: Record<string, unknown>) =>
  `SELECT pgboss.create_queue('${queueName}', '${JSON.stringify(options)}'::json);`;

export const up = /* sql */ `
${pgBossSchema()};
${queue("instalment-sweep", { policy: "singleton", retryLimit: 0, expireInSeconds: 300 })}
${queue("instalment-charge", { policy: "standard", retryLimit: 6, retryDelay: 30, retryBackoff: true, expireInSeconds: 900 })}
${queue("instalment-email", { policy: "standard", retryLimit: 8, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 })}
`;
