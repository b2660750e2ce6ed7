import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { BACKGROUND_HANDLERS } from "../jobs/background.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { QUEUES } from "../platform/queue.server";
import type { PayMethod } from "./payment-records.server";
import { reconcilePayment, reconcileUnsettled } from "./reconcile.server";
import { submitPayment } from "./submit.server";

/**
 * The reconciler: card payments whose answer was lost are settled from the gateway's record by
 * our key, once, whether asked directly or by the `payment-reconcile` job (moved here from the
 * submit path's tests when the engine was split by use case).
 */
function reconcileSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let actor: { businessId: string; accountId: string; contactId: string; clientIp: string };
  const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
  const today = new Date().toISOString().slice(0, 10);
  const nextYear = new Date().getUTCFullYear() + 1;

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
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
    actor = { businessId: contact.business_id, accountId: account.id, contactId: contact.id, clientIp: "127.0.0.1" };
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const invoices = (accountId = actor.accountId, statuses = [1, 3, 7, 8]) =>
    handle.db
      .selectFrom("invoices")
      .select(["id", "number", "balance_cents", "status", "due_date"])
      .where("account_id", "=", accountId)
      .where("status", "in", statuses)
      .where("balance_cents", ">", 0)
      .orderBy("number")
      .execute();

  const newCard = (cardNumber: string): PayMethod => ({
    kind: "new-card",
    card: {
      cardNumber,
      cvn: "123",
      expiryMonth: 12,
      expiryYear: nextYear,
      holderName: "Olivia",
      save: false,
      authorityReference: "X",
    },
  });

  const charges = async () =>
    Number(
      (
        await handle.db
          .selectFrom("sandbox_gateway_charges")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe("reconciling card payments whose outcome was lost", () => {
    it("the reconciler settles an unknown payment from the gateway's record, once", async () => {
      const [invoice] = await invoices();
      const guid = randomUUID();
      const outcome = await submitPayment(
        actor,
        {
          requestGuid: guid,
          selection: [{ invoiceId: invoice!.id, amountCents: 300 }],
          method: newCard("4111111111111111"),
          note: "",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(outcome.kind).toBe("succeeded");
      // Pretend the answer had been lost: back to unknown, balance as before the charge.
      const payment = await handle.db
        .selectFrom("payments")
        .select(["id"])
        .where("request_guid", "=", guid)
        .executeTakeFirstOrThrow();
      await handle.db
        .updateTable("payments")
        .set({ status: "unknown", created_at: new Date(Date.now() - 60_000) })
        .where("id", "=", payment.id)
        .execute();
      await handle.db
        .updateTable("invoices")
        .set((eb) => ({ balance_cents: eb("balance_cents", "+", 300) }))
        .where("id", "=", invoice!.id)
        .execute();
      const balance = (
        await handle.db
          .selectFrom("invoices")
          .select("balance_cents")
          .where("id", "=", invoice!.id)
          .executeTakeFirstOrThrow()
      ).balance_cents;
      expect(await reconcileUnsettled({ olderThanMs: 1_000 })).toMatchObject({ succeeded: 1 });
      expect(await reconcilePayment(payment.id)).toBe("succeeded");
      const after = (
        await handle.db
          .selectFrom("invoices")
          .select("balance_cents")
          .where("id", "=", invoice!.id)
          .executeTakeFirstOrThrow()
      ).balance_cents;
      expect(after).toBe(balance - 300);
    });

    it("the card reconciler's own sweep reaches a card payment left unknown behind more than a run's worth of older PayTo payments", async () => {
      // 101 PayTo payments submitted days ago, waiting for the bank (the PayTo poller's work).
      const old = new Date(Date.now() - 5 * 86_400_000);
      const payto = await handle.db
        .insertInto("payments")
        .values(
          Array.from({ length: 101 }, (_, n) => ({
            business_id: actor.businessId,
            account_id: actor.accountId,
            request_guid: randomUUID(),
            request_hash: "0".repeat(64),
            reference: `PAY-${String(n).padStart(10, "0")}`,
            method: "payto" as const,
            status: "submitted" as const,
            currency: "AUD",
            amount_cents: 100,
            subtotal_cents: 100,
            created_at: old,
          })),
        )
        .returning("id")
        .execute();
      try {
        await cardBehind();
      } finally {
        await handle.db
          .deleteFrom("payments")
          .where(
            "id",
            "in",
            payto.map((p) => p.id),
          )
          .execute();
      }
    });

    /** A card payment whose answer was lost; the reconciler's job, as the queue runs it, must settle it. */
    async function cardBehind() {
      const [invoice] = await invoices();
      const guid = randomUUID();
      const submitted = await submitPayment(
        actor,
        {
          requestGuid: guid,
          selection: [{ invoiceId: invoice!.id, amountCents: 200 }],
          method: newCard("4111111111111111"),
          note: "",
          currency: "AUD",
          today,
        },
        context,
      );
      expect(submitted.kind).toBe("succeeded");
      // Its answer was lost: unknown, and the balance as before the charge.
      await handle.db
        .updateTable("payments")
        .set({ status: "unknown", created_at: new Date(Date.now() - 60_000) })
        .where("request_guid", "=", guid)
        .execute();
      await handle.db
        .updateTable("invoices")
        .set((eb) => ({ balance_cents: eb("balance_cents", "+", 200) }))
        .where("id", "=", invoice!.id)
        .execute();
      const status = async () =>
        (
          await handle.db
            .selectFrom("payments")
            .select("status")
            .where("request_guid", "=", guid)
            .executeTakeFirstOrThrow()
        ).status;
      // The `payment-reconcile` job's handler, as every process's queue worker runs it (decision 043).
      await BACKGROUND_HANDLERS[QUEUES.reconcile]!({ id: randomUUID(), data: {} }, handle);
      expect(await status()).toBe("succeeded");
      return { guid, invoiceId: invoice!.id };
    }

    it("the payment-reconcile job run twice (a retry, a second process's slot): settled once; the second run changes nothing", async () => {
      const { guid, invoiceId } = await cardBehind();
      const state = async () => {
        const payment = await handle.db
          .selectFrom("payments")
          .select(["id", "status", "reference", "amount_cents"])
          .where("request_guid", "=", guid)
          .executeTakeFirstOrThrow();
        return {
          payment,
          balance: (
            await handle.db
              .selectFrom("invoices")
              .select("balance_cents")
              .where("id", "=", invoiceId)
              .executeTakeFirstOrThrow()
          ).balance_cents,
          allocations: (
            await handle.db
              .selectFrom("payment_allocations")
              .select("invoice_id")
              .where("payment_id", "=", payment.id)
              .execute()
          ).length,
          lines: (
            await handle.db
              .selectFrom("statement_lines")
              .select("id")
              .where("reference", "=", payment.reference)
              .execute()
          ).length,
          charges: await charges(),
        };
      };
      const once = await state();
      expect(once.payment.status).toBe("succeeded");
      await BACKGROUND_HANDLERS[QUEUES.reconcile]!({ id: randomUUID(), data: {} }, handle);
      expect(await state()).toEqual(once);
    });
  });
}

describe("on PGlite", () => {
  reconcileSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

// The same on a real PostgreSQL, where TEST_DATABASE_URL names one.
describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  reconcileSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
