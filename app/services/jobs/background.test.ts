import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { BACKGROUND_HANDLERS, startBackgroundWork, type BackgroundWork } from "./background.server";
import { setPayToProviderForTesting } from "../payments/payto/index.server";
import type { PayToProvider } from "../payments/payto/payto-provider.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { openPostgres, type DatabaseHandle } from "../platform/db.server";
import { expireStale } from "./expiry.server";
import { QUEUES } from "../platform/queue.server";

/**
 * The background work on the queue (decision 043): the periodic jobs offered by every process and
 * run once per slot (two PgBoss instances on two pools on PostgreSQL), the expiry sweep deleting
 * only what has expired (and nothing more the second time), and on PGlite the same jobs run in
 * the one process while its queries still get through.
 */
function backgroundSuite(
  open: () => Promise<{ handle: DatabaseHandle; second: () => DatabaseHandle; close: () => Promise<void> }>,
) {
  let handle: DatabaseHandle;
  let second: () => DatabaseHandle;
  let close: () => Promise<void>;
  let acme: { businessId: string; contactId: string };
  const running: BackgroundWork[] = [];

  beforeAll(async () => {
    ({ handle, second, close } = await open());
    setDatabaseForTesting(handle);
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    acme = { businessId: contact.business_id, contactId: contact.id };
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((work) => work.stop()));
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const hex = () => createHash("sha256").update(randomBytes(16)).digest("hex");

  /** A session, a link session and a rate-limit hit, each expired or not as asked. */
  async function rows(at: Date, offsetMs: number) {
    const expires = new Date(at.getTime() + offsetMs);
    const session = hex();
    await handle.db
      .insertInto("sessions")
      .values({
        id_hash: session,
        business_id: acme.businessId,
        contact_id: acme.contactId,
        auth_method: "credentials",
        log_token: "t",
        expires_at: expires,
      })
      .execute();
    const token = await handle.db
      .insertInto("link_tokens")
      .values({
        business_id: acme.businessId,
        purpose: "adhoc",
        subject_id: randomUUID(),
        contact_id: acme.contactId,
        selector: randomBytes(12).toString("base64url").slice(0, 16),
        verifier_hash: hex(),
        expires_at: expires,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const linkSession = hex();
    await handle.db
      .insertInto("link_sessions")
      .values({ id_hash: linkSession, business_id: acme.businessId, link_token_id: token.id, expires_at: expires })
      .execute();
    const hit = await handle.db
      .insertInto("rate_limit_hits")
      .values({
        business_id: acme.businessId,
        key: `expiry-test:${randomUUID()}`,
        // Old enough to prune when "expired", fresh when not.
        at: new Date(at.getTime() + (offsetMs < 0 ? -2 * 3_600_000 : -60_000)),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "=", acme.businessId)
      .executeTakeFirstOrThrow();
    const held = randomUUID();
    await handle.db
      .insertInto("held_cards")
      .values({
        id: held,
        business_id: acme.businessId,
        account_id: account.id,
        contact_id: acme.contactId,
        request_guid: randomUUID(),
        holder_hash: hex(),
        gateway_token: `tok_${held}`,
        brand: "visa",
        first_digit: "4",
        last4: "1111",
        expiry_month: 12,
        expiry_year: 2030,
        holder_name: "Olivia Coast",
        expires_at: expires,
      })
      .execute();
    return { session, linkSession, token: token.id, hit: hit.id, held };
  }

  async function present(made: Awaited<ReturnType<typeof rows>>) {
    const count = async (query: Promise<unknown[]>) => (await query).length;
    return {
      session: await count(
        handle.db.selectFrom("sessions").select("id_hash").where("id_hash", "=", made.session).execute(),
      ),
      linkSession: await count(
        handle.db.selectFrom("link_sessions").select("id_hash").where("id_hash", "=", made.linkSession).execute(),
      ),
      token: await count(handle.db.selectFrom("link_tokens").select("id").where("id", "=", made.token).execute()),
      hit: await count(handle.db.selectFrom("rate_limit_hits").select("id").where("id", "=", made.hit).execute()),
      held: await count(handle.db.selectFrom("held_cards").select("id").where("id", "=", made.held).execute()),
    };
  }

  it("the expiry sweep deletes only expired sessions, link sessions, old rate-limit hits and held cards, in batches; a second run deletes nothing", async () => {
    const at = new Date(Date.now() + 10 * 86_400_000);
    const expired = await Promise.all([1, 2, 3, 4, 5].map(() => rows(at, -1_000)));
    const live = await Promise.all([1, 2].map(() => rows(at, 60_000)));
    // Batches of two: the first run goes through several and stops at its limit of batches.
    const first = await expireStale(handle.db, { at, batch: 2, maxBatches: 2 });
    expect(first.sessions).toBe(4);
    const rest = await expireStale(handle.db, { at, batch: 2, maxBatches: 10 });
    expect(rest.sessions).toBeGreaterThanOrEqual(1);
    for (const made of expired) {
      // The link token itself is the record of the link: kept.
      expect(await present(made)).toEqual({ session: 0, linkSession: 0, token: 1, hit: 0, held: 0 });
    }
    for (const made of live) {
      expect(await present(made)).toEqual({ session: 1, linkSession: 1, token: 1, hit: 1, held: 1 });
    }
    expect(await expireStale(handle.db, { at })).toEqual({
      sessions: 0,
      linkSessions: 0,
      rateLimitHits: 0,
      drafts: 0,
      heldCards: 0,
    });
    for (const made of live)
      expect(await present(made)).toEqual({ session: 1, linkSession: 1, token: 1, hit: 1, held: 1 });
    await handle.db
      .deleteFrom("sessions")
      .where(
        "id_hash",
        "in",
        live.map((m) => m.session),
      )
      .execute();
  });

  it("the expiry job through the queue: run, completed, and its output says what it deleted", async () => {
    const made = await rows(new Date(), -5_000);
    const work = await startBackgroundWork(handle, {
      handlers: { [QUEUES.expiry]: BACKGROUND_HANDLERS[QUEUES.expiry] },
      periodic: {},
      pollingIntervalSeconds: 0.5,
    });
    running.push(work);
    const id = await work.queue.boss.send(QUEUES.expiry, {}, { singletonKey: QUEUES.expiry, singletonSeconds: 1 });
    expect(id).toBeTruthy();
    await expect
      .poll(
        async () =>
          (
            await sql<{ state: string }>`SELECT state::text AS state FROM pgboss.job WHERE id = ${id}::uuid`.execute(
              handle.db,
            )
          ).rows[0]?.state,
        { timeout: 20_000, interval: 100 },
      )
      .toBe("completed");
    expect(await present(made)).toEqual({ session: 0, linkSession: 0, token: 1, hit: 0, held: 0 });
    const output = await sql<{
      output: { sessions: number };
    }>`SELECT output FROM pgboss.job WHERE id = ${id}::uuid`.execute(handle.db);
    expect(output.rows[0]!.output.sessions).toBeGreaterThanOrEqual(1);
  });

  it("a job waiting on a provider holds no connection: the process's queries (on PGlite, its one connection) go on meanwhile", async () => {
    // The agreement poll, with a provider that does not answer until the test lets it.
    let entered!: () => void;
    const asked = new Promise<void>((resolve) => (entered = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const waits = async () => {
      entered();
      await answered;
      return null;
    };
    setPayToProviderForTesting({ getAgreement: waits, findAgreement: waits } as unknown as PayToProvider);
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    const agreement = await handle.db
      .insertInto("payto_agreements")
      .values({
        business_id: acme.businessId,
        account_id: account.id,
        request_guid: randomUUID(),
        request_hash: hex(),
        status: "ACTIVE",
        provider_agreement_id: `held-${randomUUID()}`,
        party_name: "Olivia Nguyen",
        alias_type: "EMAL",
        alias_value: "held@payto.test",
        max_amount_cents: 100_000,
        // First in the poll's order.
        updated_at: new Date(Date.now() - 86_400_000),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    try {
      const work = await startBackgroundWork(handle, {
        handlers: { [QUEUES.paytoAgreements]: BACKGROUND_HANDLERS[QUEUES.paytoAgreements] },
        periodic: {},
        pollingIntervalSeconds: 0.5,
      });
      running.push(work);
      const id = await work.queue.boss.send(QUEUES.paytoAgreements, {}, { singletonKey: "held", singletonSeconds: 1 });
      await asked;
      // The job is inside its sweep, waiting on the provider: a request's query is answered now.
      const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sessions`.execute(handle.db);
      expect(row.rows).toHaveLength(1);
      answer();
      await expect
        .poll(
          async () =>
            (
              await sql<{ state: string }>`SELECT state::text AS state FROM pgboss.job WHERE id = ${id}::uuid`.execute(
                handle.db,
              )
            ).rows[0]?.state,
          { timeout: 20_000, interval: 100 },
        )
        .toBe("completed");
    } finally {
      answer();
      setPayToProviderForTesting(undefined);
      await handle.db.deleteFrom("payto_agreements").where("id", "=", agreement.id).execute();
    }
  });

  it("two processes offering the same periodic job in the same slots: one job per slot, each run once", async () => {
    const queue = QUEUES.reconcile;
    await sql`DELETE FROM pgboss.job WHERE name = ${queue}`.execute(handle.db);
    const runs = new Map<string, number>();
    const counting = {
      [queue]: async (job: { id: string }) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        // Long enough that the other process would fetch the next slot's job meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { ok: true };
      },
    };
    const a = await startBackgroundWork(handle, { handlers: counting, periodic: {}, pollingIntervalSeconds: 0.5 });
    running.push(a);
    const b = await startBackgroundWork(second(), { handlers: counting, periodic: {}, pollingIntervalSeconds: 0.5 });
    running.push(b);
    // Both offer a one-second slot's job, at once, ten times over about three seconds.
    const offers = (work: BackgroundWork) =>
      work.queue.boss.send(queue, {}, { singletonKey: queue, singletonSeconds: 1 });
    for (let n = 0; n < 10; n++) {
      await Promise.all([offers(a), offers(b), offers(a), offers(b)]);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const jobs = async () =>
      (
        await sql<{ id: string; state: string; slot: string }>`
          SELECT id::text AS id, state::text AS state, singleton_on::text AS slot FROM pgboss.job WHERE name = ${queue}`.execute(
          handle.db,
        )
      ).rows;
    await expect
      .poll(async () => (await jobs()).every((job) => job.state === "completed"), { timeout: 30_000, interval: 100 })
      .toBe(true);
    const all = await jobs();
    // One job per slot (about three or four slots), each run exactly once.
    expect(new Set(all.map((job) => job.slot)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect([...runs.keys()].sort()).toEqual(all.map((job) => job.id).sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });

  it("the process's own periodic offers: every periodic queue gets its slot's job and runs it", async () => {
    const periodicQueues = [QUEUES.reconcile, QUEUES.paytoPayments, QUEUES.paytoAgreements, QUEUES.expiry];
    await sql`DELETE FROM pgboss.job WHERE name = ANY(${periodicQueues})`.execute(handle.db);
    const work = await startBackgroundWork(handle, {
      handlers: Object.fromEntries(periodicQueues.map((q) => [q, BACKGROUND_HANDLERS[q]!])),
      periodic: Object.fromEntries(periodicQueues.map((q) => [q, 3_600_000])),
      pollingIntervalSeconds: 0.5,
    });
    running.push(work);
    await work.offerAll();
    await expect
      .poll(
        async () =>
          (
            await sql<{ name: string }>`
              SELECT DISTINCT name FROM pgboss.job WHERE name = ANY(${periodicQueues}) AND state = 'completed'`.execute(
              handle.db,
            )
          ).rows
            .map((row) => row.name)
            .sort(),
        { timeout: 30_000, interval: 200 },
      )
      .toEqual([...periodicQueues].sort());
  });
}

describe("on PGlite", () => {
  backgroundSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, second: () => handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  backgroundSuite(async () => {
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
