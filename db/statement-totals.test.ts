import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../app/services/platform/db.server";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../tests/support/test-db";

/**
 * statement_daily_totals (migration 0005) must always equal what summing the lines gives,
 * whatever is written to statement_lines, or the statement page shows wrong figures.
 */
function statementTotalsSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, close } = await open());
  });
  afterAll(async () => {
    await close?.();
  });

  /** Day/type groups where the kept totals and the lines disagree (expected: none). */
  async function disagreements() {
    const result = await sql<{ account_id: string; line_date: string; type: string }>`
      SELECT account_id, line_date, type
      FROM (
        SELECT business_id, account_id, line_date, type, count(*) AS line_count,
               sum(debit_cents) AS debit_cents, sum(credit_cents) AS credit_cents
        FROM statement_lines GROUP BY business_id, account_id, line_date, type
      ) AS lines
      FULL JOIN (SELECT * FROM statement_daily_totals WHERE line_count <> 0) AS kept
        USING (business_id, account_id, line_date, type)
      WHERE lines.line_count IS DISTINCT FROM kept.line_count
         OR lines.debit_cents IS DISTINCT FROM kept.debit_cents
         OR lines.credit_cents IS DISTINCT FROM kept.credit_cents`.execute(handle.db);
    const emptyButNotZero = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM statement_daily_totals
      WHERE line_count = 0 AND (debit_cents <> 0 OR credit_cents <> 0)`.execute(handle.db);
    return { rows: result.rows, emptyButNotZero: emptyButNotZero.rows[0]?.n };
  }

  async function anAccount(number: string) {
    return handle.db
      .selectFrom("accounts")
      .select(["id", "business_id"])
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
  }

  it("starts equal to the lines (the seed's inserts)", async () => {
    expect(await disagreements()).toEqual({ rows: [], emptyButNotZero: 0 });
    const kept = await handle.db.selectFrom("statement_daily_totals").select("line_count").execute();
    expect(kept.length).toBeGreaterThan(0);
  });

  it("stays equal through bulk inserts, updates of date, type and amount, and deletes", async () => {
    const account = await anAccount("ACME-2000");
    await sql`
      INSERT INTO statement_lines (business_id, account_id, line_date, type, reference, debit_cents, credit_cents)
      SELECT ${account.business_id}::uuid, ${account.id}::uuid, DATE '2026-01-01' + (g % 9),
             (ARRAY['invoice', 'payment', 'fee'])[1 + g % 3], 'T-' || g, g * 10, g % 2 * 7
      FROM generate_series(1, 300) AS g`.execute(handle.db);
    expect((await disagreements()).rows).toEqual([]);

    await sql`UPDATE statement_lines SET line_date = line_date + 1 WHERE reference LIKE 'T-%' AND id % 4 = 0`.execute(
      handle.db,
    );
    await sql`UPDATE statement_lines SET type = 'credit', credit_cents = credit_cents + 5 WHERE reference LIKE 'T-%' AND id % 5 = 0`.execute(
      handle.db,
    );
    await sql`UPDATE statement_lines SET debit_cents = 0 WHERE reference LIKE 'T-%' AND id % 7 = 0`.execute(handle.db);
    expect((await disagreements()).rows).toEqual([]);

    await sql`DELETE FROM statement_lines WHERE reference LIKE 'T-%' AND id % 3 = 0`.execute(handle.db);
    expect((await disagreements()).rows).toEqual([]);
    await sql`DELETE FROM statement_lines WHERE reference LIKE 'T-%'`.execute(handle.db);
    expect(await disagreements()).toEqual({ rows: [], emptyButNotZero: 0 });
  });

  it("lets an account with lines be deleted, and keeps nothing of it", async () => {
    const account = await anAccount("ACME-1002");
    const before = await handle.db
      .selectFrom("statement_lines")
      .select("id")
      .where("account_id", "=", account.id)
      .execute();
    expect(before.length).toBeGreaterThan(0);
    await handle.db.deleteFrom("accounts").where("id", "=", account.id).execute();
    const kept = await handle.db
      .selectFrom("statement_daily_totals")
      .select("line_date")
      .where("account_id", "=", account.id)
      .execute();
    expect(kept).toEqual([]);
    expect((await disagreements()).rows).toEqual([]);
  });
}

describe("statement daily totals (PGlite)", () => {
  statementTotalsSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("statement daily totals (PostgreSQL)", () => {
  statementTotalsSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
