import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as m0024 from "../../../db/migrations/0024-card-brands-in-statement-lines";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import type { DatabaseHandle } from "../platform/db.server";

/**
 * Migration 0024 (issue 32): statement lines a settlement wrote with the gateway's lower-case brand
 * ("Card payment visa 1111", "… (card visa 1111)") read as the portal writes them now ("Card payment
 * Visa •••• 1111"), once; every other line stays as it is. And the demo seed writes no such line. On
 * PGlite and PostgreSQL.
 */
const LOWER_CASE_BRAND = /\b(visa|mastercard|amex|diners|jcb|discover|unionpay)\b/;

function cardBrandsSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let scope: { businessId: string; accountId: string };

  beforeAll(async () => {
    ({ handle, close } = await open());
    const account = await handle.db
      .selectFrom("accounts")
      .select(["id", "business_id"])
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    scope = { businessId: account.business_id, accountId: account.id };
  });
  afterAll(async () => {
    await close();
  });

  it("the demo seed writes card brands as their labels", async () => {
    // The lines the other test writes are its own (MIG23-…), whatever the order.
    const lines = await handle.db
      .selectFrom("statement_lines")
      .select("description")
      .where("reference", "not like", "MIG23-%")
      .execute();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((line) => line.description).filter((text) => LOWER_CASE_BRAND.test(text))).toEqual([]);
    expect(lines.some((line) => /\(card Visa •••• \d{4}\)$/.test(line.description))).toBe(true);
  });

  it("rewrites the old lower-case lines of payments, leaves every other line, and changes nothing the second time", async () => {
    const tag = randomUUID().slice(0, 8).toUpperCase();
    const lines: { type: "payment" | "fee" | "credit"; description: string; expected: string }[] = [
      { type: "payment", description: "Card payment visa 1111", expected: "Card payment Visa •••• 1111" },
      { type: "payment", description: "Card payment amex 0005", expected: "Card payment American Express •••• 0005" },
      {
        type: "payment",
        description: "Payment request (card mastercard 4444)",
        expected: "Payment request (card Mastercard •••• 4444)",
      },
      {
        type: "payment",
        description: "Payment: PO 77 (card diners 0004)",
        expected: "Payment: PO 77 (card Diners Club •••• 0004)",
      },
      {
        type: "payment",
        description: "Instalment 2 of PS-ABC123 (card unionpay 0017)",
        expected: "Instalment 2 of PS-ABC123 (card UnionPay •••• 0017)",
      },
      // Already as the portal writes it, PayTo, the business's own words, and not a payment's line.
      { type: "payment", description: "Card payment Visa •••• 1111", expected: "Card payment Visa •••• 1111" },
      { type: "payment", description: "PayTo payment", expected: "PayTo payment" },
      { type: "payment", description: "Paid by visa card, thank you", expected: "Paid by visa card, thank you" },
      { type: "credit", description: "Refund (card visa 1111)", expected: "Refund (card visa 1111)" },
    ];
    const rows = await handle.db
      .insertInto("statement_lines")
      .values(
        lines.map((line, index) => ({
          business_id: scope.businessId,
          account_id: scope.accountId,
          line_date: "2026-11-16",
          type: line.type,
          reference: `MIG23-${tag}-${index}`,
          description: line.description,
          debit_cents: 0,
          credit_cents: 100,
          invoice_id: null,
        })),
      )
      .returning(["id", "reference"])
      .execute();
    const read = async () => {
      const stored = await handle.db
        .selectFrom("statement_lines")
        .select(["reference", "description", "credit_cents", "line_date"])
        .where(
          "id",
          "in",
          rows.map((row) => row.id),
        )
        .orderBy("reference")
        .execute();
      return stored.map((line) => line.description);
    };
    await sql.raw(m0024.up).execute(handle.db);
    const once = await read();
    expect(once).toEqual(lines.map((line) => line.expected));
    await sql.raw(m0024.up).execute(handle.db);
    expect(await read()).toEqual(once);
  });
}

describe("on PGlite", () => {
  cardBrandsSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  cardBrandsSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
