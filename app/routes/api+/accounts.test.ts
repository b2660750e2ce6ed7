import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import * as account from "./sample+/account";
import * as tiles from "./sample+/account-tiles";
import * as accounts from "./sample+/accounts";
import * as search from "./sample+/accounts-search";
import * as business from "./sample+/business";
import * as contacts from "./sample+/contacts";
import * as toggles from "./sample+/feature-toggle";
import * as statements from "./sample+/statements";
import * as settings from "./host+/settings";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loader = (args: any) => Promise<Response>;

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};

async function accountId(number: string) {
  return (await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirstOrThrow())
    .id;
}

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const [who, email, host] of [
    ["olivia", "olivia@coastal.example", "acme.localhost"],
    ["sam", "sam@coastal.example", "acme.localhost"],
    ["aroha", "aroha@orchards.example", "kiwi.localhost"],
    ["liam", "liam@tasman.example", "kiwi.localhost"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const request = new Request(`http://${host}/`, { headers: { host } });
    cookies[who] = (
      await createSession(request, {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
  for (const number of ["ACME-1000", "ACME-1001", "ACME-2000", "KF-500", "KF-501", "KF-700"])
    ids[number] = await accountId(number);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function call(loader: Loader, path: string, who?: string, host = "acme.localhost") {
  const request = new Request(`http://${host}${path}`, {
    headers: { host, ...(who ? { cookie: cookies[who]! } : {}) },
  });
  let response: Response;
  try {
    response = await loader({ request, params: {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const body = await response.json().catch(() => null);
  return { status: response.status, body };
}

describe("validation messages (spec §5)", () => {
  it.each([
    [account.loader, "/api/sample/account", "Invalid request"],
    [tiles.loader, "/api/sample/account-tiles", "Invalid request"],
    [toggles.loader, "/api/sample/feature-toggle", "missing accountId"],
    [statements.loader, "/api/sample/statements?skip=0&take=10", "Missing account Id"],
    [search.loader, "/api/sample/accounts-search?take=10", "Bad request"],
    [search.loader, "/api/sample/accounts-search?skip=0", "Bad request"],
    [business.loader, "/api/sample/business", "Missing businessID"],
  ] as [Loader, string, string][])("%#: %s → 400 %s", async (loader, path, message) => {
    const { status, body } = await call(loader, path, "olivia");
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it.each(["", "&skip=0", "&take=10", "&skip=&take=10", "&skip=0&take="])(
    "statements with an account but skip/take %j missing → 400 'Bad request' exactly (spec §5)",
    async (query) => {
      const path = `/api/sample/statements?accountId=${ids["ACME-1000"]}${query}`;
      const { status, body } = await call(statements.loader, path, "olivia");
      expect(status).toBe(400);
      expect(body).toEqual({
        status: 400,
        message: "Bad request",
        error: { code: "bad_request", message: "Bad request" },
      });
    },
  );

  it.each([
    ["skip=-1&take=10", /skip must be/],
    ["skip=abc&take=10", /skip must be/],
    ["skip=0&take=0", /take must be/],
    ["skip=0&take=1e3", /take must be/],
    ["skip=0&take=10&sort=" + encodeURIComponent('[{"field":"password","dir":"asc"}]'), /Unknown sort field/],
    ["skip=0&take=10&sort=" + encodeURIComponent("not json"), /sort must be a JSON list/],
    ["skip=0&take=10&sort=" + encodeURIComponent('{"field":"name"}'), /JSON list/],
    [
      "skip=0&take=10&filter=" + encodeURIComponent('[{"field":"name; DROP TABLE accounts","value":"x"}]'),
      /Unknown filter field/,
    ],
    ["skip=0&take=10&myAccounts=maybe", /myAccounts must be true or false/],
  ])("accounts-search with %s → 400", async (query, message) => {
    const { status, body } = await call(search.loader, `/api/sample/accounts-search?${query}`, "olivia");
    expect(status).toBe(400);
    expect(body.message).toMatch(message);
  });

  it.each([
    ["filter=" + encodeURIComponent('[{"field":"type","value":"bogus"}]'), /Unknown statement type/],
    ["filter=" + encodeURIComponent('[{"field":"from","value":"2026-13-45"}]'), /from must be a date/],
    ["filter=" + encodeURIComponent('[{"field":"to","value":"yesterday"}]'), /to must be a date/],
    ["sort=" + encodeURIComponent('[{"field":"amount","dir":"sideways"}]'), /JSON list/],
  ])("statements with %s → 400", async (query, message) => {
    const { status, body } = await call(
      statements.loader,
      `/api/sample/statements?accountId=${ids["ACME-1000"]}&skip=0&take=5&${query}`,
      "olivia",
    );
    expect(status).toBe(400);
    expect(body.message).toMatch(message);
  });

  it("caps a huge take at 100", async () => {
    const { status, body } = await call(search.loader, "/api/sample/accounts-search?skip=0&take=999999", "olivia");
    expect(status).toBe(200);
    expect(body.take).toBe(100);
  });
});

describe("who may see what", () => {
  it("needs a session (401) and portal access (404)", async () => {
    expect((await call(accounts.loader, "/api/sample/accounts")).status).toBe(401);
    expect((await call(accounts.loader, "/api/sample/accounts", "sam")).status).toBe(404);
  });

  it("lists the contact's accounts with children where the business shows them", async () => {
    const acme = await call(accounts.loader, "/api/sample/accounts?parent=true&children=true", "olivia");
    expect(acme.body.map((a: { number: string }) => a.number).sort()).toEqual([
      "ACME-1000",
      "ACME-1001",
      "ACME-1002",
      "ACME-2000",
    ]);
    const noChildren = await call(accounts.loader, "/api/sample/accounts?parent=true&children=false", "olivia");
    expect(noChildren.body.map((a: { number: string }) => a.number).sort()).toEqual(["ACME-1000", "ACME-2000"]);
    // Kiwi hides child accounts (ChildAccountTicked off).
    const kiwi = await call(
      accounts.loader,
      "/api/sample/accounts?parent=true&children=true",
      "aroha",
      "kiwi.localhost",
    );
    expect(kiwi.body.map((a: { number: string }) => a.number)).toEqual(["KF-500"]);
  });

  it("searches, sorts and pages in SQL", async () => {
    const sort = encodeURIComponent('[{"field":"number","dir":"desc"}]');
    const page = await call(search.loader, `/api/sample/accounts-search?skip=1&take=2&sort=${sort}`, "olivia");
    expect(page.body.total).toBe(4);
    expect(page.body.items.map((a: { number: string }) => a.number)).toEqual(["ACME-1002", "ACME-1001"]);
    const filter = encodeURIComponent('[{"field":"text","value":"wollon"}]');
    const found = await call(search.loader, `/api/sample/accounts-search?skip=0&take=10&filter=${filter}`, "olivia");
    expect(found.body.items.map((a: { number: string }) => a.number)).toEqual(["ACME-1002"]);
    const mine = await call(search.loader, "/api/sample/accounts-search?skip=0&take=10&myAccounts=true", "olivia");
    expect(mine.body.total).toBe(2);
    const wildcard = encodeURIComponent('[{"field":"text","value":"%"}]');
    expect(
      (await call(search.loader, `/api/sample/accounts-search?skip=0&take=10&filter=${wildcard}`, "olivia")).body.total,
    ).toBe(0);
  });

  const scoped: [string, Loader, (id: string) => string][] = [
    ["account", account.loader, (id) => `/api/sample/account?accountId=${id}`],
    ["account-tiles", tiles.loader, (id) => `/api/sample/account-tiles?accountId=${id}`],
    ["contacts", contacts.loader, (id) => `/api/sample/contacts?accountId=${id}`],
    ["statements", statements.loader, (id) => `/api/sample/statements?accountId=${id}&skip=0&take=5`],
    ["feature-toggle", toggles.loader, (id) => `/api/sample/feature-toggle?accountId=${id}`],
  ];

  for (const [name, loader, path] of scoped) {
    it(`${name}: own account 200; another contact's, another business's, malformed and unknown ids 404`, async () => {
      expect((await call(loader, path(ids["ACME-1000"]!), "olivia")).status).toBe(200);
      expect((await call(loader, path(ids["ACME-1001"]!), "olivia")).status).toBe(200); // a child account
      // Another contact's account in the same business, and another business's account.
      expect((await call(loader, path(ids["KF-700"]!), "aroha", "kiwi.localhost")).status).toBe(404);
      expect((await call(loader, path(ids["KF-500"]!), "olivia")).status).toBe(404);
      expect((await call(loader, path(ids["ACME-1000"]!), "aroha", "kiwi.localhost")).status).toBe(404);
      // Kiwi hides child accounts, so Aroha may not open her parent's child directly.
      expect((await call(loader, path(ids["KF-501"]!), "aroha", "kiwi.localhost")).status).toBe(404);
      for (const bad of ["not-a-uuid", "' OR 1=1 --", "00000000-0000-0000-0000-000000000000", "<script>"]) {
        expect((await call(loader, path(encodeURIComponent(bad)), "olivia")).status).toBe(404);
      }
    });
  }

  it("business answers only for the host's own business", async () => {
    const mine = await call(settings.loader, "/api/host/settings", "olivia");
    const own = await call(business.loader, `/api/sample/business?businessId=${mine.body.business.businessId}`);
    expect(own.status).toBe(200);
    expect(own.body.businessName).toBe("Acme Plumbing Supplies");
    const kiwiSettings = await call(settings.loader, "/api/host/settings", "aroha", "kiwi.localhost");
    expect(
      (await call(business.loader, `/api/sample/business?businessId=${kiwiSettings.body.business.businessId}`)).status,
    ).toBe(404);
  });
});

describe("figures", () => {
  it("tiles add up from the invoices and payments", async () => {
    const { body } = await call(tiles.loader, `/api/sample/account-tiles?accountId=${ids["ACME-1000"]}`, "olivia");
    const rows = await handle.db
      .selectFrom("invoices")
      .select(["balance_cents", "status", "due_date"])
      .where("account_id", "=", ids["ACME-1000"]!)
      .execute();
    const owing = rows
      .filter((r) => [1, 3, 5, 6, 7, 8].includes(r.status))
      .reduce((sum, r) => sum + Number(r.balance_cents), 0);
    expect(body.balanceCents).toBe(owing);
    expect(body.overdueCents).toBeGreaterThan(0);
    expect(body.overdueCents).toBeLessThanOrEqual(body.balanceCents);
    expect(body.lastPayment).toMatchObject({ amountCents: expect.any(Number) });
    expect(body.nextDue?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The next due amount is everything still open on that one date.
    const dueThen = rows
      .filter((r) => [1, 3, 5, 6, 7, 8].includes(r.status) && r.due_date === body.nextDue.date)
      .reduce((sum, r) => sum + Number(r.balance_cents), 0);
    expect(dueThen).toBeGreaterThan(0);
    expect(body.nextDue.amountCents).toBe(dueThen);
  });

  it("statements page, filter by type and date, and total correctly", async () => {
    const all = await call(
      statements.loader,
      `/api/sample/statements?accountId=${ids["ACME-2000"]}&skip=0&take=100`,
      "olivia",
    );
    const filter = encodeURIComponent('[{"field":"type","value":"payment"}]');
    const payments = await call(
      statements.loader,
      `/api/sample/statements?accountId=${ids["ACME-2000"]}&skip=0&take=3&filter=${filter}`,
      "olivia",
    );
    expect(payments.body.items.length).toBeLessThanOrEqual(3);
    expect(payments.body.items.every((l: { type: string }) => l.type === "payment")).toBe(true);
    const paymentTotal = all.body.items.filter((l: { type: string }) => l.type === "payment").length;
    expect(payments.body.total).toBe(paymentTotal);
    const dates = all.body.items.map((l: { date: string }) => l.date);
    expect([...dates].sort().reverse()).toEqual(dates); // newest first by default
    const from = all.body.items[3].date;
    const ranged = await call(
      statements.loader,
      `/api/sample/statements?accountId=${ids["ACME-2000"]}&skip=0&take=100&filter=${encodeURIComponent(JSON.stringify([{ field: "from", value: from }]))}`,
      "olivia",
    );
    expect(ranged.body.items.every((l: { date: string }) => l.date >= from)).toBe(true);
  });

  it("feature toggles: the business's, with Language on for Kiwi and off for Acme", async () => {
    const acme = await call(toggles.loader, `/api/sample/feature-toggle?accountId=${ids["ACME-1000"]}`, "olivia");
    expect(acme.body.find((t: { name: string }) => t.name === "Language")).toMatchObject({ enabled: false });
    const kiwi = await call(
      toggles.loader,
      `/api/sample/feature-toggle?accountId=${ids["KF-500"]}`,
      "aroha",
      "kiwi.localhost",
    );
    expect(kiwi.body.find((t: { name: string }) => t.name === "Language")).toMatchObject({ enabled: true });
  });

  it("host settings carry permissions, contact, configs, uiConfig and business", async () => {
    const { status, body } = await call(settings.loader, "/api/host/settings", "olivia");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["business", "configs", "contact", "permissions", "uiConfig"]);
    expect(body.permissions).toContain("accessCustomerPortal");
    expect(body.uiConfig).toContainEqual({ itemName: "ChildAccountTicked", isVisible: true });
  });
});
