import { sql } from "kysely";
import { getDb } from "../platform/database.server";

/**
 * The balance by age (issue 34): what an account owes, split by how many days past its due date each
 * invoice's balance is on the business's own date (`businessToday`, decision 078). The bands are the
 * ones every aged-debtors report uses. Days past due = today − due date: an invoice due today is
 * current; due yesterday is 1 day past due.
 */
export const AGEING_BANDS = ["current", "days1to30", "days31to60", "days61to90", "over90"] as const;
export type AgeingBand = (typeof AGEING_BANDS)[number];

export type Ageing = {
  /** The business's local date the ages are counted to (YYYY-MM-DD). */
  asAt: string;
  bands: Record<AgeingBand, number>;
  /** Every band together: the same figure as the dashboard's amount due. */
  totalCents: number;
};

/** Invoices with money still owing on them (the dashboard's tiles count the same ones). */
const OWING_STATUSES = [1, 3, 5, 6, 7, 8];

/**
 * One statement whatever the number of invoices: the open balances summed by band in SQL, read
 * along the (business, account) index.
 */
export async function getAgeing(businessId: string, accountId: string, today: string): Promise<Ageing> {
  const db = await getDb();
  const late = sql<number>`(cast(${today} as date) - due_date)`;
  const row = await db
    .selectFrom("invoices")
    .select([
      sql<string>`coalesce(sum(balance_cents) filter (where ${late} <= 0), 0)`.as("current"),
      sql<string>`coalesce(sum(balance_cents) filter (where ${late} between 1 and 30), 0)`.as("days1to30"),
      sql<string>`coalesce(sum(balance_cents) filter (where ${late} between 31 and 60), 0)`.as("days31to60"),
      sql<string>`coalesce(sum(balance_cents) filter (where ${late} between 61 and 90), 0)`.as("days61to90"),
      sql<string>`coalesce(sum(balance_cents) filter (where ${late} > 90), 0)`.as("over90"),
    ])
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("status", "in", OWING_STATUSES)
    .where("balance_cents", ">", 0)
    .executeTakeFirstOrThrow();
  const bands = Object.fromEntries(AGEING_BANDS.map((band) => [band, Number(row[band])])) as Record<AgeingBand, number>;
  return { asAt: today, bands, totalCents: AGEING_BANDS.reduce((sum, band) => sum + bands[band], 0) };
}
