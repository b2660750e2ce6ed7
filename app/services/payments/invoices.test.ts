import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../../tests/support/test-db";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { randomUUID } from "node:crypto";
import {
  findInvoice,
  findPaymentByReference,
  INVOICE_COUNT_CAP,
  INVOICE_PAGE_SIZE,
  listInvoices,
  listPayments,
} from "./invoices.server";

let handle: DatabaseHandle;
let scope: { businessId: string; accountId: string };
beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const account = await handle.db
    .selectFrom("accounts")
    .select(["id", "business_id"])
    .where("number", "=", "ACME-1000")
    .executeTakeFirstOrThrow();
  scope = { businessId: account.business_id, accountId: account.id };
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

describe("the invoices page's queries", () => {
  it("pages, sorts and totals the account's invoices in one statement", async () => {
    const all = await handle.db
      .selectFrom("invoices")
      .select(["balance_cents"])
      .where("account_id", "=", scope.accountId)
      .execute();
    const first = await listInvoices(scope, { filter: "all", sort: "due-asc", page: 1 });
    expect(first.total).toBe(all.length);
    expect(first.capped).toBe(false);
    expect(first.balanceCents).toBe(all.reduce((sum, row) => sum + row.balance_cents, 0));
    expect(first.items).toHaveLength(Math.min(INVOICE_PAGE_SIZE, all.length));
    const dues = first.items.map((i) => i.dueDate);
    expect([...dues].sort()).toEqual(dues);
    const second = await listInvoices(scope, { filter: "all", sort: "due-asc", page: 2 });
    expect(second.items.length).toBe(all.length - INVOICE_PAGE_SIZE);
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(all.length);
    const beyond = await listInvoices(scope, { filter: "all", sort: "due-asc", page: 99 });
    expect(beyond).toMatchObject({ items: [], total: 0 });
    expect(INVOICE_COUNT_CAP).toBe(2_000);
  });

  it("filters by status, and owing hides what is paid", async () => {
    const owing = await listInvoices(scope, { filter: "outstanding", sort: "balance-desc", page: 1 });
    expect(owing.items.every((i) => i.balanceCents > 0)).toBe(true);
    const balances = owing.items.map((i) => i.balanceCents);
    expect([...balances].sort((a, b) => b - a)).toEqual(balances);
    const closed = await listInvoices(scope, { filter: "2", sort: "number-asc", page: 1 });
    expect(closed.items.length).toBeGreaterThan(0);
    expect(closed.items.every((i) => i.status === 2)).toBe(true);
  });

  it("a promise whose date has passed with money owing reads as Broken Promise (8), without a write", async () => {
    const [promise] = await handle.db
      .selectFrom("invoices")
      .select(["id"])
      .where("account_id", "=", scope.accountId)
      .where("status", "=", 7)
      .execute();
    await handle.db.updateTable("invoices").set({ promise_date: "2020-01-01" }).where("id", "=", promise!.id).execute();
    expect((await findInvoice(scope, promise!.id))?.status).toBe(8);
    const broken = await listInvoices(scope, { filter: "8", sort: "due-asc", page: 1 });
    expect(broken.items.map((i) => i.id)).toContain(promise!.id);
    const promised = await listInvoices(scope, { filter: "7", sort: "due-asc", page: 1 });
    expect(promised.items.map((i) => i.id)).not.toContain(promise!.id);
    const stored = await handle.db
      .selectFrom("invoices")
      .select("status")
      .where("id", "=", promise!.id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe(7);
  });

  it("another account's invoice is not found; recent payments are empty before any", async () => {
    const other = await handle.db
      .selectFrom("invoices")
      .innerJoin("accounts", "accounts.id", "invoices.account_id")
      .select("invoices.id")
      .where("accounts.number", "=", "ACME-2000")
      .executeTakeFirstOrThrow();
    expect(await findInvoice(scope, other.id)).toBeNull();
    expect(await findInvoice(scope, "not-a-uuid")).toBeNull();
    expect(await listPayments(scope)).toEqual([]);
  });

  it("recent payments include a PayTo payment the bank is still processing; receipts are found by either kind of reference", async () => {
    const [invoice] = await handle.db
      .selectFrom("invoices")
      .select(["id", "number"])
      .where("account_id", "=", scope.accountId)
      .where("balance_cents", ">", 1_000)
      .execute();
    const made = async (reference: string, method: "payto" | "payid", status: "submitted" | "succeeded") => {
      const row = await handle.db
        .insertInto("payments")
        .values({
          business_id: scope.businessId,
          account_id: scope.accountId,
          request_guid: randomUUID(),
          request_hash: "0".repeat(64),
          reference,
          method,
          status,
          currency: "AUD",
          amount_cents: 1_000,
          subtotal_cents: 1_000,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto("payment_allocations")
        .values({
          payment_id: row.id,
          invoice_id: invoice!.id,
          business_id: scope.businessId,
          amount_cents: 1_000,
          balance_before_cents: 1_000,
        })
        .execute();
      return row.id;
    };
    const pending = await made("PAY-0A1B2C3D4E", "payto", "submitted");
    const received = await made("PAYID-0A1B2C3D4E5F", "payid", "succeeded");
    const listed = await listPayments(scope);
    expect(listed.find((p) => p.id === pending)).toMatchObject({
      status: "submitted",
      allocations: [{ number: invoice!.number, amountCents: 1_000 }],
    });
    expect(await findPaymentByReference(scope.businessId, "PAY-0A1B2C3D4E")).toMatchObject({ id: pending });
    expect(await findPaymentByReference(scope.businessId, "PAYID-0A1B2C3D4E5F")).toMatchObject({ id: received });
    // Anything else is not a reference: no query is made for it.
    for (const bad of [
      "PAYID-0A1B2C3D4E",
      "PAYID-0A1B2C3D4E5F0",
      "PAYID-0a1b2c3d4e5f",
      "PAY-0A1B2C3D4E5F",
      "PAYID-0A1B2C3D4E5F\n",
      "' OR 1=1 --",
    ]) {
      expect(await findPaymentByReference(scope.businessId, bad), bad).toBeNull();
    }
  });
});
