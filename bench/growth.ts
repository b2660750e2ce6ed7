import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { getAccountTiles, listStatementLines, type StatementQuery } from "../app/services/accounts/accounts.server";
import { listInvoices, listPayments } from "../app/services/payments/invoices.server";
import { setDatabaseForTesting } from "../app/services/platform/database.server";
import { openPostgres } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";
import { GROWTH, STATEMENT_PAGE } from "./config";
import { createBenchAccount, createBenchBusiness, insertLedger } from "./lib/ledger";
import { percentile, round } from "./lib/stats";

/**
 * Growth on a real PostgreSQL (TEST_DATABASE_URL): one account with a million statement
 * lines (and a hundred thousand invoices), then the very service functions the pages
 * call, timed one after another. A database of its own, dropped at the end.
 */
export type GrowthCase = { page: string; name: string; samples: number; p50Ms: number; p95Ms: number; maxMs: number };
export type GrowthResult = { statementLines: number; invoices: number; seedSeconds: number; cases: GrowthCase[] };

export async function measureGrowth(adminUrl: string): Promise<GrowthResult> {
  const name = `portal_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), { max: 4 });
  try {
    await migrate(handle);
    const seedStart = performance.now();
    const businessId = await createBenchBusiness(handle.db, "growth.bench.localhost");
    const { accountId } = await createBenchAccount(handle.db, businessId, {
      number: "GROWTH-1",
      email: "growth@bench.example",
      password: randomBytes(12).toString("hex"),
    });
    await insertLedger(
      handle.db,
      { businessId, accountId, prefix: "G" },
      { invoices: GROWTH.invoices, lines: GROWTH.statementLines },
    );
    await sql`ANALYZE`.execute(handle.db);
    const seedSeconds = round((performance.now() - seedStart) / 1000, 1);

    setDatabaseForTesting(handle);
    const today = new Date().toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const page = (overrides: Partial<StatementQuery>): StatementQuery => ({
      skip: 0,
      take: STATEMENT_PAGE,
      sort: { field: "date", dir: "desc" },
      ...overrides,
    });
    // [page, case, call]: the page names match bench/config.ts, so budgets can name pages.
    const cases: [string, string, () => Promise<unknown>][] = [
      ["statements", "first page, newest first", () => listStatementLines(businessId, accountId, page({}))],
      ["statements", "page 50", () => listStatementLines(businessId, accountId, page({ skip: 49 * STATEMENT_PAGE }))],
      ["statements", "payments only", () => listStatementLines(businessId, accountId, page({ type: "payment" }))],
      [
        "statements",
        "largest amount first",
        () => listStatementLines(businessId, accountId, page({ sort: { field: "amount", dir: "desc" } })),
      ],
      [
        "statements",
        "last 30 days",
        () => listStatementLines(businessId, accountId, page({ from: monthAgo, to: today })),
      ],
      ["dashboard", "account tiles (25,000 open invoices)", () => getAccountTiles(businessId, accountId, today)],
      [
        "invoices",
        "owing, due soonest first",
        () => listInvoices({ businessId, accountId }, { filter: "outstanding", sort: "due-asc", page: 1 }),
      ],
      [
        "invoices",
        "all, page 50",
        () => listInvoices({ businessId, accountId }, { filter: "all", sort: "due-desc", page: 50 }),
      ],
      [
        "invoices",
        "largest balance first",
        () => listInvoices({ businessId, accountId }, { filter: "outstanding", sort: "balance-desc", page: 1 }),
      ],
      ["invoices", "recent payments", () => listPayments({ businessId, accountId })],
    ];
    const results: GrowthCase[] = [];
    for (const [pageName, caseName, run] of cases) {
      for (let i = 0; i < 3; i += 1) await run();
      const times: number[] = [];
      for (let i = 0; i < GROWTH.samples; i += 1) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      results.push({
        page: pageName,
        name: caseName,
        samples: times.length,
        p50Ms: round(percentile(times, 50), 1),
        p95Ms: round(percentile(times, 95), 1),
        maxMs: round(Math.max(...times), 1),
      });
    }
    return { statementLines: GROWTH.statementLines, invoices: GROWTH.invoices, seedSeconds, cases: results };
  } finally {
    setDatabaseForTesting(undefined);
    await handle.close().catch(() => {});
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    try {
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await cleanup.end();
    }
  }
}
