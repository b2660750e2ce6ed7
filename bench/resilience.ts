/**
 * `npm run bench:resilience` (issue 18; decision 047): the portal as N processes on PostgreSQL
 * behind HAProxy (scripts/cluster-lib.ts), under load and under faults, on loopback only, bounded
 * in time. Creates its own database on the local server and drops it at the end.
 *
 *   1. load: USERS signed-in users for SECONDS across dashboard, statements, invoices and pay,
 *      on one process, then on PROCESSES: 0 errors; p50/p99 and throughput, per process too;
 *   2. kill: 20 payments (card and PayTo) in flight, one process SIGKILLed among them, restarted,
 *      the reconciler run: every payment ended exactly once (charged and recorded, or neither);
 *   3. database: every connection of the portal's database terminated under load: nothing but
 *      503 pages while it lasts, all 200 again by itself, payments in flight ended exactly once;
 *   4. ports: the card gateway and the PayTo provider slow, then down (the sandboxes' fault
 *      switch): pages stay fast, payments end pending, and the reconciler settles them later.
 *
 * Prints a table per scenario, writes bench/results/resilience.json, and exits non-zero on any
 * lost or doubled payment and on any error where none is allowed.
 * Options: RESILIENCE_SECONDS (60), RESILIENCE_USERS (200), RESILIENCE_PROCESSES (2),
 * RESILIENCE_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres),
 * RESILIENCE_SKIP_BUILD=1 to use the server build already in ./build.
 */
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { sql } from "kysely";
import { openPostgres, type DatabaseHandle } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";
import { setDatabaseForTesting } from "../app/services/platform/database.server";
import { reconcileUnsettled } from "../app/services/payments/reconcile.server";
import { getPayToProvider } from "../app/services/payments/payto/index.server";
import { asSandboxPayTo } from "../app/services/payments/payto/sandbox-provider.server";
import type { Cluster } from "../scripts/cluster-lib";
import { post, signIn } from "./lib/resilience-http";
import { runLoad, type Sample } from "./lib/resilience-load";
import { markLogs, processRows, startPortals, type ProcessRow } from "./lib/resilience-portals";
import {
  RESILIENCE_BRAND,
  RESILIENCE_HOST,
  RESILIENCE_PASSWORD,
  seedResilience,
  type ResilienceUser,
} from "./lib/resilience-seed";
import { setSandboxFault } from "./lib/resilience-faults";
import { percentile, round } from "./lib/stats";

const positive = (name: string, fallback: number, max: number) => {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    process.stderr.write(`${name} must be a whole number from 1 to ${max} (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return value;
};
const SECONDS = positive("RESILIENCE_SECONDS", 60, 600);
const USERS = positive("RESILIENCE_USERS", 200, 1_000);
const PROCESSES = positive("RESILIENCE_PROCESSES", 2, 8);
/** Payments per payment scenario (half by card, half by PayTo), at most one per user. */
const PAYMENTS = Math.min(20, USERS);
/** The bench's loopback ports (5200–5299): processes from 5200 (one process: 5210), proxies 5290/5291. */
const PORTS = { cluster: { base: 5200, proxy: 5290 }, single: { base: 5210, proxy: 5291 } };
/** The sandboxes answer slowly enough that a SIGKILL lands while payments are with them. */
const SANDBOX_DELAY_MS = 2_000;
/** How slow the slow sandboxes are (issue 18: 5 s). */
const SLOW_MS = 5_000;
/** Scenarios 3 and 4 run a shorter load: long enough to see the fault come and go. */
const FAULT_SECONDS = Math.max(8, Math.min(20, Math.round(SECONDS / 3)));
/**
 * …and with fewer users: they show what the fault does to a page, not what saturation does (on
 * two shared cores, 200 users alone push p99 past the 5 s a slow port would add).
 */
const FAULT_USERS = Math.min(USERS, 20);

const adminUrl =
  process.env.RESILIENCE_DATABASE_URL?.trim() ||
  process.env.TEST_DATABASE_URL?.trim() ||
  "postgres://postgres@127.0.0.1:5432/postgres";
if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(adminUrl).hostname)) {
  process.stderr.write(`The resilience bench runs on loopback only: ${new URL(adminUrl).hostname} is not.\n`);
  process.exit(2);
}

const started = performance.now();
const step = (text: string) =>
  process.stderr.write(`[resilience ${((performance.now() - started) / 1000).toFixed(0)}s] ${text}\n`);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return ok;
};

if (process.env.RESILIENCE_SKIP_BUILD !== "1") {
  step("production build");
  const build = spawnSync("npx", ["remix", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) throw new Error("remix build failed");
}

const databaseName = `portal_bench_resilience_${Date.now().toString(36)}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const sessionSecret = randomBytes(32).toString("base64url");
// This process runs the reconciler and the PayTo sandbox's clock on the same database (what a
// portal process's timers do, run now instead of waiting for the next tick); webhooks the
// sandbox owes go through the proxy to the processes.
Object.assign(process.env, {
  DATABASE_URL: databaseUrl,
  SESSION_SECRET: sessionSecret,
  DATA_DIR: path.resolve(".tmp/resilience/bench"),
  SANDBOX_GATEWAY_DELAY_MS: "0",
  SANDBOX_PAYTO_DELAY_MS: "0",
  SANDBOX_PAYTO_SETTLE_MS: "1000",
  // Shorter than the slow sandboxes' 5 s (the default is 15 s, decision 046): a slow port times the
  // payment out as pending — for the reconciler to settle by its key — instead of just being waited on.
  CARD_GATEWAY_TIMEOUT_MS: "2500",
  PAYTO_PROVIDER_TIMEOUT_MS: "2500",
  SANDBOX_PAYTO_WEBHOOK_URL: `http://127.0.0.1:${PORTS.cluster.proxy}/api/payTo/webhook`,
  LOG_LEVEL: "error",
});
const portalEnv = {
  SESSION_SECRET: sessionSecret,
  LOG_LEVEL: "info",
  SANDBOX_GATEWAY_DELAY_MS: String(SANDBOX_DELAY_MS),
  SANDBOX_PAYTO_DELAY_MS: String(SANDBOX_DELAY_MS),
  SANDBOX_PAYTO_SETTLE_MS: "1000",
  // Shorter than the slow sandboxes' 5 s (the default is 15 s, decision 046): a slow port times the
  // payment out as pending — for the reconciler to settle by its key — instead of just being waited on.
  CARD_GATEWAY_TIMEOUT_MS: "2500",
  PAYTO_PROVIDER_TIMEOUT_MS: "2500",
  SANDBOX_PAYTO_WEBHOOK_URL: `http://127.0.0.1:${PORTS.cluster.proxy}/api/payTo/webhook`,
};

type LoadResult = {
  processes: number;
  users: number;
  seconds: number;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  perProcess: ProcessRow[];
};
type PaymentCheck = {
  guid: string;
  method: "card" | "payto";
  user: number;
  answer: string;
  status: string;
  charged: number;
  recordedCents: number;
  amountCents: number;
  verdict: "charged and recorded" | "neither" | "lost" | "doubled" | "not ended";
};
const results: Record<string, unknown> = {};

function loadResult(processes: number, samples: Sample[], seconds: number, perProcess: ProcessRow[]): LoadResult {
  const ok = samples.filter((s) => s.status === 200).map((s) => s.ms);
  const statuses: Record<string, number> = {};
  for (const s of samples) {
    // A failed answer by its status and page title: whose 503 it was (the portal's or HAProxy's).
    const key = s.status === 200 ? "200" : `${s.status || s.error || "?"}${s.title ? ` ${s.title}` : ""}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return {
    processes,
    users: USERS,
    seconds: round(seconds, 1),
    requests: samples.length,
    errors: samples.filter((s) => s.status !== 200).length,
    statuses,
    p50Ms: round(percentile(ok, 50), 1),
    p99Ms: round(percentile(ok, 99), 1),
    perSecond: round(samples.length / seconds, 1),
    perProcess,
  };
}

async function measureLoad(cluster: Cluster, processes: number, cookies: string[], seconds: number) {
  const logs = markLogs(cluster);
  const { samples, seconds: took } = await runLoad({
    port: cluster.proxyPort,
    host: RESILIENCE_HOST,
    brand: RESILIENCE_BRAND,
    cookies,
    seconds,
  });
  await wait(300); // the processes' log streams flush
  return loadResult(processes, samples, took, processRows(logs.read(), took));
}

/** Posts the pay page's form as the browser would: one invoice, its balance, the total shown. */
function pay(port: number, cookie: string, user: ResilienceUser, slot: number, method: "card" | "payto", guid: string) {
  const invoice = user.payable[slot]!;
  return post(
    port,
    RESILIENCE_HOST,
    `/customer/invoices-and-payments/pay?invoice=${invoice.id}`,
    {
      intent: "pay",
      requestGuid: guid,
      method: method === "card" ? `card:${user.cardId}` : `payto:${user.agreementId}`,
      [`amount-${invoice.id}`]: (invoice.cents / 100).toFixed(2),
      expectedAmount: String(invoice.cents),
      note: "",
    },
    cookie,
    90_000,
  );
}

type Submitted = {
  guid: string;
  method: "card" | "payto";
  user: ResilienceUser;
  slot: number;
  answer: string;
  ms: number;
};

/** PAYMENTS payments at once (alternately card and PayTo), each of its own user and invoice `slot`. */
function submitPayments(port: number, cookies: string[], users: ResilienceUser[], slot: number, guids: string[] = []) {
  const chosen = users.slice(0, PAYMENTS).map((user) => ({ user, guid: randomUUID() }));
  guids.push(...chosen.map((c) => c.guid));
  return Promise.all(
    chosen.map(async ({ user, guid }, i): Promise<Submitted> => {
      const method = i % 2 === 0 ? "card" : "payto";
      const sent = performance.now();
      try {
        const answer = await pay(port, cookies[user.index - 1]!, user, slot, method, guid);
        const where = answer.headers.location ?? "";
        return {
          guid,
          method,
          user,
          slot,
          answer: `${answer.status}${where ? ` → ${where.split("/")[1]}` : ""}`,
          ms: answer.ms,
        };
      } catch (error) {
        return {
          guid,
          method,
          user,
          slot,
          answer: error instanceof Error ? error.message : String(error),
          ms: performance.now() - sent,
        };
      }
    }),
  );
}

const UNSETTLED = ["pending", "unknown", "submitted"];

/** How many of these payments are in each status now ("none": not in the database). */
async function statusesOf(db: DatabaseHandle["db"], guids: string[]) {
  const rows = await db.selectFrom("payments").select("status").where("request_guid", "in", guids).execute();
  const counts: Record<string, number> = { none: guids.length - rows.length };
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return counts;
}

/** Waits (bounded) until every one of these payments is claimed; how many are pending then. */
async function waitForClaims(db: DatabaseHandle["db"], guids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await statusesOf(db, guids);
    if (statuses.none === 0 || Date.now() > deadline) return statuses.pending ?? 0;
    await wait(20);
  }
}

/**
 * The reconciler, run until nothing of ours is left unsettled (bounded): the PayTo sandbox's clock
 * (settlements), then the sweep over every payment pending, unknown or submitted, with the grace
 * below.
 *
 * How long a card payment the gateway has no record of stays unknown before the reconciler
 * fails it. A charge may still be on its way to the gateway (a slow sandbox answers after 5 s,
 * after our 2.5 s timeout gave up on it): failing it sooner would record "not charged" for a
 * charge that lands a moment later — money taken and not recorded. The portal's own sweep
 * waits 2 minutes; the bench waits well past the slowest charge it makes. (The first version
 * failed them at once, and its slow-port run counted 10 captures with no payment recorded.)
 */
const RECONCILE_GRACE_MS = SLOW_MS * 2 + 2_000;

async function reconcileAll(
  db: DatabaseHandle["db"],
  guids: string[],
  graceMs = RECONCILE_GRACE_MS,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  let sweeps = 0;
  for (;;) {
    await asSandboxPayTo(getPayToProvider())?.runDue(new Date());
    await reconcileUnsettled({ olderThanMs: 0, graceMs, limit: 1_000 });
    sweeps++;
    const left = await db
      .selectFrom("payments")
      .select("id")
      .where("request_guid", "in", guids)
      .where("status", "in", UNSETTLED as never[])
      .execute();
    if (left.length === 0 || Date.now() > deadline) return { sweeps, unsettled: left.length };
    await wait(500);
  }
}

/**
 * Exactly once, per payment: the charges at the sandbox under our key (card: captured; PayTo:
 * settled), the payment's status in our database, and what its invoice's balance went down by.
 * "charged and recorded": one charge, the payment succeeded, the balance down by its amount once;
 * "neither": no charge, no succeeded payment, the balance untouched. Anything else is lost
 * (charged, not recorded), doubled (recorded or charged twice), or not ended (still unsettled).
 */
async function checkPayments(
  db: DatabaseHandle["db"],
  businessId: string,
  submitted: Submitted[],
): Promise<PaymentCheck[]> {
  const checks: PaymentCheck[] = [];
  for (const s of submitted) {
    const key = `${businessId}:${s.guid}`;
    const payment = await db
      .selectFrom("payments")
      .select(["id", "status"])
      .where("business_id", "=", businessId)
      .where("request_guid", "=", s.guid)
      .executeTakeFirst();
    const charged =
      s.method === "card"
        ? Number(
            (
              await sql<{ n: string }>`SELECT count(*) AS n FROM sandbox_gateway_charges
                WHERE idempotency_key = ${key} AND status = 'captured'`.execute(db)
            ).rows[0]!.n,
          )
        : Number(
            (
              await sql<{ n: string }>`SELECT count(*) AS n FROM sandbox_payto_payments
                WHERE idempotency_key = ${key} AND status = 'SETTLED'`.execute(db)
            ).rows[0]!.n,
          );
    const invoice = s.user.payable[s.slot]!;
    const now = await db
      .selectFrom("invoices")
      .select("balance_cents")
      .where("id", "=", invoice.id)
      .executeTakeFirstOrThrow();
    const recordedCents = invoice.cents - Number(now.balance_cents);
    const status = payment?.status ?? "none";
    let verdict: PaymentCheck["verdict"];
    if (UNSETTLED.includes(status)) verdict = "not ended";
    else if (charged > 1 || recordedCents > invoice.cents) verdict = "doubled";
    else if (charged === 1 && status === "succeeded" && recordedCents === invoice.cents)
      verdict = "charged and recorded";
    else if (charged === 0 && status !== "succeeded" && recordedCents === 0) verdict = "neither";
    else verdict = charged > 0 ? "lost" : "doubled";
    checks.push({
      guid: s.guid,
      method: s.method,
      user: s.user.index,
      answer: s.answer,
      status,
      charged,
      recordedCents,
      amountCents: invoice.cents,
      verdict,
    });
  }
  return checks;
}

/** The whole database, after every scenario: each capture at the sandbox is one succeeded payment. */
async function checkTotals(db: DatabaseHandle["db"], businessId: string) {
  const one = async (query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(db)).rows[0]!.n);
  const captures = await one(sql`SELECT count(*) AS n FROM sandbox_gateway_charges
    WHERE idempotency_key LIKE ${`${businessId}:%`} AND status = 'captured'`);
  const cardPaid = await one(sql`SELECT count(*) AS n FROM payments
    WHERE business_id = ${businessId} AND method = 'card' AND status = 'succeeded'`);
  const settled = await one(sql`SELECT count(*) AS n FROM sandbox_payto_payments
    WHERE idempotency_key LIKE ${`${businessId}:%`} AND status = 'SETTLED'`);
  const paytoPaid = await one(sql`SELECT count(*) AS n FROM payments
    WHERE business_id = ${businessId} AND method = 'payto' AND status = 'succeeded'`);
  const overpaid = await one(
    sql`SELECT count(*) AS n FROM invoices WHERE business_id = ${businessId} AND balance_cents < 0`,
  );
  return { captures, cardPaid, settled, paytoPaid, overpaid };
}

function summarisePayments(name: string, checks: PaymentCheck[]) {
  const count = (v: PaymentCheck["verdict"]) => checks.filter((c) => c.verdict === v).length;
  const row = {
    scenario: name,
    payments: checks.length,
    chargedAndRecorded: count("charged and recorded"),
    neither: count("neither"),
    lost: count("lost"),
    doubled: count("doubled"),
    notEnded: count("not ended"),
  };
  check(
    row.lost === 0 && row.doubled === 0 && row.notEnded === 0,
    `${name}: ${row.lost} lost, ${row.doubled} doubled, ${row.notEnded} not ended`,
  );
  return row;
}

function count(values: string[]) {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function table(title: string, header: string[], rows: (string | number)[][]) {
  const cells = rows.map((r) => r.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  process.stdout.write(
    `\n${title}\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n${cells.map(line).join("\n")}\n`,
  );
}

// ------------------------------------------------------------------------------------------------

step(`database ${databaseName}: migrations and ${USERS} users`);
{
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
}
const handle = openPostgres(databaseUrl, { max: 4 });
let cluster: Cluster | undefined;
let exitCode = 0;
try {
  await migrate(handle);
  const seeded = await seedResilience(handle.db, USERS, { payable: 4, invoices: 40, lines: 200 });
  const { businessId, users } = seeded;
  setDatabaseForTesting(handle);

  // 1. Load: one process, then PROCESSES, the same users (sessions live in the database).
  step("1. load on one process behind the proxy");
  const single = await startPortals({
    processes: 1,
    basePort: PORTS.single.base,
    proxyPort: PORTS.single.proxy,
    databaseUrl,
    env: portalEnv,
  });
  let cookies: string[] = [];
  let oneProcess: LoadResult;
  try {
    step(`signing ${USERS} users in through the sign-in form`);
    cookies = new Array<string>(USERS);
    for (let i = 0; i < USERS; i += 4) {
      await Promise.all(
        users.slice(i, i + 4).map(async (u) => {
          cookies[u.index - 1] = await signIn(single.proxyPort, RESILIENCE_HOST, u.email, RESILIENCE_PASSWORD);
        }),
      );
    }
    step(`${USERS} users for ${SECONDS} s on 1 process`);
    oneProcess = await measureLoad(single, 1, cookies, SECONDS);
  } finally {
    await single.stop();
  }
  step(`${PROCESSES} processes behind the proxy`);
  cluster = await startPortals({
    processes: PROCESSES,
    basePort: PORTS.cluster.base,
    proxyPort: PORTS.cluster.proxy,
    databaseUrl,
    env: portalEnv,
  });
  step(`${USERS} users for ${SECONDS} s on ${PROCESSES} processes`);
  const manyProcesses = await measureLoad(cluster, PROCESSES, cookies, SECONDS);
  for (const run of [oneProcess, manyProcesses]) {
    check(
      run.errors === 0,
      `load on ${run.processes} process(es): ${run.errors} errors ${JSON.stringify(run.statuses)}`,
    );
  }
  results.load = { oneProcess, manyProcesses };
  table(
    `1. ${USERS} signed-in users, ${SECONDS} s, dashboard/statements/invoices/pay (through HAProxy)`,
    ["processes", "process", "requests", "errors", "p50 ms", "p99 ms", "req/s", "server p50 ms", "server p99 ms"],
    [oneProcess, manyProcesses].flatMap((run) => [
      ...run.perProcess.map((p) => [
        run.processes,
        p.process,
        p.requests,
        "",
        "",
        "",
        p.perSecond,
        p.serverP50Ms,
        p.serverP99Ms,
      ]),
      [run.processes, "all (client)", run.requests, run.errors, run.p50Ms, run.p99Ms, run.perSecond, "", ""],
    ]),
  );

  const port = cluster.proxyPort;
  const everyGuid: string[] = [];

  // 2. SIGKILL among payments in flight.
  step(`2. ${PAYMENTS} payments, ${cluster.processes[0]!.name} SIGKILLed among them`);
  const victim = cluster.processes[0]!;
  const killGuids: string[] = [];
  const inFlight = submitPayments(port, cookies, users, 0, killGuids);
  // The kill lands while payments are with the sandboxes (claimed, not yet answered): wait until
  // every one of them is in the database (bounded), whatever the machine's load; the sandboxes
  // take SANDBOX_DELAY_MS to answer, so those on the victim are still pending.
  const pendingAtKill = await waitForClaims(handle.db, killGuids, 15_000);
  const killedPid = victim.pid;
  await victim.kill("SIGKILL");
  const submittedKill = await inFlight;
  const atKill = await statusesOf(handle.db, killGuids);
  step(`   restart ${victim.name}, then the reconciler`);
  await victim.restart();
  everyGuid.push(...killGuids);
  const killReconcile = await reconcileAll(handle.db, killGuids);
  // The browser's resubmission of the same form (same requestGuid), as a customer whose page
  // failed would send it: answered with the payment's result; a submission that never reached a
  // process is made now, once. Then the reconciler again, for those.
  const resubmitted = await Promise.all(
    submittedKill.map((s) =>
      pay(port, cookies[s.user.index - 1]!, s.user, s.slot, s.method, s.guid).then(
        (a) => a.status,
        () => 0,
      ),
    ),
  );
  const killReconcileAfter = await reconcileAll(handle.db, killGuids);
  // Without a payment pending at the kill the scenario proved nothing about a crash mid-payment.
  check(
    pendingAtKill > 0,
    `SIGKILL: no payment was pending when ${victim.name} was killed (${JSON.stringify(atKill)})`,
  );
  const killChecks = await checkPayments(handle.db, businessId, submittedKill);
  const killRow = summarisePayments("SIGKILL mid-payment", killChecks);
  check(
    resubmitted.every((status) => status === 302 || status === 402),
    `resubmissions after the SIGKILL answered ${JSON.stringify(resubmitted)}`,
  );
  results.kill = {
    killedPid,
    pendingAtKill,
    afterKill: atKill,
    reconcile: [killReconcile, killReconcileAfter],
    resubmitted,
    summary: killRow,
    payments: killChecks,
  };

  // 3. The database's connections terminated under load.
  step(`3. every connection to ${databaseName} terminated under load (${FAULT_SECONDS} s)`);
  const terminateAt = (FAULT_SECONDS * 1000) / 3;
  let paymentsDuringDrop: Promise<Submitted[]> | undefined;
  const dropGuids: string[] = [];
  const logs = markLogs(cluster);
  const dropRun = await runLoad({
    port,
    host: RESILIENCE_HOST,
    brand: RESILIENCE_BRAND,
    cookies: cookies.slice(0, FAULT_USERS),
    seconds: FAULT_SECONDS,
    during: {
      at: terminateAt,
      run: async () => {
        paymentsDuringDrop = submitPayments(port, cookies, users, 1, dropGuids);
        await waitForClaims(handle.db, dropGuids, 10_000);
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        const terminated = await admin.query(
          "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [databaseName],
        );
        await admin.end();
        return Number(terminated.rows[0].n);
      },
    },
  });
  const submittedDrop = await paymentsDuringDrop!;
  everyGuid.push(...submittedDrop.map((s) => s.guid));
  const dropReconcile = await reconcileAll(
    handle.db,
    submittedDrop.map((s) => s.guid),
  );
  const dropChecks = await checkPayments(handle.db, businessId, submittedDrop);
  const dropRow = summarisePayments("database connections dropped", dropChecks);
  const bad = dropRun.samples.filter((s) => s.status !== 200 && s.status !== 503);
  const unavailable = dropRun.samples.filter((s) => s.status === 503);
  const lastNot200 = Math.max(0, ...dropRun.samples.filter((s) => s.status !== 200).map((s) => s.at));
  const tail = dropRun.samples.filter((s) => s.at > dropRun.seconds * 1000 * 0.8);
  const dropResult = {
    terminated: dropRun.duringResult,
    requests: dropRun.samples.length,
    ok: dropRun.samples.length - bad.length - unavailable.length,
    unavailable503: unavailable.length,
    unavailableTitles: [...new Set(unavailable.map((s) => s.title ?? ""))],
    unavailableP99Ms: round(
      percentile(
        unavailable.map((s) => s.ms),
        99,
      ),
      1,
    ),
    otherErrors: bad.length,
    otherStatuses: [...new Set(bad.map((s) => s.status || s.error))],
    recoveredAfterMs: !tail.every((s) => s.status === 200)
      ? null
      : unavailable.length || bad.length
        ? round(lastNot200 - terminateAt)
        : 0,
    lastFifthAll200: tail.every((s) => s.status === 200),
    p99Ms: round(
      percentile(
        dropRun.samples.filter((s) => s.status === 200).map((s) => s.ms),
        99,
      ),
      1,
    ),
    perProcess: processRows(logs.read(), dropRun.seconds),
    reconcile: dropReconcile,
    summary: dropRow,
    payments: dropChecks,
  };
  check(
    bad.length === 0,
    `database drop: ${bad.length} answers other than 200 or 503: ${JSON.stringify(dropResult.otherStatuses)}`,
  );
  check(
    unavailable.length === 0 || dropResult.unavailableP99Ms < 5_000,
    `database drop: 503s took up to ${dropResult.unavailableP99Ms} ms (not fast)`,
  );
  check(dropResult.lastFifthAll200, "database drop: not all 200 again by the last fifth of the run");
  results.databaseDrop = dropResult;

  // 4. The card gateway and the PayTo provider slow, then down.
  const portRows: Record<string, unknown>[] = [];
  {
    for (const [mode, slot] of [
      ["slow", 2],
      ["down", 3],
    ] as const) {
      step(`4. card gateway and PayTo provider ${mode} (${FAULT_SECONDS} s of load, ${PAYMENTS} payments)`);
      await setSandboxFault(handle.db, mode, SLOW_MS);
      let paying: Promise<Submitted[]> | undefined;
      const logsFault = markLogs(cluster);
      const run = await runLoad({
        port,
        host: RESILIENCE_HOST,
        brand: RESILIENCE_BRAND,
        cookies: cookies.slice(0, FAULT_USERS),
        seconds: FAULT_SECONDS,
        during: { at: 1_000, run: async () => (paying = submitPayments(port, cookies, users, slot)) },
      });
      const submitted = await paying!;
      const answers = submitted.map((s) => s.answer);
      await setSandboxFault(handle.db, "normal", 0);
      everyGuid.push(...submitted.map((s) => s.guid));
      const pendingBefore = await handle.db
        .selectFrom("payments")
        .select("id")
        .where(
          "request_guid",
          "in",
          submitted.map((s) => s.guid),
        )
        .where("status", "in", UNSETTLED as never[])
        .execute();
      const reconcile = await reconcileAll(
        handle.db,
        submitted.map((s) => s.guid),
      );
      const checks = await checkPayments(handle.db, businessId, submitted);
      const summary = summarisePayments(`gateway and provider ${mode}`, checks);
      const ok = run.samples.filter((s) => s.status === 200).map((s) => s.ms);
      const row = {
        mode,
        requests: run.samples.length,
        errors: run.samples.filter((s) => s.status !== 200).length,
        p50Ms: round(percentile(ok, 50), 1),
        p99Ms: round(percentile(ok, 99), 1),
        paymentAnswerP99Ms: round(
          percentile(
            submitted.map((s) => s.ms),
            99,
          ),
          1,
        ),
        answers: [...new Set(answers)],
        pendingAfterFault: pendingBefore.length,
        perProcess: processRows(logsFault.read(), run.seconds),
        reconcile,
        summary,
        payments: checks,
      };
      check(row.errors === 0, `ports ${mode}: ${row.errors} page errors`);
      check(row.p99Ms < SLOW_MS, `ports ${mode}: page p99 ${row.p99Ms} ms (pages waited for the ${SLOW_MS} ms port)`);
      portRows.push(row);
    }
    results.ports = portRows;
  }

  const totals = await checkTotals(handle.db, businessId);
  check(
    totals.captures === totals.cardPaid,
    `captures at the gateway ${totals.captures} ≠ card payments recorded ${totals.cardPaid}`,
  );
  check(
    totals.settled === totals.paytoPaid,
    `PayTo settlements ${totals.settled} ≠ PayTo payments recorded ${totals.paytoPaid}`,
  );
  check(totals.overpaid === 0, `${totals.overpaid} invoices paid below zero`);
  results.totals = totals;

  const paymentRows = [killRow, dropRow, ...portRows.map((r) => r.summary as ReturnType<typeof summarisePayments>)];
  table(
    "2–4. Payments: each ended exactly once? (charges at the sandbox vs payments and balances in the database)",
    ["scenario", "payments", "charged+recorded", "neither", "lost", "doubled", "not ended"],
    paymentRows.map((r) => [r.scenario, r.payments, r.chargedAndRecorded, r.neither, r.lost, r.doubled, r.notEnded]),
  );
  table(
    `2. ${PAYMENTS} payments (card and PayTo), ${victim.name} SIGKILLed with ${pendingAtKill} of them pending`,
    ["answers to the payers", "statuses right after the kill", "resubmissions (same requestGuid)"],
    [
      [
        Object.entries(count(submittedKill.map((s) => s.answer.replace(/ → .*/, ""))))
          .map(([k, v]) => `${v}× ${k}`)
          .join(", "),
        Object.entries(atKill)
          .map(([k, v]) => `${v} ${k}`)
          .join(", "),
        Object.entries(count(resubmitted.map(String)))
          .map(([k, v]) => `${v}× ${k}`)
          .join(", "),
      ],
    ],
  );
  table(
    `3. Database connections terminated ${round(terminateAt / 1000, 1)} s into ${FAULT_SECONDS} s of load`,
    [
      "connections ended",
      "requests",
      "200",
      "503",
      "503 p99 ms",
      "503 page",
      "other errors",
      "all 200 again after",
      "200 p99 ms",
    ],
    [
      [
        String(dropResult.terminated),
        dropResult.requests,
        dropResult.ok,
        dropResult.unavailable503,
        dropResult.unavailable503 ? dropResult.unavailableP99Ms : "–",
        dropResult.unavailableTitles.join(" | ") || "–",
        `${dropResult.otherErrors} ${dropResult.otherStatuses.join(", ")}`,
        dropResult.recoveredAfterMs === null ? "not within the run" : `${dropResult.recoveredAfterMs} ms`,
        dropResult.p99Ms,
      ],
    ],
  );
  if (portRows.length) {
    table(
      "4. Card gateway and PayTo provider slow (5 s) and down",
      [
        "sandboxes",
        "page requests",
        "errors",
        "page p50 ms",
        "page p99 ms",
        "payment answer p99 ms",
        "pending",
        "answers",
      ],
      portRows.map((r) => [
        String(r.mode),
        Number(r.requests),
        Number(r.errors),
        Number(r.p50Ms),
        Number(r.p99Ms),
        Number(r.paymentAnswerP99Ms),
        Number(r.pendingAfterFault),
        (r.answers as string[]).join(", "),
      ]),
    );
  }
  table(
    "Totals over every scenario",
    ["card captures", "card payments succeeded", "PayTo settled", "PayTo payments succeeded", "invoices below zero"],
    [[totals.captures, totals.cardPaid, totals.settled, totals.paytoPaid, totals.overpaid]],
  );
} catch (error) {
  exitCode = 1;
  failures.push(`the bench itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cluster?.stop().catch(() => {});
  setDatabaseForTesting(undefined);
  await handle.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
}

const output = {
  at: new Date().toISOString(),
  machine: { cpus: os.availableParallelism(), node: process.version },
  options: {
    seconds: SECONDS,
    users: USERS,
    processes: PROCESSES,
    payments: PAYMENTS,
    faultSeconds: FAULT_SECONDS,
    faultUsers: FAULT_USERS,
  },
  durationSeconds: Math.round((performance.now() - started) / 1000),
  failures,
  ...results,
};
fs.mkdirSync("bench/results", { recursive: true });
fs.writeFileSync(path.join("bench/results", "resilience.json"), `${JSON.stringify(output, null, 2)}\n`);
process.stdout.write(`\nWritten to bench/results/resilience.json (${output.durationSeconds} s).\n`);
if (failures.length > 0) {
  process.stderr.write(`\nFAILED:\n${failures.map((f) => `  - ${f}`).join("\n")}\n`);
  process.exit(1);
}
process.exit(exitCode);
