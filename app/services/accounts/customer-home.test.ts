import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { listRecentReceipts, listRequestsForContact } from "./customer-home.server";

/**
 * The customer-style home's lists (decision 033) on both databases: the keyset pages of the
 * requests addressed to a contact (a row comparison in SQL, no gaps, no repeats, even for
 * requests made in the same microsecond), what is left of a request of invoices (each
 * invoice's balance, at most what was asked of it), and the receipts of the payer's own
 * payments on accounts they may see.
 */
function customerHomeSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme = "";
  let sam = "";
  let olivia = "";
  const accounts: Record<string, string> = {};

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    for (const row of await handle.db.selectFrom("contacts").select(["id", "email", "business_id"]).execute()) {
      if (row.email === "sam@coastal.example") [sam, acme] = [row.id, row.business_id];
      if (row.email === "olivia@coastal.example") olivia = row.id;
    }
    for (const row of await handle.db.selectFrom("accounts").select(["id", "number"]).execute()) {
      accounts[row.number] = row.id;
    }
    // This suite owns what is addressed to Sam.
    await handle.db.deleteFrom("payment_request_recipients").where("contact_id", "=", sam).execute();
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  async function addRequest(
    accountNumber: string,
    to: string,
    values: { kind?: "amount" | "invoices"; amount?: number; paid?: number; createdAt?: Date } = {},
  ) {
    const row = await handle.db
      .insertInto("payment_requests")
      .values({
        business_id: acme,
        account_id: accounts[accountNumber]!,
        reference: `PR-${randomBytes(4).toString("hex").toUpperCase()}`,
        kind: values.kind ?? "amount",
        currency: "AUD",
        amount_cents: values.amount ?? 10_000,
        paid_cents: values.paid ?? 0,
        expires_at: new Date(Date.now() + 86_400_000),
        status: "sent",
        ...(values.createdAt ? { created_at: values.createdAt } : {}),
      })
      .returning(["id", "reference"])
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("payment_request_recipients")
      .values({ request_id: row.id, contact_id: to, business_id: acme, email: "x@acme.test" })
      .execute();
    return row;
  }

  it("pages the requests addressed to the contact by a keyset, newest first, with no gaps or repeats", async () => {
    // Five made in the same instant: the id breaks the tie, in the same order in SQL and in the keyset.
    const instant = new Date(Date.UTC(2026, 5, 1));
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await addRequest("ACME-1001", sam, { createdAt: instant }));
    for (let i = 0; i < 4; i += 1) {
      made.push(await addRequest("ACME-1001", sam, { createdAt: new Date(instant.getTime() + (i + 1) * 1_000) }));
    }
    // Not Sam's to see: another contact's, and one on an account he may not see.
    await addRequest("ACME-1001", olivia);
    await addRequest("ACME-2000", sam);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page += 1) {
      const result = await listRequestsForContact(acme, sam, { after, limit: 2 });
      seen.push(...result.items.map((item) => item.reference));
      after = result.nextAfter;
      if (!after) break;
    }
    expect(seen).toHaveLength(9);
    expect(new Set(seen).size).toBe(9);
    expect(new Set(seen)).toEqual(new Set(made.map((r) => r.reference)));
    // Newest first: the four later ones lead, latest first.
    expect(seen.slice(0, 4)).toEqual(
      made
        .slice(5)
        .reverse()
        .map((r) => r.reference),
    );
  });

  it("leaves an unknown or foreign cursor with an empty page, never an error", async () => {
    expect((await listRequestsForContact(acme, sam, { after: randomUUID() })).items).toEqual([]);
    expect((await listRequestsForContact(acme, sam, { after: "'; select 1; --" })).items.length).toBeGreaterThan(0);
  });

  it("counts what is left of a request of invoices from the invoices' balances, at most what was asked", async () => {
    const invoices = await handle.db
      .selectFrom("invoices")
      .select(["id", "balance_cents"])
      .where("account_id", "=", accounts["ACME-1001"]!)
      .where("balance_cents", ">", 1_000)
      .orderBy("number")
      .limit(2)
      .execute();
    expect(invoices).toHaveLength(2);
    const [first, second] = invoices.map((i) => ({ id: i.id, balance: Number(i.balance_cents) }));
    // Asked: all of the first, 1,000 cents of the second.
    const asked = first!.balance + 1_000;
    const request = await addRequest("ACME-1001", sam, { kind: "invoices", amount: asked, createdAt: new Date() });
    await handle.db
      .insertInto("payment_request_invoices")
      .values([
        { request_id: request.id, invoice_id: first!.id, business_id: acme, amount_cents: first!.balance },
        { request_id: request.id, invoice_id: second!.id, business_id: acme, amount_cents: 1_000 },
      ])
      .execute();
    const find = async () =>
      (await listRequestsForContact(acme, sam)).items.find((item) => item.reference === request.reference)!;
    expect((await find()).remainingCents).toBe(asked);
    // The first invoice is paid down by 500 elsewhere: the request has that much less left.
    await handle.db
      .updateTable("invoices")
      .set({ balance_cents: first!.balance - 500 })
      .where("id", "=", first!.id)
      .execute();
    expect((await find()).remainingCents).toBe(asked - 500);
    expect((await find()).state).toBe("part-paid");
    // Both paid off elsewhere: the request reads as paid (decision 032), as the back office sees it.
    await handle.db
      .updateTable("invoices")
      .set({ balance_cents: 0, status: 2 })
      .where("id", "in", [first!.id, second!.id])
      .execute();
    expect(await find()).toMatchObject({ state: "paid", remainingCents: 0 });
  });

  it("lists the payer's own receipts on accounts they may see, newest first", async () => {
    const add = async (accountNumber: string, by: string, status: "succeeded" | "failed" | "promised") => {
      const reference = `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;
      await handle.db
        .insertInto("payments")
        .values({
          business_id: acme,
          account_id: accounts[accountNumber]!,
          request_guid: randomUUID(),
          request_hash: "0".repeat(64),
          reference,
          method: "card",
          status,
          currency: "AUD",
          amount_cents: 2_100,
          subtotal_cents: 2_000,
          created_by: by,
          purpose: "adhoc",
          payer_reference: "Job 9",
        })
        .execute();
      return reference;
    };
    const promised = await add("ACME-1001", sam, "promised");
    const paid = await add("ACME-1001", sam, "succeeded");
    await add("ACME-1001", sam, "failed");
    await add("ACME-1001", olivia, "succeeded");
    // Made by Sam on an account he may not see (any more): its receipt would not open for him.
    await add("ACME-2000", sam, "succeeded");
    const receipts = await listRecentReceipts(acme, sam);
    expect(receipts.map((r) => r.reference)).toEqual([paid, promised]);
    expect(receipts[0]).toMatchObject({ amountCents: 2_100, status: "succeeded", payerReference: "Job 9" });
    // A promise moves no money yet: what was promised is the subtotal.
    expect(receipts[1]).toMatchObject({ amountCents: 2_000, status: "promised" });
  });
}

describe("on PGlite", () => {
  customerHomeSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  customerHomeSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
