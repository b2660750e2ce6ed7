import { randomUUID } from "node:crypto";
import { createStaticHandler, isRouteErrorResponse } from "@remix-run/router";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { setCardGatewayForTesting } from "../payments/gateway/index.server";
import { createSandboxGateway } from "../payments/gateway/sandbox-gateway.server";
import { loadPayable } from "../payments/payable.server";
import { reconcileUnsettled } from "../payments/reconcile.server";
import { submitPayment } from "../payments/submit.server";
import { setDatabaseForTesting } from "./database.server";
import { openPostgres, type DatabaseHandle } from "./db.server";
import { DatabaseUnavailableError, isConnectionLost } from "./db-unavailable.server";

/**
 * The database connection dropped under load (issue 18; decision 046): pg_terminate_backend on the
 * portal's own connections, on the shared test server (never restarted).
 */
describe("a lost database connection is a 503 to Remix", () => {
  it("a loader that meets DatabaseUnavailableError answers 503 with the 'unavailable' reason and Retry-After", async () => {
    const handler = createStaticHandler([
      {
        id: "root",
        path: "/",
        loader: () => {
          throw new DatabaseUnavailableError(new Error("terminating connection due to administrator command"));
        },
      },
    ]);
    const context = await handler.query(new Request("http://acme.localhost/"));
    if (context instanceof Response) throw new Error("expected a render context");
    expect(context.statusCode).toBe(503);
    const error = context.errors?.root;
    expect(isRouteErrorResponse(error) && error.status === 503 && error.data).toEqual({ reason: "unavailable" });
    expect(context.loaderHeaders.root?.get("Retry-After")).toBe("5");
  });

  it("knows a lost connection from a statement's own error", () => {
    const terminated = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    expect(isConnectionLost(terminated)).toBe(true);
    expect(isConnectionLost(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionLost("57P01")).toBe(false);
  });
});

const POOL_SIZE = 6;

describe.skipIf(!TEST_DATABASE_URL)("pg_terminate_backend under load (TEST_DATABASE_URL)", () => {
  let database: Awaited<ReturnType<typeof createSeededPostgresDatabase>>;
  let handle: DatabaseHandle;
  let admin: pg.Client;
  let name: string;

  beforeAll(async () => {
    database = await createSeededPostgresDatabase();
    name = new URL(database.url).pathname.slice(1);
    // The portal's own settings: fail fast on connecting, bound every statement.
    handle = openPostgres(database.url, { max: POOL_SIZE, connectTimeoutMs: 2_500, statementTimeoutMs: 5_000 });
    setDatabaseForTesting(handle);
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    setCardGatewayForTesting(undefined);
    setDatabaseForTesting(undefined);
    await admin?.end();
    await handle?.close();
    await database?.drop();
  });

  /** Ends every connection to this test's database but the admin's (which is on another database). */
  const terminate = async () =>
    (
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [name],
      )
    ).rowCount ?? 0;

  it("statements in flight and a transaction between statements fail as 503s, the process lives, the next request works", async () => {
    const db = handle.db;
    let inTransaction!: () => void;
    const between = new Promise<void>((resolve) => (inTransaction = resolve));
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    // A transaction that holds its connection between two statements: the case that, without an
    // 'error' listener on the client, throws from the socket and ends the process.
    const transaction = db.transaction().execute(async (tx) => {
      await sql`SELECT 1`.execute(tx);
      inTransaction();
      await paused;
      await sql`SELECT 2`.execute(tx);
    });
    const sleeping = Promise.allSettled([1, 2, 3].map(() => sql`SELECT pg_sleep(3)`.execute(db)));
    const ended = transaction.then(
      () => null,
      (error: unknown) => error,
    );
    await between;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await terminate()).toBeGreaterThanOrEqual(4);
    const results = await sleeping;
    // Each sleep was cut short by the drop, not run out: left alone it would have answered (3 s is
    // within the 5 s statement timeout), and the error is the terminated connection's.
    for (const result of results) {
      expect(result.status).toBe("rejected");
      const reason = (result as PromiseRejectedResult).reason as DatabaseUnavailableError;
      expect(reason).toBeInstanceOf(DatabaseUnavailableError);
      expect(reason).toMatchObject({ status: 503 });
      expect(reason.cause).toMatchObject({ message: expect.stringMatching(/terminat/i) });
    }
    // Give the socket's end a moment to reach the idle client (where an unhandled 'error' would throw).
    await new Promise((resolve) => setTimeout(resolve, 100));
    resume();
    expect(await ended).toBeInstanceOf(DatabaseUnavailableError);
    // The next request gets a fresh connection.
    const again = await sql<{ ok: number }>`SELECT 1 AS ok`.execute(db);
    expect(again.rows).toEqual([{ ok: 1 }]);
  });

  it("payments caught mid-way by repeated drops each end exactly once after the reconciler", async () => {
    // A gateway that takes a while, so drops land between claim, charge and settle.
    setCardGatewayForTesting(createSandboxGateway({ db: async () => handle.db, delayMs: 150 }));
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    const actor = {
      businessId: contact.business_id,
      accountId: account.id,
      contactId: contact.id,
      clientIp: "127.0.0.1",
    };
    const card = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", actor.accountId)
      .where("last4", "=", "1111")
      .executeTakeFirstOrThrow();
    const payable = (await loadPayable(actor, "all")).filter((r) => r.availableCents >= 1_000).slice(0, 6);
    expect(payable.length).toBeGreaterThanOrEqual(4);
    const before = new Map(payable.map((invoice) => [invoice.id, invoice.balanceCents]));
    const guids = payable.map(() => randomUUID());
    const today = new Date().toISOString().slice(0, 10);
    const submissions = Promise.allSettled(
      payable.map((invoice, i) =>
        submitPayment(
          actor,
          {
            requestGuid: guids[i]!,
            selection: [{ invoiceId: invoice.id, amountCents: 1_000 }],
            method: { kind: "saved-card", cardId: card.id },
            note: "",
            currency: "AUD",
            today,
          },
          { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} },
        ),
      ),
    );
    const killed: number[] = [];
    for (const wait of [20, 120, 120, 120]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      killed.push(await terminate());
    }
    const outcomes = await submissions;
    expect(killed.some((n) => n > 0)).toBe(true);
    // Whatever failed, failed as "unavailable" (a 503), never as something else.
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") expect(outcome.reason).toBeInstanceOf(DatabaseUnavailableError);
    }
    // Nothing is in flight now: the reconciler may decide every payment left open. A sweep that
    // meets a connection ended by the last drop fails as a whole and runs again, as the job would.
    // How many it meets is a race (an idle connection leaves the pool only once its socket has read
    // the termination), but each one it meets leaves the pool with that failure (pg-pool drops a
    // client that is no longer queryable on release), so at most the pool's size fail.
    for (let sweep = 0; ; sweep++) {
      try {
        await reconcileUnsettled({ olderThanMs: 0, graceMs: 0, method: "card" });
        break;
      } catch (error) {
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect(sweep).toBeLessThan(POOL_SIZE);
      }
    }
    for (const [i, invoice] of payable.entries()) {
      const key = `${actor.businessId}:${guids[i]}`;
      const charges = await handle.db
        .selectFrom("sandbox_gateway_charges")
        .select(["status"])
        .where("idempotency_key", "=", key)
        .execute();
      const payment = await handle.db
        .selectFrom("payments")
        .select(["status"])
        .where("request_guid", "=", guids[i]!)
        .executeTakeFirst();
      const after = await handle.db
        .selectFrom("invoices")
        .select("balance_cents")
        .where("id", "=", invoice.id)
        .executeTakeFirstOrThrow();
      expect(charges.length).toBeLessThanOrEqual(1);
      if (charges.length === 1) {
        // Charged: recorded once, the invoice down by exactly one payment.
        expect(payment?.status).toBe("succeeded");
        expect(after.balance_cents).toBe(before.get(invoice.id)! - 1_000);
      } else {
        // Never charged: no payment holds the invoice, whose balance is untouched.
        expect(payment === undefined || payment.status === "failed").toBe(true);
        expect(after.balance_cents).toBe(before.get(invoice.id));
      }
    }
  });
});
