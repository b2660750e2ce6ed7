import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { openPglite, openPostgres } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";
import { DEMO_PASSWORD, seedDemoData } from "../db/seed/demo";
import { createHash } from "node:crypto";
import type { Db } from "../app/services/platform/db.server";
import {
  BENCH_ADHOC_ACCOUNT,
  BENCH_AGREEMENT_REFERENCE,
  BENCH_COMMUNICATION_LINKS,
  BENCH_DATA_DIR,
  BENCH_READ_ONLY,
  BENCH_READ_ONLY_INVOICE,
  BENCH_STATEMENT,
  BENCH_HOST,
  BENCH_ADMIN_EMAIL,
  benchEmail,
  benchLinkToken,
  DEMO_HOST,
  DEMO_LOGIN,
  JOURNEY,
  QUERY_SIZES,
} from "./config";
import { createBenchAccount, createBenchBusiness, insertLedger, latestPeriodWithLines } from "./lib/ledger";
import { insertSubmittedApplication } from "../db/seed/credit";
import { loadOrCreateSecrets } from "../app/services/platform/env.server";
import { linkKeyFrom, preferencesLinkPath, signLink } from "../app/services/communication/preference-links.server";

/**
 * A fresh embedded database for the bench's portal: migrations, the demo hosts (for the
 * browser and load runs) and the bench's own brand with one account per size in
 * QUERY_SIZES (for "queries per page"). Runs before the portal starts: an embedded
 * database belongs to one process at a time.
 *
 * `postgres`: the same data in an empty PostgreSQL database instead (the low-end protocol
 * comparison's cluster, decision 083), with the `sessionSecret` its processes will share, which
 * the preference links are signed with.
 */
export async function prepareBenchDatabase(postgres?: { databaseUrl: string; sessionSecret: string }) {
  const dataDir = path.resolve(BENCH_DATA_DIR);
  if (!postgres) fs.rmSync(dataDir, { recursive: true, force: true });
  const handle = postgres
    ? openPostgres(postgres.databaseUrl, { max: 2 })
    : await openPglite(path.join(dataDir, "pglite"));
  try {
    await migrate(handle);
    await seedDemoData(handle.db);
    const businessId = await createBenchBusiness(handle.db, BENCH_HOST);
    // The bench brand's host admin (issue 16), for the /admin/* pages: on an account of its own.
    const admin = await createBenchAccount(handle.db, businessId, {
      number: "ADMIN",
      email: BENCH_ADMIN_EMAIL,
      password: DEMO_PASSWORD,
    });
    await handle.db
      .updateTable("contacts")
      .set({ permissions: ["accessCustomerPortal", "hostAdmin"] })
      .where("id", "=", admin.contactId)
      .execute();
    for (const rows of QUERY_SIZES) {
      const { accountId, contactId } = await createBenchAccount(handle.db, businessId, {
        number: `ROWS-${rows}`,
        email: benchEmail(rows),
        password: DEMO_PASSWORD,
      });
      await insertLedger(handle.db, { businessId, accountId, prefix: `R${rows}` }, { invoices: rows, lines: rows });
      if (rows === BENCH_STATEMENT.rows) await chooseStatementPeriod(handle.db, accountId);
      await createBenchRequest(handle.db, { businessId, accountId, contactId }, rows);
      await createBenchAgreements(handle.db, { businessId, accountId, contactId }, rows);
      await createBenchSchedules(handle.db, { businessId, accountId, contactId }, rows);
      await insertSubmittedApplication(handle.db, {
        businessId,
        reference: `CA-BENCH${rows}`,
        legalName: `Bench Applicant ${rows} Pty Ltd`,
        applicantEmail: `applicant-${rows}@bench.example`,
        referees: [
          {
            refereeBusiness: "Bench Supplies",
            contactName: "Bench Referee",
            email: `referee-${rows}@bench.example`,
            token: benchLinkToken("trade-reference", rows),
          },
        ],
      });
      await createBenchResponses(handle.db, { businessId, accountId, contactId }, rows);
      // The bench brand shows no child accounts: its own account, joined to the contact (named to sort after ROWS-…).
      await createAdhocAccount(handle.db, { businessId, contactId }, BENCH_ADHOC_ACCOUNT.rows(rows), `ADHOC-${rows}`);
    }
    // The ad-hoc page on acme, for the demo login (the mobile runs): a branch of its first account,
    // so the login's selected account (and every other page measured) stays what it was.
    const parent = await handle.db
      .selectFrom("accounts")
      .innerJoin("hosts", "hosts.business_id", "accounts.business_id")
      .select(["accounts.id", "accounts.business_id"])
      .where("hosts.hostname", "=", DEMO_HOST)
      .where("accounts.number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    await createAdhocAccount(
      handle.db,
      { businessId: parent.business_id, parentAccountId: parent.id },
      BENCH_ADHOC_ACCOUNT.demo,
      "ACME-BENCH",
    );
    await handle.db
      .insertInto("adhoc_settings")
      .values({ business_id: businessId, enabled: true, min_cents: 1_000, max_cents: 500_000 })
      .execute();
    // The portal's own secret: its secrets file is made here, in the data folder the portal is about to
    // open, unless the environment (or the cluster's processes) give it.
    const sessionSecret =
      postgres?.sessionSecret ?? (process.env.SESSION_SECRET || loadOrCreateSecrets(dataDir).sessionSecret);
    await signCommunicationLinks(handle.db, sessionSecret, businessId);
    await prepareReadOnlyPages(handle.db);
    await createJourneyRequests(handle.db);
  } finally {
    await handle.close();
  }
  return dataDir;
}

/**
 * The statement bench/documents.ts files (BENCH_STATEMENT): a period of the account's holding exactly
 * `lines` lines. insertLedger puts line g on `current_date - (g % 730)`, so a day holds 6 or 7 of the
 * account's lines and no fixed number of days is right for every size or every change to that formula:
 * the period is found in the lines just written instead, as the latest run of whole days whose lines add
 * up to exactly `lines`. Then the lines between its dates are counted again as the PDF route reads them
 * (the account, `line_date` from `from` to `to` inclusive), and in the per-day totals it counts to refuse
 * a period of more than 10,000 lines: anything but the exact number in both stops the bench, since a
 * statement of 994 or 1,006 lines is not the one the budget is for.
 */
async function chooseStatementPeriod(db: Db, accountId: string) {
  const { lines } = BENCH_STATEMENT;
  const days = await db
    .selectFrom("statement_lines")
    .select([sql<string>`to_char(line_date, 'YYYY-MM-DD')`.as("day"), sql<string>`count(*)`.as("lines")])
    .where("account_id", "=", accountId)
    .groupBy("line_date")
    .orderBy("line_date", "desc")
    .execute();
  const period = latestPeriodWithLines(
    days.map((day) => ({ day: day.day, lines: Number(day.lines) })),
    lines,
  );
  if (!period)
    throw new Error(`The bench account of ${BENCH_STATEMENT.rows} rows has no run of days with exactly ${lines} lines`);
  const counted = await db
    .selectFrom("statement_lines")
    .select(sql<string>`count(*)`.as("lines"))
    .where("account_id", "=", accountId)
    .where("line_date", ">=", period.from)
    .where("line_date", "<=", period.to)
    .executeTakeFirstOrThrow();
  const totals = await db
    .selectFrom("statement_daily_totals")
    .select(sql<string>`coalesce(sum(line_count), 0)`.as("lines"))
    .where("account_id", "=", accountId)
    .where("line_date", ">=", period.from)
    .where("line_date", "<=", period.to)
    .executeTakeFirstOrThrow();
  if (Number(counted.lines) !== lines || Number(totals.lines) !== lines)
    throw new Error(
      `The bench statement ${period.from} to ${period.to} holds ${counted.lines} lines (per-day totals: ${totals.lines}), not ${lines}`,
    );
  BENCH_STATEMENT.from = period.from;
  BENCH_STATEMENT.to = period.to;
}

/**
 * The read-only pages' data on acme (BENCH_READ_ONLY): the demo seed's ids are random, so they are
 * looked up here — ACME-1000-INV-023, on the demo login's account and asked for by PR-DEMO0001 (its
 * invoice view through the fixed link); a paid instalment of PS-DEMO0001, the login's schedule (its
 * receipt) — and the paid PR-DEMO0004 gets a link of its own, with a token the bench can open.
 */
async function prepareReadOnlyPages(db: Db) {
  const acme = await db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", DEMO_HOST)
    .executeTakeFirstOrThrow();
  const login = await db
    .selectFrom("contacts")
    .select("id")
    .where("business_id", "=", acme.business_id)
    .where("email", "=", DEMO_LOGIN.email)
    .executeTakeFirstOrThrow();
  const invoice = await db
    .selectFrom("invoices")
    .select("id")
    .where("business_id", "=", acme.business_id)
    .where("number", "=", BENCH_READ_ONLY_INVOICE)
    .executeTakeFirstOrThrow();
  BENCH_READ_ONLY.invoiceId = invoice.id;
  // A paid instalment of PS-DEMO0001, the schedule the demo login opens (the "schedule" page).
  const payment = await db
    .selectFrom("payments")
    .innerJoin("schedule_instalments", "schedule_instalments.id", "payments.schedule_instalment_id")
    .innerJoin("payment_schedules", "payment_schedules.id", "schedule_instalments.schedule_id")
    .select("payments.reference")
    .where("payments.business_id", "=", acme.business_id)
    .where("payment_schedules.reference", "=", "PS-DEMO0001")
    .where("payments.status", "=", "succeeded")
    .orderBy("payments.created_at", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  BENCH_READ_ONLY.receiptReference = payment.reference;
  const paid = await db
    .selectFrom("payment_requests")
    .select("id")
    .where("business_id", "=", acme.business_id)
    .where("reference", "=", "PR-DEMO0004")
    .where("status", "=", "paid")
    .executeTakeFirstOrThrow();
  const token = benchLinkToken("paid-request", 0);
  await db
    .insertInto("link_tokens")
    .values({
      business_id: acme.business_id,
      purpose: "payment-request",
      subject_id: paid.id,
      contact_id: login.id,
      selector: token.slice(0, 16),
      verifier_hash: createHash("sha256").update(token.slice(16)).digest("hex"),
      // Still valid, so the page shows the request as paid (not the link as expired).
      expires_at: new Date(Date.now() + 30 * 86_400_000),
    })
    .execute();
}

/**
 * The low-end journey's requests (bench/journey.ts): one per run, on the demo login's account, for
 * a stated amount (credit on the account, so paying one touches no invoice another page shows),
 * sent to the login with the link `benchLinkToken("journey", i)`.
 */
async function createJourneyRequests(db: Db) {
  const acme = await db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", DEMO_HOST)
    .executeTakeFirstOrThrow();
  // ACME-1000, the first of the login's accounts.
  const login = await db
    .selectFrom("contacts")
    .innerJoin("account_contacts", "account_contacts.contact_id", "contacts.id")
    .innerJoin("accounts", "accounts.id", "account_contacts.account_id")
    .select(["contacts.id as contactId", "accounts.id as accountId"])
    .where("contacts.business_id", "=", acme.business_id)
    .where("contacts.email", "=", DEMO_LOGIN.email)
    .where("accounts.number", "=", "ACME-1000")
    .executeTakeFirstOrThrow();
  for (let run = 0; run < JOURNEY.runs; run += 1) {
    const request = await db
      .insertInto("payment_requests")
      .values({
        business_id: acme.business_id,
        account_id: login.accountId,
        reference: `PR-JOURNEY${run}`,
        kind: "amount",
        description: "Bench journey",
        currency: "AUD",
        amount_cents: JOURNEY.amountCents,
        allow_part_payment: false,
        expires_at: new Date(Date.now() + 30 * 86_400_000),
        status: "sent",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = benchLinkToken("journey", run);
    await db
      .insertInto("link_tokens")
      .values({
        business_id: acme.business_id,
        purpose: "payment-request",
        subject_id: request.id,
        contact_id: login.contactId,
        selector: token.slice(0, 16),
        verifier_hash: createHash("sha256").update(token.slice(16)).digest("hex"),
        expires_at: new Date(Date.now() + 30 * 86_400_000),
      })
      .execute();
  }
}

/**
 * A payment request of three of the account's open invoices (PR-BENCH<rows>), sent to its
 * contact with the link `benchLinkToken("request", rows)`: the link pages' "queries per page".
 */
async function createBenchRequest(
  db: Db,
  scope: { businessId: string; accountId: string; contactId: string },
  rows: number,
) {
  const invoices = await db
    .selectFrom("invoices")
    .select(["id", "balance_cents"])
    .where("account_id", "=", scope.accountId)
    .where("status", "in", [1, 3])
    .where("balance_cents", ">", 0)
    .orderBy("due_date")
    .limit(3)
    .execute();
  if (invoices.length === 0) throw new Error(`bench account of ${rows} rows has no open invoice`);
  const request = await db
    .insertInto("payment_requests")
    .values({
      business_id: scope.businessId,
      account_id: scope.accountId,
      reference: `PR-BENCH${rows}`,
      kind: "invoices",
      description: "Bench request",
      currency: "AUD",
      amount_cents: invoices.reduce((n, i) => n + Number(i.balance_cents), 0),
      allow_part_payment: true,
      expires_at: new Date(Date.now() + 30 * 86_400_000),
      status: "sent",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("payment_request_invoices")
    .values(
      invoices.map((i) => ({
        request_id: request.id,
        invoice_id: i.id,
        business_id: scope.businessId,
        amount_cents: Number(i.balance_cents),
      })),
    )
    .execute();
  const token = benchLinkToken("request", rows);
  await db
    .insertInto("link_tokens")
    .values({
      business_id: scope.businessId,
      purpose: "payment-request",
      subject_id: request.id,
      contact_id: scope.contactId,
      selector: token.slice(0, 16),
      verifier_hash: createHash("sha256").update(token.slice(16)).digest("hex"),
      expires_at: new Date(Date.now() + 30 * 86_400_000),
    })
    .execute();
}

/**
 * Two payment schedules of the account (decision 034): a proposal (PS-BENCHP<rows>) with the link
 * `benchLinkToken("schedule", rows)`, and an active one (PS-BENCHA<rows>), twelve monthly
 * instalments each, the active one's first three paid: the schedule pages' "queries per page".
 */
async function createBenchSchedules(
  db: Db,
  scope: { businessId: string; accountId: string; contactId: string },
  rows: number,
) {
  const first = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  for (const kind of ["P", "A"] as const) {
    const active = kind === "A";
    const schedule = await db
      .insertInto("payment_schedules")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        reference: `PS-BENCH${kind}${rows}`,
        description: "Bench schedule",
        currency: "AUD",
        total_cents: 12 * 100_00,
        paid_cents: active ? 3 * 100_00 : 0,
        status: active ? "active" : "proposed",
        contact_id: scope.contactId,
        email: "bench@bench.example",
        expires_at: new Date(Date.now() + 4 * 86_400_000),
        accepted_at: active ? new Date() : null,
        accepted_by: active ? scope.contactId : null,
        authority_text: active ? "Bench authority" : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("schedule_instalments")
      .values(
        Array.from({ length: 12 }, (_, i) => {
          const due = new Date(`${first}T00:00:00Z`);
          due.setUTCMonth(due.getUTCMonth() + i - (active ? 3 : 0));
          const day = due.toISOString().slice(0, 10);
          const paid = active && i < 3;
          return {
            business_id: scope.businessId,
            schedule_id: schedule.id,
            seq: i + 1,
            due_date: day,
            amount_cents: 100_00,
            status: paid ? ("paid" as const) : ("scheduled" as const),
            next_attempt_on: paid ? null : day,
            paid_at: paid ? new Date() : null,
          };
        }),
      )
      .execute();
    if (active) continue;
    const token = benchLinkToken("schedule", rows);
    await db
      .insertInto("link_tokens")
      .values({
        business_id: scope.businessId,
        purpose: "payment-schedule",
        subject_id: schedule.id,
        contact_id: scope.contactId,
        selector: token.slice(0, 16),
        verifier_hash: createHash("sha256").update(token.slice(16)).digest("hex"),
        expires_at: new Date(Date.now() + 4 * 86_400_000),
      })
      .execute();
  }
}

/**
 * An account with a fixed id (the ad-hoc page's path carries it): a branch of an account the
 * login already has (acme shows child accounts), or an account joined to the contact.
 */
async function createAdhocAccount(
  db: Db,
  scope: { businessId: string; parentAccountId?: string; contactId?: string },
  accountId: string,
  number: string,
) {
  await db
    .insertInto("accounts")
    .values({
      id: accountId,
      business_id: scope.businessId,
      number,
      name: `Bench ad hoc ${number}`,
      parent_account_id: scope.parentAccountId ?? null,
    })
    .execute();
  if (scope.contactId) {
    await db
      .insertInto("account_contacts")
      .values({ business_id: scope.businessId, account_id: accountId, contact_id: scope.contactId, role: "contact" })
      .execute();
  }
}

/**
 * A document in two versions, an offer of it waiting with the link `benchLinkToken("agreement",
 * rows)`, and one accepted on version 1 (AG-BENCH<rows>): the agreement pages' "queries per page".
 */
async function createBenchAgreements(
  db: Db,
  scope: { businessId: string; accountId: string; contactId: string },
  rows: number,
) {
  const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
  const texts = ["# Bench terms\n\nVersion one.\n", "# Bench terms\n\nVersion two.\n"];
  const document = await db
    .insertInto("agreement_documents")
    .values({ business_id: scope.businessId, kind: "terms-of-trade", title: "Bench terms", created_at: new Date() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const versions = await db
    .insertInto("agreement_versions")
    .values(
      texts.map((body, index) => ({
        business_id: scope.businessId,
        document_id: document.id,
        version: index + 1,
        body,
        body_sha256: sha256(body),
      })),
    )
    .returning(["id", "version"])
    .execute();
  const expiresAt = new Date(Date.now() + 30 * 86_400_000);
  const offer = (reference: string, status: "offered" | "accepted") =>
    db
      .insertInto("agreement_offers")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        contact_id: scope.contactId,
        document_id: document.id,
        reference,
        status,
        email: benchEmail(rows),
        expires_at: expiresAt,
        sent_at: new Date(),
        send_count: 1,
        decided_at: status === "accepted" ? new Date() : null,
        created_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  const accepted = await offer(BENCH_AGREEMENT_REFERENCE(rows), "accepted");
  await db
    .insertInto("agreement_decisions")
    .values({
      business_id: scope.businessId,
      offer_id: accepted.id,
      account_id: scope.accountId,
      contact_id: scope.contactId,
      version_id: versions.find((v) => v.version === 1)!.id,
      decision: "accepted",
      typed_name: "Bench Contact",
      body_sha256: sha256(texts[0]!),
      ip_address: "192.0.2.1",
      user_agent: "bench",
    })
    .execute();
  const waiting = await offer(`AG-BENCHW${rows}`, "offered");
  const token = benchLinkToken("agreement", rows);
  await db
    .insertInto("link_tokens")
    .values({
      business_id: scope.businessId,
      purpose: "agreement",
      subject_id: waiting.id,
      contact_id: scope.contactId,
      selector: token.slice(0, 16),
      verifier_hash: sha256(token.slice(16)),
      expires_at: expiresAt,
    })
    .execute();
}

/**
 * The preference page's signed links (decision 039) for the demo login on acme and the bench brand's
 * smallest account's contact, with the key the portal will derive from `sessionSecret` (or from
 * COMMUNICATION_LINK_SECRET when the environment gives one).
 */
async function signCommunicationLinks(db: Db, sessionSecret: string, benchBusinessId: string) {
  const key = linkKeyFrom({
    COMMUNICATION_LINK_SECRET: process.env.COMMUNICATION_LINK_SECRET || undefined,
    SESSION_SECRET: sessionSecret,
  });
  const demo = await db
    .selectFrom("contacts")
    .innerJoin("hosts", "hosts.business_id", "contacts.business_id")
    .select(["contacts.id", "contacts.business_id"])
    .where("hosts.hostname", "=", DEMO_HOST)
    .where("contacts.email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  const bench = await db
    .selectFrom("contacts")
    .select("id")
    .where("business_id", "=", benchBusinessId)
    .where("email", "=", benchEmail(QUERY_SIZES[0]!))
    .executeTakeFirstOrThrow();
  BENCH_COMMUNICATION_LINKS.demo = preferencesLinkPath(
    signLink(demo.business_id, demo.id, { kind: "preferences" }, { key }),
  );
  BENCH_COMMUNICATION_LINKS.bench = preferencesLinkPath(
    signLink(benchBusinessId, bench.id, { kind: "preferences" }, { key }),
  );
}

/**
 * A response request waiting for its answer, with the link `benchLinkToken("response", rows)`, and
 * one answered, with `benchLinkToken("responded", rows)`: the response pages' "queries per page".
 * Statements of two dates, as the back office would ask them.
 */
async function createBenchResponses(
  db: Db,
  scope: { businessId: string; accountId: string; contactId: string },
  rows: number,
) {
  const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
  const expiresAt = new Date(Date.now() + 30 * 86_400_000);
  for (const [kind, periodEnd] of [
    ["response", "2026-01-31"],
    ["responded", "2025-12-31"],
  ] as const) {
    const answered = kind === "responded";
    const request = await db
      .insertInto("response_requests")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        contact_id: scope.contactId,
        reference: `RR-BENCH${answered ? "A" : "O"}${rows}`,
        kind: "statement",
        details: JSON.stringify({ statement: { periodStart: null, periodEnd, closingBalanceCents: 12_345 } }),
        invoice_id: null,
        email: benchEmail(rows),
        status: answered ? "answered" : "open",
        expires_at: expiresAt,
        sent_at: new Date(),
        send_count: 1,
        answered_at: answered ? new Date() : null,
        created_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = benchLinkToken(kind, rows);
    const link = await db
      .insertInto("link_tokens")
      .values({
        business_id: scope.businessId,
        purpose: "response",
        subject_id: request.id,
        contact_id: scope.contactId,
        selector: token.slice(0, 16),
        verifier_hash: sha256(token.slice(16)),
        expires_at: expiresAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (answered) {
      await db
        .insertInto("response_answers")
        .values({
          business_id: scope.businessId,
          request_id: request.id,
          account_id: scope.accountId,
          contact_id: scope.contactId,
          link_token_id: link.id,
          choice: "acknowledged",
          typed_name: "Bench Contact",
          ip_address: "192.0.2.1",
          user_agent: "bench",
        })
        .execute();
    }
  }
}
