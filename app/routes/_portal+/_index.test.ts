import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { PAYABLE_STATUSES } from "~/services/payments/payment-records.server";
import { payNowChoice } from "~/services/payments/payable.server";
import { getAccountTiles } from "~/services/accounts/accounts.server";
import { withRequestScope } from "~/services/platform/request-scope.server";
import { todayIn } from "~/lib/dates";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { loader } from "./_index";

/**
 * The dashboard's loader with a real Request (issue 31): the amount due, what "Pay now" opens (the
 * overdue invoices that can be paid online, else all payable ones), the tiles' links, and a calm
 * line when nothing is owing. On both databases: the tiles and the choice are one statement each.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

type Dashboard = Awaited<ReturnType<typeof loader>>;

function dashboardSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let cookie = "";
  let accountId = "";
  let businessId = "";
  let timeZone = "";

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    businessId = contact.business_id;
    cookie = (
      await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
        businessId,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    timeZone = (
      await handle.db
        .selectFrom("businesses")
        .select("time_zone")
        .where("id", "=", businessId)
        .executeTakeFirstOrThrow()
    ).time_zone;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  async function dashboard() {
    return (await loader({
      request: new Request(`${ORIGIN}/`, { headers: { host: HOST, cookie } }),
      params: {},
      context: {},
    })) as Dashboard;
  }

  /** The invoices "Pay now" should open, read straight from the table. */
  async function owing() {
    const today = todayIn(timeZone);
    const rows = await handle.db
      .selectFrom("invoices")
      .select(["id", "status", "due_date as dueDate", "balance_cents as balanceCents"])
      .where("business_id", "=", businessId)
      .where("account_id", "=", accountId)
      .where("balance_cents", ">", 0)
      .where("status", "in", [1, 3, 5, 6, 7, 8])
      .orderBy("due_date")
      .orderBy("id")
      .execute();
    const payable = rows.filter((row) => (PAYABLE_STATUSES as readonly number[]).includes(row.status));
    return { rows, payable, overdue: payable.filter((row) => row.dueDate < today) };
  }

  describe("the dashboard", () => {
    it("leads with the amount due and a Pay now that opens exactly the overdue invoices it can take", async () => {
      const page = await dashboard();
      accountId = (
        await handle.db
          .selectFrom("accounts")
          .select("id")
          .where("number", "=", page.account.number)
          .executeTakeFirstOrThrow()
      ).id;
      const { rows, overdue } = await owing();
      expect(overdue.length, "the demo ledger has overdue invoices").toBeGreaterThan(0);
      expect(page.payNow).not.toBeNull();
      const href = new URL(page.payNow!.href, ORIGIN);
      expect(href.pathname).toBe("/customer/invoices-and-payments/pay");
      expect(href.searchParams.getAll("invoice")).toEqual(overdue.map((row) => row.id));
      expect(page.payNow).toMatchObject({ overdue: true, count: overdue.length });
      const cents = overdue.reduce((sum, row) => sum + row.balanceCents, 0);
      expect(page.payNow!.amount).toBe(`$${(cents / 100).toLocaleString("en-AU", { minimumFractionDigits: 2 })}`);
      // Disputed and on-hold invoices are left out, and counted so the page can say so.
      expect(page.notPayable).toBe(rows.filter((row) => row.status === 5 || row.status === 6).length);
      expect(page.notPayable).toBeGreaterThan(0);
    });

    it("reads the tiles in one statement and what Pay now opens in one, with or without anything owing", async () => {
      const today = todayIn(timeZone);
      const read = async (account: string) => {
        const tiles = withRequestScope(() => getAccountTiles(businessId, account, today));
        const choice = withRequestScope(() => payNowChoice({ businessId, accountId: account }, today));
        const answers = { tiles: await tiles.result, choice: await choice.result };
        expect([tiles.scope.statements, choice.scope.statements]).toEqual([1, 1]);
        return answers;
      };
      const { rows, payable } = await owing();
      const demo = await read(accountId);
      expect(demo.tiles.openInvoices).toBe(rows.length);
      expect(demo.tiles.lastPayment).not.toBeNull();
      expect(demo.choice.invoiceIds.length).toBeGreaterThan(0);
      expect(demo.choice.invoiceIds.length).toBeLessThanOrEqual(payable.length);
      expect(demo.choice.notPayableCount).toBe(rows.length - payable.length);
      // An account with no invoices and no payments: every figure zero, no last payment, nothing to open.
      const none = await read(randomUUID());
      expect(none.tiles).toEqual({
        balanceCents: 0,
        openInvoices: 0,
        overdueCents: 0,
        overdueInvoices: 0,
        nextDue: null,
        lastPayment: null,
      });
      expect(none.choice).toEqual({ invoiceIds: [], cents: 0, overdue: false, notPayableCount: 0 });
    });

    it("links the last payment to its receipt, or to the statement when the portal did not take it", async () => {
      const before = await dashboard();
      expect(before.tiles.overdueInvoices).toBeGreaterThan(0);
      // The demo ledger's payments were recorded by the business: no receipt, the statement has them.
      expect(before.tiles.lastPayment).toMatchObject({ href: "/statements", hasReceipt: false });

      const reference = `PAY-${randomUUID().slice(0, 10).toUpperCase()}`;
      await handle.db
        .insertInto("payments")
        .values({
          business_id: businessId,
          account_id: accountId,
          amount_cents: 1_234,
          subtotal_cents: 1_234,
          currency: "AUD",
          method: "card",
          status: "succeeded",
          reference,
          request_guid: randomUUID(),
          request_hash: "0".repeat(64),
          card_brand: "visa",
          card_id: null,
          card_last4: "1111",
          completed_at: new Date(),
          created_by: null,
          failure_code: null,
          gateway_charge_id: null,
          last_checked_at: null,
          link_token_id: null,
          payer_reference: null,
          payment_request_id: null,
          payto_agreement_id: null,
          promise_date: null,
          provider_payment_id: null,
          schedule_instalment_id: null,
        })
        .execute();
      await handle.db
        .insertInto("statement_lines")
        .values({
          business_id: businessId,
          account_id: accountId,
          line_date: "2099-01-01",
          type: "payment",
          reference,
          description: "Card payment",
          debit_cents: 0,
          credit_cents: 1_234,
          invoice_id: null,
        })
        .execute();
      const after = await dashboard();
      expect(after.tiles.lastPayment).toMatchObject({
        amount: "$12.34",
        href: `/payment/complete/${reference}`,
        hasReceipt: true,
      });
    });

    it("opens every payable invoice when none is overdue, and offers no Pay at all when nothing is owing", async () => {
      const { overdue } = await owing();
      await handle.db
        .updateTable("invoices")
        .set({ due_date: "2099-12-31" })
        .where(
          "id",
          "in",
          overdue.map((row) => row.id),
        )
        .execute();
      const { payable } = await owing();
      const allPayable = await dashboard();
      expect(allPayable.tiles.overdueInvoices).toBeGreaterThan(0); // the disputed/on-hold ones still are
      expect(allPayable.payNow).toMatchObject({ overdue: false, count: payable.length });
      expect(new URL(allPayable.payNow!.href, ORIGIN).searchParams.getAll("invoice").sort()).toEqual(
        payable.map((row) => row.id).sort(),
      );

      // Only disputed and on-hold invoices left owing: nothing to pay online, and they are still counted.
      await handle.db
        .updateTable("invoices")
        .set({ balance_cents: 0, status: 2 })
        .where(
          "id",
          "in",
          payable.map((row) => row.id),
        )
        .execute();
      const held = (await owing()).rows;
      expect(held.length).toBeGreaterThan(0);
      const heldOnly = await dashboard();
      expect(heldOnly.payNow).toBeNull();
      expect(heldOnly.notPayable).toBe(held.length);
      expect(heldOnly.tiles.openInvoices).toBe(held.length);

      await handle.db
        .updateTable("invoices")
        .set({ balance_cents: 0, status: 2 })
        .where("account_id", "=", accountId)
        .execute();
      const settled = await dashboard();
      expect(settled.payNow).toBeNull();
      expect(settled.notPayable).toBe(0);
      expect(settled.tiles.openInvoices).toBe(0);
    });
  });
}

describe("on PGlite", () => {
  dashboardSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  dashboardSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
