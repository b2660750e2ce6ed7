import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { getAgeing } from "~/services/accounts/ageing.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { readPdf, rolesOf } from "../../../tests/support/pdf-reader";
import { loader as statementPage } from "./statements";
import { loader as statementPdf } from "./statements_.pdf";

/**
 * The statement for a period as a PDF (issue 34): the figures a clerk files, checked against the
 * ledger itself (not the per-day totals the route reads), tagged for assistive technology, with the
 * page's access, and a clear 400 for a period that cannot be one file.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const TODAY = "2026-12-06";

let handle: DatabaseHandle;
let cookie = "";
let businessId = "";
let accountId = "";

beforeAll(async () => {
  handle = await openSeededPglite();
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
  await handle.close();
});

async function get(path: string, signedIn = true) {
  const request = new Request(`${ORIGIN}${path}`, { headers: { host: HOST, ...(signedIn ? { cookie } : {}) } });
  try {
    return (await statementPdf({ request, params: {}, context: {} })) as Response;
  } catch (thrown) {
    return thrown as Response;
  }
}

/** The statement page's data (and the selected account's id, once). */
async function page(search = "") {
  const data = (await statementPage({
    request: new Request(`${ORIGIN}/statements?page=1${search}`, { headers: { host: HOST, cookie } }),
    params: {},
    context: {},
  })) as Exclude<Awaited<ReturnType<typeof statementPage>>, Response>;
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

/** The ledger's own figures for a period, summed line by line. */
async function ledger(from: string, to: string) {
  const rows = await handle.db
    .selectFrom("statement_lines")
    .select(["line_date as date", "reference", "debit_cents as debit", "credit_cents as credit"])
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("line_date", "<=", to)
    .orderBy("line_date")
    .orderBy("id")
    .execute();
  const before = rows.filter((row) => String(row.date) < from);
  const within = rows.filter((row) => String(row.date) >= from);
  const opening = before.reduce((sum, row) => sum + Number(row.debit) - Number(row.credit), 0);
  const closing = within.reduce((sum, row) => sum + Number(row.debit) - Number(row.credit), opening);
  return { opening, closing, within };
}

const dollars = (cents: number) =>
  `${cents < 0 ? "-" : ""}$${(Math.abs(cents) / 100).toLocaleString("en-AU", { minimumFractionDigits: 2 })}`;

describe("the statement PDF", () => {
  it("lists every line of the period between the opening and closing balances, with the balance by age", async () => {
    setClockForTesting(fixedClock(`${TODAY}T02:00:00Z`));
    const shown = await page("&from=2026-03-01&to=2026-09-30");
    expect(shown.pdf).toEqual({
      href: "/statements/pdf?from=2026-03-01&to=2026-09-30",
      from: "Mar 1, 2026",
      to: "Sep 30, 2026",
    });
    const response = await get(shown.pdf!.href);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `attachment; filename="Acme-Plumbing-Supplies-Statement-${shown.account.number}-2026-03-01-to-2026-09-30.pdf"`,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));

    const { opening, closing, within } = await ledger("2026-03-01", "2026-09-30");
    expect(within.length, "the demo ledger has lines in the period").toBeGreaterThan(3);
    expect(opening, "and before it").not.toBe(0);
    const charges = within.reduce((sum, row) => sum + Number(row.debit), 0);
    const credits = within.reduce((sum, row) => sum + Number(row.credit), 0);
    const text = pdf.text.replace(/\s+/g, " ");
    expect(text).toContain(`${shown.account.name} (${shown.account.number})`);
    expect(text).toContain("Period Mar 1, 2026 to Sep 30, 2026");
    expect(text).toContain(`Opening balance, Mar 1, 2026 ${dollars(opening)}`);
    expect(text).toContain(`Charges in the period ${dollars(charges)}`);
    expect(text).toContain(`Credits in the period ${dollars(credits)}`);
    expect(text).toContain(`Closing balance, Sep 30, 2026 ${dollars(closing)}`);
    // Every line, in date order, and the running balance ends on the closing balance.
    let at = text.indexOf("Opening balance Mar 1");
    for (const row of within) {
      const found = text.indexOf(row.reference, at);
      expect(found, `${row.reference} in order`).toBeGreaterThan(at);
      at = found;
    }
    expect(text.slice(at)).toContain(`Sep 30, 2026 Closing balance ${dollars(closing)}`);
    // The balance by age, as at the business's today: the statement page's own figures.
    const ageing = await getAgeing(businessId, accountId, TODAY);
    expect(text).toContain("Balance by age");
    expect(text).toContain(`What is owed on Dec 6, 2026`);
    expect(text).toContain(`Over 90 days overdue ${dollars(ageing.bands.over90)}`);
    expect(text).toContain(`Total owing ${dollars(ageing.totalCents)}`);

    // Tagged: a title and language, headings, and tables whose header cells say which way they head.
    expect(pdf.title).toBe(`Statement · ${shown.account.number}`);
    expect(pdf.lang).toBe("en-AU");
    expect(pdf.marked).toBe(true);
    expect(pdf.fontsEmbedded).toBe(true);
    const roles = pdf.trees.flatMap(rolesOf);
    expect(roles).toEqual(expect.arrayContaining(["Document", "H1", "H2", "Table", "TR", "TH", "TD", "P"]));
    expect(new Set(pdf.headerScopes)).toEqual(new Set(["/Row", "/Column"]));
    // The repeated header and the page numbers are artifacts, never read twice.
    expect(pdf.artifacts[0]).toContain("Page 1 of");
  });

  it("covers the 12 months up to today when the page has no dates, and says so beside the link", async () => {
    setClockForTesting(fixedClock(`${TODAY}T02:00:00Z`));
    const shown = await page();
    expect(shown.pdf).toEqual({
      href: "/statements/pdf?from=2025-12-07&to=2026-12-06",
      from: "Dec 7, 2025",
      to: "Dec 6, 2026",
    });
    const response = await get("/statements/pdf");
    expect(response.status).toBe(200);
    const text = (await readPdf(new Uint8Array(await response.arrayBuffer()))).text.replace(/\s+/g, " ");
    expect(text).toContain("Period Dec 7, 2025 to Dec 6, 2026");
  });

  it("answers a period it cannot file with a clear 400, and a page asking for one offers no link", async () => {
    setClockForTesting(fixedClock(`${TODAY}T02:00:00Z`));
    for (const [search, words] of [
      ["?from=2026-02-30", "must be real dates"],
      ["?from=yesterday", "must be real dates"],
      ["?from=2021-12-06&to=2026-12-06", "at most five years"],
      ["?from=0001-01-01", "must be real dates"],
    ] as const) {
      const response = await get(`/statements/pdf${search}`);
      expect(response.status, search).toBe(400);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toContain(words);
    }
    // Five years to the day is one file.
    expect((await get("/statements/pdf?from=2021-12-07&to=2026-12-06")).status).toBe(200);
    // The page with a longer period keeps its lines, and says why there is no PDF.
    const long = await page("&from=2019-01-01&to=2026-12-06");
    expect(long.pdf).toBeNull();
    // A date the page cannot read is dropped there, as before (and never reaches the database).
    expect((await page("&from=2026-02-30")).query.from).toBe("");
  });

  it("is the signed-in account's only: without a session it sends to sign-in", async () => {
    const response = await get("/statements/pdf", false);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/auth\/signin/);
  });

  it("refuses a period of more than 10,000 lines before reading them, and files 10,000", async () => {
    await page();
    // One statement each: the per-day totals' trigger runs once for the lot.
    const add = (count: number, day: string) =>
      sql`insert into statement_lines (business_id, account_id, line_date, type, reference, description, debit_cents, credit_cents)
          select ${businessId}, ${accountId}, ${day}::date, 'fee', 'FEE-' || n, 'Bulk fee', 1, 0
          from generate_series(1, ${count}::int) as n`.execute(handle.db);
    await add(10_000, "2020-06-15");
    const full = await get("/statements/pdf?from=2020-06-15&to=2020-06-15");
    expect(full.status).toBe(200);
    expect(Number(full.headers.get("content-length"))).toBeGreaterThan(0);
    await add(1, "2020-06-15");
    const over = await get("/statements/pdf?from=2020-06-15&to=2020-06-15");
    expect(over.status).toBe(400);
    expect(await over.text()).toBe(
      "This period has more than 10,000 lines, too many for one PDF. Choose a shorter period.",
    );
  }, 60_000);
});
