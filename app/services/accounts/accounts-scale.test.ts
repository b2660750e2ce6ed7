import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import * as searchApi from "../../routes/api+/sample+/accounts-search";
import * as accountsPage from "../../routes/_portal+/accounts";
import * as dashboard from "../../routes/_portal+/_index";
import * as root from "../../root";
import type { DatabaseHandle } from "../platform/db.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { createSession } from "../auth/session.server";

/**
 * Issue 7: "thousands of accounts per contact must stay fast (paged in SQL, indexed)".
 * A head office contact is joined to 5,000 of a business's accounts (and sees 500 branch
 * accounts below them); 1,000 other contacts share the rest; a small contact has three.
 * The search, the switcher and the dashboard must answer with the same statements for the
 * head office as for the small contact, and PostgreSQL must find the rows through indexes,
 * not by reading every account of the business. The business has 100,000 accounts on
 * PostgreSQL; PGlite (single-threaded WebAssembly) gets 20,000, which loads in seconds.
 */
const HOST = "acme.localhost";
const OTHER_CONTACTS = 1_000;

/** `accounts` in the business; every `joinedEvery`th is the head office's (5,000 in all). */
type Scale = { accounts: number; joinedEvery: number };
const branchEvery = (scale: Scale) => scale.joinedEvery * 10; // 500 branches

type Seeded = { big: string; small: string; businessId: string };

/** Counts the statements Kysely sends, and keeps them for EXPLAIN. */
function statementRecorder(handle: DatabaseHandle) {
  const seen: { node: RootOperationNode; queryId: unknown }[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      seen.push({ node: args.node, queryId: args.queryId });
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  const db = handle.db.withPlugin(plugin);
  return {
    handle: { ...handle, db } as DatabaseHandle,
    reset: () => seen.splice(0),
    compiled: () => seen.map(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId as never)),
  };
}

async function seedScale(handle: DatabaseHandle, scale: Scale): Promise<Seeded> {
  const db = handle.db;
  const business = await db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", HOST)
    .executeTakeFirstOrThrow();
  const businessId = business.business_id;
  const contact = (email: string) =>
    db
      .insertInto("contacts")
      .values({
        business_id: businessId,
        email,
        first_name: "Head",
        last_name: "Office",
        position: "Accounts",
        verified_at: new Date(),
        permissions: ["accessCustomerPortal"],
        password_hash: null,
        external_subject: null,
        disabled_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  const big = (await contact("head-office@scale.example")).id;
  const small = (await contact("corner-shop@scale.example")).id;
  // Names sort in number order ("Scale 000001" …), so the expected pages are easy to compute.
  await sql`
    INSERT INTO accounts (business_id, number, name)
    SELECT ${businessId}, 'SC-' || lpad(i::text, 6, '0'), 'Scale ' || lpad(i::text, 6, '0')
    FROM generate_series(1, ${scale.accounts}::int) AS i`.execute(db);
  // Fresh statistics, as autovacuum would gather after a bulk load: without them the
  // foreign-key checks of the inserts below are planned for an empty table.
  await sql`ANALYZE accounts`.execute(db);
  await sql`
    INSERT INTO account_contacts (business_id, account_id, contact_id)
    SELECT a.business_id, a.id, ${big}::uuid FROM accounts a
    WHERE a.business_id = ${businessId} AND a.number LIKE 'SC-%' AND substr(a.number, 4)::int % ${scale.joinedEvery}::int = 0`.execute(
    db,
  );
  await sql`
    INSERT INTO account_contacts (business_id, account_id, contact_id)
    SELECT a.business_id, a.id, ${small}::uuid FROM accounts a
    WHERE a.business_id = ${businessId} AND a.number IN ('SC-000004', 'SC-000008', 'SC-000012')`.execute(db);
  // Everyone else: each account is joined to one of the other contacts.
  await sql`
    INSERT INTO contacts (business_id, email, permissions)
    SELECT ${businessId}, 'other-' || i || '@scale.example', '{accessCustomerPortal}'
    FROM generate_series(1, ${OTHER_CONTACTS}::int) AS i`.execute(db);
  await sql`
    INSERT INTO account_contacts (business_id, account_id, contact_id)
    SELECT a.business_id, a.id, others.ids[substr(a.number, 4)::int % ${OTHER_CONTACTS}::int + 1]
    FROM accounts a
    CROSS JOIN (SELECT array_agg(id ORDER BY email) AS ids FROM contacts
                WHERE business_id = ${businessId} AND email LIKE 'other-%') AS others
    WHERE a.business_id = ${businessId} AND a.number LIKE 'SC-%'`.execute(db);
  // Branches: account i (i % branchEvery = 1) belongs to the joined account just above it.
  await sql`
    UPDATE accounts AS child SET parent_account_id = parent.id
    FROM accounts AS parent
    WHERE child.business_id = ${businessId} AND parent.business_id = ${businessId}
      AND child.number LIKE 'SC-%' AND substr(child.number, 4)::int % ${branchEvery(scale)}::int = 1
      AND parent.number = 'SC-' || lpad((substr(child.number, 4)::int + ${scale.joinedEvery - 1}::int)::text, 6, '0')`.execute(
    db,
  );
  // As autovacuum would after a bulk load: the planner needs the new row counts.
  await sql`ANALYZE`.execute(db);
  return { big, small, businessId };
}

/** The numbers the head office may see: joined accounts and their branches, in name order. */
function expectedNumbers(scale: Scale) {
  const numbers: number[] = [];
  for (let i = 1; i <= scale.accounts; i++) {
    const joined = i % scale.joinedEvery === 0;
    const branch = i % branchEvery(scale) === 1 && i + scale.joinedEvery - 1 <= scale.accounts;
    if (joined || branch) numbers.push(i);
  }
  return numbers.map((i) => `SC-${String(i).padStart(6, "0")}`);
}

function planNodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(planNodes)];
}

function scaleSuite(
  open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>,
  scale: Scale,
  explain: boolean,
) {
  let close: () => Promise<void>;
  let recorder: ReturnType<typeof statementRecorder>;
  let seeded: Seeded;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const opened = await open();
    close = opened.close;
    seeded = await seedScale(opened.handle, scale);
    recorder = statementRecorder(opened.handle);
    setDatabaseForTesting(recorder.handle);
    for (const [who, contactId] of [
      ["big", seeded.big],
      ["small", seeded.small],
    ] as const) {
      const request = new Request(`http://${HOST}/`, { headers: { host: HOST } });
      const cookie = await createSession(request, {
        businessId: seeded.businessId,
        contactId,
        authMethod: "credentials",
      });
      cookies[who] = cookie.split(";")[0]!;
    }
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close?.();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function call(loader: (args: any) => Promise<unknown>, path: string, who: "big" | "small") {
    const request = new Request(`http://${HOST}${path}`, { headers: { host: HOST, cookie: cookies[who]! } });
    recorder.reset();
    const result = await loader({ request, params: {}, context: {} });
    const body = result instanceof Response ? await result.json() : result;
    return { body, statements: recorder.compiled() };
  }

  it("refuses U+0000 in the account search (page and API) with a 400, before any query", async () => {
    for (const [loader, path] of [
      [accountsPage.loader, `/accounts?q=${encodeURIComponent("coast\u0000")}`],
      [
        searchApi.loader,
        `/api/sample/accounts-search?skip=0&take=5&filter=${encodeURIComponent('[{"field":"text","value":"a\\u0000"}]')}`,
      ],
    ] as const) {
      const request = new Request(`http://${HOST}${path}`, { headers: { host: HOST, cookie: cookies.small! } });
      recorder.reset();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const answer: unknown = await (loader as (args: any) => Promise<unknown>)({
        request,
        params: {},
        context: {},
      }).catch((error: unknown) => error);
      expect(answer instanceof Response ? answer.status : answer, path).toBe(400);
      // Refused before any account query ran (only the host and session look-ups, if any).
      expect(
        recorder.compiled().some((statement) => /\baccounts\b/.test(statement.sql)),
        path,
      ).toBe(false);
    }
  });

  it("searches 5,000 joined accounts (and their branches) a page at a time, with the right totals", async () => {
    const all = expectedNumbers(scale);
    expect(all.length).toBe(5_000 + 500);

    const first = await call(searchApi.loader, "/api/sample/accounts-search?skip=0&take=25", "big");
    expect(first.body.total).toBe(all.length);
    expect(first.body.items.map((a: { number: string }) => a.number)).toEqual(all.slice(0, 25));

    const deep = await call(
      searchApi.loader,
      "/api/sample/accounts-search?skip=4000&take=50&sort=%5B%7B%22field%22%3A%22number%22%2C%22dir%22%3A%22desc%22%7D%5D",
      "big",
    );
    expect(deep.body.total).toBe(all.length);
    expect(deep.body.items.map((a: { number: string }) => a.number)).toEqual([...all].reverse().slice(4000, 4050));

    const mine = await call(searchApi.loader, "/api/sample/accounts-search?skip=0&take=10&myAccounts=true", "big");
    expect(mine.body.total).toBe(5_000);
    expect(mine.body.items.every((a: { isChild: boolean }) => !a.isChild)).toBe(true);

    const filter = encodeURIComponent(JSON.stringify([{ field: "text", value: "0012" }]));
    const filtered = await call(
      searchApi.loader,
      `/api/sample/accounts-search?skip=0&take=100&filter=${filter}`,
      "big",
    );
    const matching = all.filter((number) => number.includes("0012"));
    expect(filtered.body.total).toBe(matching.length);
    expect(filtered.body.items.map((a: { number: string }) => a.number)).toEqual(matching.slice(0, 100));

    // The page the person sees: 20 a page, page 100.
    const page = await call(accountsPage.loader, "/accounts?page=100", "big");
    expect(page.body.total).toBe(all.length);
    expect(page.body.accounts.map((a: { number: string }) => a.number)).toEqual(all.slice(1980, 2000));
  });

  it("sends the same statements for 5,500 visible accounts as for 3", async () => {
    for (const [loader, path] of [
      [searchApi.loader, "/api/sample/accounts-search?skip=0&take=25"],
      [accountsPage.loader, "/accounts?q=scale&page=2"],
      [root.loader, "/"],
      [dashboard.loader, "/"],
    ] as const) {
      // A first view does one-time work (the dashboard registers the account's PayID once and
      // stores it): compare the views after that, which every later visit is.
      await call(loader, path, "big");
      await call(loader, path, "small");
      const big = await call(loader, path, "big");
      const small = await call(loader, path, "small");
      expect(big.statements.length, path).toBe(small.statements.length);
      expect(
        big.statements.map((s) => s.sql),
        path,
      ).toEqual(small.statements.map((s) => s.sql));
    }
  });

  it("refuses to join a contact to another business's account (the total relies on it)", async () => {
    const other = await recorder.handle.db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "!=", seeded.businessId)
      .executeTakeFirstOrThrow();
    const insert = recorder.handle.db
      .insertInto("account_contacts")
      .values({ business_id: seeded.businessId, account_id: other.id, contact_id: seeded.small, role: "contact" })
      .execute();
    await expect(insert).rejects.toThrow(/account_contacts_account_business_fkey/);
  });

  it("keeps the shell's account switcher to its first 25 accounts", async () => {
    const { body } = await call(root.loader, "/", "big");
    expect(body.accounts.items).toHaveLength(25);
    expect(body.accounts.more).toBe(true);
    const parents = expectedNumbers(scale).filter((n) => Number(n.slice(3)) % scale.joinedEvery === 0);
    expect(body.accounts.items.map((a: { number: string }) => a.number)).toEqual(parents.slice(0, 25));
  });

  it.runIf(explain)("reads a page through an index in its order, and counts from the contact's side", async () => {
    const explainPlan = async (statement: { sql: string; parameters: readonly unknown[] }) => {
      const explained = await recorder.handle.db.executeQuery<{ "QUERY PLAN": unknown }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
      );
      const raw = explained.rows[0]!["QUERY PLAN"];
      const document = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: Record<string, unknown> }[];
      return planNodes(document[0]!.Plan);
    };
    const numberDesc = encodeURIComponent(JSON.stringify([{ field: "number", dir: "desc" }]));
    const cases = [
      { path: "/api/sample/accounts-search?skip=0&take=25", loader: searchApi.loader },
      { path: `/api/sample/accounts-search?skip=4000&take=50&sort=${numberDesc}`, loader: searchApi.loader },
      { path: "/api/sample/accounts-search?skip=0&take=25&myAccounts=true", loader: searchApi.loader },
      { path: "/ (the account switcher)", loader: root.loader },
    ];
    for (const { path, loader } of cases) {
      const { statements } = await call(loader, path.startsWith("/api") ? path : "/", "big");
      const onAccounts = statements.filter((s) => /"accounts"/.test(s.sql) || /from \(/.test(s.sql));
      expect(onAccounts.length, path).toBeGreaterThan(0);
      for (const statement of onAccounts) {
        const nodes = await explainPlan(statement);
        const plan = nodes
          .map((n) => `${n["Node Type"]} ${n["Relation Name"] ?? ""} ${n["Index Name"] ?? ""}`.trim())
          .join(" / ");
        const accountScans = nodes.filter(
          (n) => n["Relation Name"] === "accounts" || n["Relation Name"] === "account_contacts",
        );
        const sequential = accountScans.filter((n) => n["Node Type"] === "Seq Scan");
        expect(sequential.length, `${path}\n${statement.sql}\n${plan}`).toBe(0);
      }
    }
  });
}

describe("thousands of accounts per contact, on PGlite", () => {
  scaleSuite(
    async () => {
      const handle = await openSeededPglite();
      return { handle, close: () => handle.close() };
    },
    { accounts: 20_000, joinedEvery: 4 },
    false,
  );
});

describe.runIf(TEST_DATABASE_URL)("thousands of accounts per contact, on PostgreSQL", () => {
  scaleSuite(
    async () => {
      const database = await createSeededPostgresDatabase();
      return { handle: database.handle, close: database.drop };
    },
    { accounts: 100_000, joinedEvery: 20 },
    true,
  );
});
