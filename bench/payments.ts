/**
 * `npm run bench:payments` (issue 3): what paying costs on the server, through the real
 * payment service and the sandbox gateway (answering at once, so the figures are ours):
 * paying 1 invoice and 50 invoices per payment, on PGlite and, with TEST_DATABASE_URL, on
 * PostgreSQL; and 100 concurrent submissions of 50 payments (each sent twice at once, as a
 * double click does) → exactly 50 charges. Prints a table and writes
 * bench/results/payments.json. Every database is its own and is dropped at the end.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "kysely";
import pg from "pg";
import { setDatabaseForTesting } from "../app/services/platform/database.server";
import { openPostgres, PGLITE_PARSERS, pgliteHandle, type DatabaseHandle } from "../app/services/platform/db.server";
import { setCardGatewayForTesting } from "../app/services/payments/gateway/index.server";
import { createSandboxGateway } from "../app/services/payments/gateway/sandbox-gateway.server";
import { migrate } from "../app/services/platform/migrate.server";
import { saveCard } from "../app/services/payment-methods/payment-methods.server";
import { submitPayment } from "../app/services/payments/submit.server";
import { createBenchAccount, createBenchBusiness } from "./lib/ledger";
import { median, percentile, round } from "./lib/stats";

const RUNS = { single: 40, fifty: 10, doubleSubmissions: 50 };
const context = { origin: "http://bench.localhost", clientIp: "127.0.0.1", extraData: {} };
const today = new Date().toISOString().slice(0, 10);

type Row = {
  database: string;
  case: string;
  payments: number;
  medianMs: number;
  p95Ms: number;
  charges?: number;
  expectedCharges?: number;
  /** Every submission, first or repeat, must be answered with the payment's result. */
  answeredPaid?: number;
  submissions?: number;
};

async function measure(database: string, handle: DatabaseHandle): Promise<Row[]> {
  await migrate(handle);
  const db = handle.db;
  const businessId = await createBenchBusiness(db, `payments-${randomBytes(3).toString("hex")}.bench.localhost`);
  await db
    .insertInto("fee_rules")
    .values({
      business_id: businessId,
      surcharge: JSON.stringify({ visa: { bps: 120, fixedCents: 0 } }),
      late_fee_bps: 200,
      late_fee_fixed_cents: 500,
    })
    .execute();
  const { accountId, contactId } = await createBenchAccount(db, businessId, {
    number: "PAY-1",
    email: "pay@bench.example",
    password: randomBytes(12).toString("hex"),
  });
  const invoiceCount = RUNS.single + RUNS.fifty * 50 + RUNS.doubleSubmissions;
  await sql`
    INSERT INTO invoices (business_id, account_id, number, issue_date, due_date, amount_cents, balance_cents, status)
    SELECT ${businessId}::uuid, ${accountId}::uuid, 'PAY-INV-' || g, current_date - 40, current_date - 10 + (g % 30), 10000 + g, 10000 + g, 1
    FROM generate_series(1, ${invoiceCount}::int) AS g`.execute(db);
  setDatabaseForTesting(handle);
  setCardGatewayForTesting(createSandboxGateway({ db: async () => db, delayMs: 0 }));
  const actor = { businessId, accountId, contactId, clientIp: "127.0.0.1" };
  const year = new Date().getUTCFullYear() + 2;
  const saved = await saveCard(
    actor,
    {
      cardNumber: "4111111111111111",
      cvn: "123",
      expiryMonth: 12,
      expiryYear: year,
      holderName: "Bench",
      makeDefault: true,
      authorityReference: "BENCH",
    },
    context,
  );
  if (!saved.ok) throw new Error(`bench card refused: ${saved.refusal}`);
  const invoices = await db
    .selectFrom("invoices")
    .select(["id", "balance_cents"])
    .where("account_id", "=", accountId)
    .orderBy("number")
    .execute();
  let next = 0;
  const take = (n: number) => invoices.slice(next, (next += n));
  const pay = (selection: { id: string; balance_cents: number }[], requestGuid = randomUUID()) =>
    submitPayment(
      actor,
      {
        requestGuid,
        selection: selection.map((i) => ({ invoiceId: i.id, amountCents: i.balance_cents })),
        method: { kind: "saved-card", cardId: saved.card.cardId },
        note: "",
        currency: "AUD",
        today,
      },
      context,
    );
  const timed = async (runs: number, size: number) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const selection = take(size);
      const start = performance.now();
      const outcome = await pay(selection);
      times.push(performance.now() - start);
      if (outcome.kind !== "succeeded") throw new Error(`bench payment ${outcome.kind}`);
    }
    return { medianMs: round(median(times), 1), p95Ms: round(percentile(times, 95), 1) };
  };
  const rows: Row[] = [];
  rows.push({ database, case: "pay 1 invoice", payments: RUNS.single, ...(await timed(RUNS.single, 1)) });
  rows.push({
    database,
    case: "pay 50 invoices in one payment",
    payments: RUNS.fifty,
    ...(await timed(RUNS.fifty, 50)),
  });

  // 50 payments, each submitted twice at the same moment: 100 submissions in flight.
  const payments = take(RUNS.doubleSubmissions).map((invoice) => ({ invoice, guid: randomUUID() }));
  const chargesBefore = Number(
    (
      await db
        .selectFrom("sandbox_gateway_charges")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const start = performance.now();
  const outcomes = await Promise.all(
    payments.flatMap(({ invoice, guid }) => [pay([invoice], guid), pay([invoice], guid)]),
  );
  const elapsed = performance.now() - start;
  const charges =
    Number(
      (
        await db
          .selectFrom("sandbox_gateway_charges")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ) - chargesBefore;
  const succeeded = outcomes.filter((o) => o.kind === "succeeded").length;
  rows.push({
    database,
    case: `${payments.length * 2} concurrent submissions of ${payments.length} payments (${succeeded} answered "paid")`,
    payments: payments.length,
    medianMs: round(elapsed / outcomes.length, 1),
    p95Ms: round(elapsed, 1),
    charges,
    expectedCharges: payments.length,
    answeredPaid: succeeded,
    submissions: outcomes.length,
  });
  setDatabaseForTesting(undefined);
  setCardGatewayForTesting(undefined);
  return rows;
}

const rows: Row[] = [];
const pglite = pgliteHandle(await PGlite.create({ parsers: PGLITE_PARSERS }));
try {
  rows.push(...(await measure("PGlite", pglite)));
} finally {
  await pglite.close();
}
const adminUrl = process.env.TEST_DATABASE_URL?.trim();
if (adminUrl) {
  const name = `portal_bench_pay_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), { max: 8 });
  try {
    rows.push(...(await measure("PostgreSQL", handle)));
  } finally {
    await handle.close();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
} else {
  process.stdout.write("PostgreSQL skipped: set TEST_DATABASE_URL to measure it too.\n");
}

const header = ["database", "case", "payments", "median ms", "p95 ms (all for the burst)", "charges"];
const table = rows.map((r) => [
  r.database,
  r.case,
  String(r.payments),
  String(r.medianMs),
  String(r.p95Ms),
  r.charges === undefined ? "–" : `${r.charges} of ${r.expectedCharges}`,
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ");
process.stdout.write(
  `\nPaying invoices on the server (sandbox gateway answering at once)\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n${table.map(line).join("\n")}\n`,
);
fs.mkdirSync("bench/results", { recursive: true });
fs.writeFileSync(
  path.join("bench/results", "payments.json"),
  JSON.stringify({ at: new Date().toISOString(), rows }, null, 2),
);
const wrong = rows.filter((r) => r.charges !== r.expectedCharges || r.answeredPaid !== r.submissions);
if (wrong.length > 0) {
  process.stderr.write(`Charges did not match payments: ${JSON.stringify(wrong)}\n`);
  process.exit(1);
}
