import { businessToday } from "../platform/clock.server";
import type { Db } from "../platform/db.server";

/**
 * The business's calendar date now (decision 078), for code that has the business's id but not its
 * host: a settlement, an incoming PayID payment, an invoice list. Callers with the host's branding
 * at hand call `businessToday(branding.timeZone)` instead.
 */
export async function businessTodayOf(db: Db, businessId: string, at?: Date): Promise<string> {
  const row = await db
    .selectFrom("businesses")
    .select("time_zone")
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  return businessToday(row.time_zone, at);
}
