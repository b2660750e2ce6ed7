import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { getAgeing } from "~/services/accounts/ageing.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { loader as statementLoader } from "./statements";
import { loader as csvLoader } from "./statements_.download";

/**
 * The statement's balance by age (issue 34) through the page's loader and its CSV, with a real
 * Request and session: the same figures in both, counted to the business's own date.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

type StatementPage = Awaited<ReturnType<typeof statementLoader>>;

function statementSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let cookie = "";
  let businessId = "";
  let accountId = "";

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
  });
  afterEach(() => setClockForTesting(undefined));
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const request = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { host: HOST, cookie } });

  async function page() {
    const data = (await statementLoader({ request: request("/statements?page=1"), params: {}, context: {} })) as
      StatementPage | Response;
    if (data instanceof Response) throw new Error(`statement answered ${data.status}`);
    accountId ||= (
      await handle.db
        .selectFrom("accounts")
        .select("id")
        .where("business_id", "=", businessId)
        .where("number", "=", data.account.number)
        .executeTakeFirstOrThrow()
    ).id;
    return data;
  }

  async function csvAgeing() {
    const response = (await csvLoader({
      request: request("/statements/download"),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(200);
    const text = (await response.text()).replace(/^\uFEFF/, "");
    const [lines, block] = text.split("\n\n");
    expect(lines!.split("\n")[0]).toBe("Date,Type,Reference,Description,Charges (AUD),Credits (AUD)");
    return block!.trim().split("\n");
  }

  it("shows the balance by age, as at the business's today, and the CSV ends with the same figures", async () => {
    setClockForTesting(fixedClock("2026-12-06T02:00:00Z"));
    const shown = await page();
    const ageing = await getAgeing(businessId, accountId, "2026-12-06");
    expect(ageing.totalCents - ageing.bands.current, "the demo ledger has overdue money").toBeGreaterThan(0);
    expect(shown.ageing.asAt).toBe("Dec 6, 2026");
    expect(shown.ageing.rows.map((row) => [row.band, row.cents])).toEqual(
      Object.entries(ageing.bands).map(([band, cents]) => [band, cents]),
    );
    for (const row of shown.ageing.rows) {
      expect(row.amount).toBe(`$${(row.cents / 100).toLocaleString("en-AU", { minimumFractionDigits: 2 })}`);
    }
    expect(shown.ageing.overdue).toBe(true);

    const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    expect(await csvAgeing()).toEqual([
      "Balance by age on 2026-12-06,Amount (AUD)",
      `Not yet due,${decimal(ageing.bands.current)}`,
      `1–30 days overdue,${decimal(ageing.bands.days1to30)}`,
      `31–60 days overdue,${decimal(ageing.bands.days31to60)}`,
      `61–90 days overdue,${decimal(ageing.bands.days61to90)}`,
      `Over 90 days overdue,${decimal(ageing.bands.over90)}`,
      `Total owing,${decimal(ageing.totalCents)}`,
    ]);
  });

  it("counts days on the business's date: at 23:30 UTC it is already tomorrow in Sydney", async () => {
    await page();
    const before = await getAgeing(businessId, accountId, "2026-12-02");
    // Due on 1 December: on UTC's date (still the 1st) it is not yet due; on Sydney's (the 2nd), a day late.
    await handle.db
      .insertInto("invoices")
      .values({
        business_id: businessId,
        account_id: accountId,
        number: `INV-${randomUUID().slice(0, 8)}`,
        issue_date: "2026-11-01",
        due_date: "2026-12-01",
        amount_cents: 4_321,
        balance_cents: 4_321,
        status: 1,
      })
      .execute();
    setClockForTesting(fixedClock("2026-12-01T23:30:00Z"));
    const shown = await page();
    expect(shown.ageing.asAt).toBe("Dec 2, 2026");
    const band = (name: string) => shown.ageing.rows.find((row) => row.band === name)!.cents;
    expect(band("days1to30")).toBe(before.bands.days1to30 + 4_321);
    expect(band("current")).toBe(before.bands.current);
    expect((await csvAgeing())[0]).toBe("Balance by age on 2026-12-02,Amount (AUD)");
  });
}

describe("the statement's balance by age on PGlite", () => {
  statementSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the statement's balance by age on PostgreSQL", () => {
  statementSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
