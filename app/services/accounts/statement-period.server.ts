import { sql } from "kysely";
import { getDb } from "../platform/database.server";

/**
 * A statement for a period (issue 34): what the account owed when the period began, and how many lines
 * fall in it (to refuse a period too long for one file before reading any). Read from the per-day totals
 * that triggers keep (migration 0005): one statement, whatever the number of lines.
 */
export async function getStatementPeriod(
  businessId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<{ openingCents: number; lineCount: number }> {
  const db = await getDb();
  const row = await db
    .selectFrom("statement_daily_totals")
    .select([
      sql<string>`coalesce(sum(debit_cents - credit_cents) filter (where line_date < ${from}), 0)`.as("opening"),
      sql<string>`coalesce(sum(line_count) filter (where line_date >= ${from}), 0)`.as("lines"),
    ])
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("line_date", "<=", to)
    .executeTakeFirstOrThrow();
  return { openingCents: Number(row.opening), lineCount: Number(row.lines) };
}

export type StatementLine = {
  id: number;
  date: string;
  type: string;
  reference: string;
  description: string;
  debitCents: number;
  creditCents: number;
};

/**
 * The period's lines, oldest first, in blocks of `blockSize`: each block one query that carries on
 * from the last line of the one before (date, then id; the account-and-date index read backwards), so
 * no block costs more than the first, and the caller does its work on one block before the next is read.
 */
export async function* statementLinesInOrder(
  businessId: string,
  accountId: string,
  from: string,
  to: string,
  blockSize = 1_000,
): AsyncGenerator<StatementLine[]> {
  const db = await getDb();
  let after: { date: string; id: number } | null = null;
  for (;;) {
    let query = db
      .selectFrom("statement_lines")
      .select([
        "id",
        "line_date as date",
        "type",
        "reference",
        "description",
        "debit_cents as debitCents",
        "credit_cents as creditCents",
      ])
      .where("business_id", "=", businessId)
      .where("account_id", "=", accountId)
      .where("line_date", ">=", from)
      .where("line_date", "<=", to);
    if (after) {
      const last: { date: string; id: number } = after;
      query = query.where(sql<boolean>`(line_date, id) > (${last.date}::date, ${last.id})`);
    }
    const rows = await query.orderBy("line_date", "asc").orderBy("id", "asc").limit(blockSize).execute();
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      ...row,
      id: Number(row.id),
      date: String(row.date),
      debitCents: Number(row.debitCents),
      creditCents: Number(row.creditCents),
    }));
    if (rows.length < blockSize) return;
    const lastRow = rows[rows.length - 1]!;
    after = { date: String(lastRow.date), id: Number(lastRow.id) };
  }
}
