import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import type { DatabaseHandle } from "../platform/db.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { withRequestScope } from "../platform/request-scope.server";
import { getAccountTiles } from "./accounts.server";
import { getAgeing } from "./ageing.server";

/**
 * The balance by age (issue 34): each band's edges, the statuses and balances that owe nothing, other
 * accounts kept out, one statement, and a total that is the dashboard's amount due to the cent.
 */
const TODAY = "2026-12-06";

/** TODAY minus `days` (negative: after today), as a calendar date. */
function daysBefore(days: number) {
  const date = new Date(`${TODAY}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

function ageingSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let businessId = "";

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    businessId = (
      await handle.db
        .selectFrom("hosts")
        .select("business_id")
        .where("hostname", "=", "acme.localhost")
        .executeTakeFirstOrThrow()
    ).business_id;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  async function account() {
    const row = await handle.db
      .insertInto("accounts")
      .values({ business_id: businessId, name: "Ageing Test", number: `AGE-${randomUUID().slice(0, 8)}` })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function invoice(accountId: string, daysLate: number, balanceCents: number, status = 1) {
    await handle.db
      .insertInto("invoices")
      .values({
        business_id: businessId,
        account_id: accountId,
        number: `INV-${randomUUID().slice(0, 8)}`,
        issue_date: daysBefore(daysLate + 30),
        due_date: daysBefore(daysLate),
        amount_cents: balanceCents + 1_000,
        balance_cents: balanceCents,
        status,
      })
      .execute();
  }

  it("puts each balance in its band by days past due, edges included", async () => {
    const accountId = await account();
    // Due in a week and due today: current. Then each band's first and last day.
    const cases: [number, number][] = [
      [-7, 1],
      [0, 2],
      [1, 10],
      [30, 20],
      [31, 100],
      [60, 200],
      [61, 1_000],
      [90, 2_000],
      [91, 10_000],
      [400, 20_000],
    ];
    for (const [late, cents] of cases) await invoice(accountId, late, cents);
    const ageing = await getAgeing(businessId, accountId, TODAY);
    expect(ageing).toEqual({
      asAt: TODAY,
      bands: { current: 3, days1to30: 30, days31to60: 300, days61to90: 3_000, over90: 30_000 },
      totalCents: 33_333,
    });
  });

  it("counts only what is owed: closed, archived and fully paid invoices and other accounts stay out", async () => {
    const accountId = await account();
    const other = await account();
    await invoice(accountId, 45, 12_345, 3); // overdue
    await invoice(accountId, 10, 500, 6); // disputed: still owed
    await invoice(accountId, 10, 700, 7); // promised: still owed
    await invoice(accountId, 45, 99_999, 2); // closed
    await invoice(accountId, 45, 99_999, 4); // archived
    await invoice(accountId, 45, 0, 1); // open but paid down to nothing
    await invoice(other, 45, 77_777, 3);
    const ageing = await getAgeing(businessId, accountId, TODAY);
    expect(ageing.bands).toEqual({ current: 0, days1to30: 1_200, days31to60: 12_345, days61to90: 0, over90: 0 });
    expect(ageing.totalCents).toBe(13_545);
    // An account with nothing on it: every band zero.
    expect((await getAgeing(businessId, await account(), TODAY)).totalCents).toBe(0);
  });

  it("is one statement, and its total is the dashboard's amount due on the demo ledger", async () => {
    const demo = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "=", businessId)
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    const read = withRequestScope(() => getAgeing(businessId, demo.id, TODAY));
    const ageing = await read.result;
    expect(read.scope.statements).toBe(1);
    const tiles = await getAccountTiles(businessId, demo.id, TODAY);
    expect(ageing.totalCents).toBe(tiles.balanceCents);
    expect(ageing.totalCents - ageing.bands.current).toBe(tiles.overdueCents);
    expect(ageing.totalCents).toBeGreaterThan(0);
  });
}

describe("balance by age on PGlite", () => {
  ageingSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("balance by age on PostgreSQL", () => {
  ageingSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
