import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { instalmentFixtures } from "../../../tests/support/instalment-fixtures";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { startOfDayIn, todayIn } from "~/lib/dates";
import { addDays, addMonths } from "~/lib/instalments";
import type { CardGateway } from "../payments/gateway/card-gateway.server";
import { getCardGateway, setCardGatewayForTesting } from "../payments/gateway/index.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { openPostgres, type DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { enqueue, jobStates, QUEUES } from "../platform/queue.server";
import { startInstalmentRunner, sweepInstalments, type InstalmentRunner } from "./instalment-runner.server";

/**
 * The instalment runner on the job queue (decision 035), on PGlite (one process, pg-boss through
 * Kysely's lock) and on PostgreSQL (two processes, each with its own pool and PgBoss): due
 * instalments found in each business's time zone, two runners racing for the same instalment, a
 * runner killed after the charge, the retry policy with its emails, all with the clock moved.
 */
const SYDNEY = "Australia/Sydney";

function runnerSuite(
  open: () => Promise<{ handle: DatabaseHandle; second: () => DatabaseHandle; close: () => Promise<void> }>,
) {
  let handle: DatabaseHandle;
  let second: () => DatabaseHandle;
  let close: () => Promise<void>;
  let fx: ReturnType<typeof instalmentFixtures>;
  let acme: string;
  let catcher: SmtpCatcher;
  const savedSmtp = process.env.SMTP_URL;
  const clock = fixedClock(new Date());
  const runners: InstalmentRunner[] = [];

  beforeAll(async () => {
    catcher = await startSmtpCatcher();
    process.env.SMTP_URL = catcher.smtpUrl;
    resetEnvForTesting();
    ({ handle, second, close } = await open());
    setDatabaseForTesting(handle);
    setClockForTesting(clock);
    fx = instalmentFixtures(handle.db);
    acme = await fx.businessOf("acme.localhost");
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    setCardGatewayForTesting(undefined);
    clock.set(new Date());
  });
  afterAll(async () => {
    setClockForTesting(undefined);
    setDatabaseForTesting(undefined);
    await close();
    await catcher.close();
    if (savedSmtp === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = savedSmtp;
    resetEnvForTesting();
  });

  /** A runner "process": its own PgBoss (and, on PostgreSQL, its own pool), no minute timer. */
  async function runner(on: DatabaseHandle = handle) {
    const started = await startInstalmentRunner(on, { sweepEveryMs: 0, pollingIntervalSeconds: 0.5 });
    runners.push(started);
    return started;
  }

  const waitForJobs = async (ids: string[]) => {
    await expect
      .poll(
        async () =>
          [...(await jobStates(handle.db, QUEUES.charge, ids)).values()].filter((s) => s === "completed").length,
        { timeout: 30_000, interval: 100 },
      )
      .toBe(ids.length);
  };

  it("sweeps an instalment due on the 1st in Sydney at 00:05 Sydney time, still the day before in UTC", async () => {
    // The 1st of a month at least two days away.
    const today = todayIn(SYDNEY, new Date());
    let day = addMonths(`${today.slice(0, 7)}-01`, 1);
    if (day < addDays(today, 2)) day = addMonths(day, 1);
    const midnight = startOfDayIn(SYDNEY, day);
    clock.set(new Date(midnight.getTime() - 86_400_000));
    const made = await fx.activeSchedule(acme, { amounts: [25_00], firstIn: 1 });
    expect(made.instalments[0]!.due_date).toBe(day);
    const sweptFor = async (at: Date) => {
      clock.set(at);
      await sweepInstalments(handle.db, at);
      const rows = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = ${QUEUES.charge} AND data->>'instalmentId' = ${made.instalments[0]!.id}`.execute(handle.db);
      return rows.rows[0]!.n;
    };
    expect(await sweptFor(new Date(midnight.getTime() - 5 * 60_000))).toBe(0);
    const fiveAfter = new Date(midnight.getTime() + 5 * 60_000);
    expect(fiveAfter.toISOString().slice(0, 10)).toBe(addDays(day, -1));
    expect(await sweptFor(fiveAfter)).toBe(1);
    // A second sweep (another process, the next minute) writes nothing more for it.
    expect(await sweptFor(new Date(fiveAfter.getTime() + 60_000))).toBe(1);
    const started = await runner();
    const result = await started.runDueNow();
    expect(result.states.failed ?? 0).toBe(0);
    expect(await fx.instalment(made.instalments[0]!.id)).toMatchObject({ status: "paid" });
  });

  it("two runners racing for the same due instalments charge each exactly once", async () => {
    const schedules = await Promise.all(
      [1, 2, 3].map(() => fx.activeSchedule(acme, { amounts: [11_00, 11_00], invoiceCents: [22_00] })),
    );
    // Two processes, each with its own PgBoss working the same queue (on PostgreSQL each with a
    // pool of its own, SKIP LOCKED handing each job to one of them).
    await runner();
    await runner(second());
    // Both sweep at once, and the same instalment is also handed out under keys of its own, as
    // if two sweeps had seen different counts: every job races for the same claims.
    const swept = await Promise.all([sweepInstalments(handle.db), sweepInstalments(handle.db)]);
    const extra = await handle.db
      .transaction()
      .execute(async (tx) =>
        Promise.all(
          [1, 2, 3, 4].map((n) =>
            enqueue(
              tx,
              QUEUES.charge,
              { businessId: acme, instalmentId: schedules[0]!.instalments[0]!.id },
              { key: `race:${schedules[0]!.instalments[0]!.id}:${n}` },
            ),
          ),
        ),
      );
    const ids = [...swept.flat(), ...(extra.filter(Boolean) as string[])];
    await waitForJobs(ids);
    for (const made of schedules) {
      const { payments, charges } = await fx.moneyOf(made.scope.accountId);
      expect(charges).toHaveLength(1);
      expect(payments).toHaveLength(1);
      expect(payments[0]!.status).toBe("succeeded");
      expect(await fx.instalment(made.instalments[0]!.id)).toMatchObject({ status: "paid", attempts: 1 });
      expect(await fx.instalment(made.instalments[1]!.id)).toMatchObject({ status: "scheduled", attempts: 0 });
    }
  });

  it("a runner killed after the gateway charged and before it recorded: after the restart, one charge and the instalment paid", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [33_00] });
    const id = made.instalments[0]!.id;
    const real = getCardGateway();
    let charged = 0;
    setCardGatewayForTesting({
      ...real,
      async charge(input) {
        await real.charge(input);
        charged++;
        // The process dies here: the answer never comes back.
        return new Promise(() => {});
      },
    } satisfies CardGateway);
    const doomed = await runner();
    const ids = await sweepInstalments(handle.db);
    expect(ids.length).toBeGreaterThan(0);
    await expect.poll(() => charged, { timeout: 15_000 }).toBe(1);
    // Killed: it stops fetching and gives up on the job in hand.
    runners.splice(runners.indexOf(doomed), 1);
    await doomed.queue.stop(1_000);
    setCardGatewayForTesting(undefined);
    expect(await fx.instalment(id)).toMatchObject({ status: "processing" });

    // The restart: a new process; a few minutes later its sweep finds the unresolved try.
    const restarted = await runner();
    clock.advanceMs(3 * 60_000);
    await restarted.runDueNow();
    expect(await fx.instalment(id)).toMatchObject({ status: "paid", attempts: 1 });
    const { payments, charges } = await fx.moneyOf(made.scope.accountId);
    expect(charges).toHaveLength(1);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.status).toBe("succeeded");
  });

  it("a declined instalment is retried on day +3 and +7, emailing the contact each time, then arrears tells both", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [45_00, 45_00], way: "declining-card" });
    const id = made.instalments[0]!.id;
    const started = await runner();
    const from = catcher.messages.length;
    const run = async () => {
      await started.runDueNow();
      return fx.instalment(id);
    };
    const day0 = todayIn(SYDNEY, clock());
    expect(await run()).toMatchObject({ status: "scheduled", attempts: 1, next_attempt_on: addDays(day0, 3) });
    const first = await catcher.waitForMail(made.scope.email, { after: from, subject: /declined/ });
    expect(first.text).toContain("the 1st of 2 instalments");
    expect(first.text).toMatch(/We will try again on/);
    const link = first.links.find((l) => l.includes("/customer/payment-schedule/"));
    expect(link).toMatch(/^http:\/\/acme\.localhost:3000\/customer\/payment-schedule\/[A-Za-z0-9_-]{20,}$/);
    expect(first.html).toContain("Pay it another way");

    clock.advanceDays(1);
    expect(await run()).toMatchObject({ status: "scheduled", attempts: 1 });
    clock.advanceDays(2);
    expect(await run()).toMatchObject({ status: "scheduled", attempts: 2, next_attempt_on: addDays(day0, 10) });
    clock.advanceDays(7);
    expect(await run()).toMatchObject({ status: "failed", attempts: 3, next_attempt_on: null });
    expect(await fx.schedule(made.schedule.id)).toMatchObject({ status: "arrears" });
    const arrears = await catcher.waitForMail(made.scope.email, { after: from, subject: /in arrears/ });
    expect(arrears.text).toContain("will not be tried again");
    const business = await catcher.waitForMail("accounts@acme.example", { after: from, subject: /in arrears/ });
    expect(business.text).toContain(made.scope.accountNumber);
    expect(business.text).toContain("3 tries");
    await expect
      .poll(() => catcher.messages.slice(from).filter((m) => m.to.includes(made.scope.email.toLowerCase())).length, {
        timeout: 15_000,
      })
      .toBe(3);
    expect((await fx.moneyOf(made.scope.accountId)).charges).toHaveLength(3);
  });

  it("emails the receipt of a charged instalment, saying which instalment it was", async () => {
    const made = await fx.activeSchedule(acme, { amounts: [12_00, 12_00, 12_00] });
    const started = await runner();
    const from = catcher.messages.length;
    await started.runDueNow();
    const receipt = await catcher.waitForMail(made.scope.email, { after: from, subject: /Receipt/ });
    expect(receipt.subject).toMatch(/the 1st of 3 instalments/);
    expect(receipt.text).toContain(`The 1st of 3 instalments of payment schedule ${made.schedule.reference}`);
  });
}

describe("on PGlite", () => {
  runnerSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, second: () => handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  runnerSuite(async () => {
    const database = await createSeededPostgresDatabase();
    const others: DatabaseHandle[] = [];
    return {
      handle: database.handle,
      // A second "process": a pool of its own.
      second: () => {
        const other = openPostgres(database.url, { max: 4 });
        others.push(other);
        return other;
      },
      close: async () => {
        await Promise.all(others.map((other) => other.close()));
        await database.drop();
      },
    };
  });
});
