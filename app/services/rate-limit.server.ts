import { sql } from "kysely";
import { getDb } from "./database.server";

/**
 * Fixed-window counters in the database, so every portal process shares them.
 * Used for sign-in failures, password-reset requests and token checks (ASVS 2.2.1).
 */
export type Limit = { key: string; max: number; windowMs: number };

/** Per account: 10 failures in 15 minutes. */
export const SIGN_IN_FAILURES = { max: 10, windowMs: 15 * 60_000 };
/** Per client address: higher, because many people may share one office or carrier address. */
export const SIGN_IN_FAILURES_PER_ADDRESS = { max: 50, windowMs: 15 * 60_000 };
/** Password-reset and confirmation mails: per account, and (higher) per client address. */
export const RESET_REQUESTS = { max: 5, windowMs: 15 * 60_000 };
export const RESET_REQUESTS_PER_ADDRESS = { max: 30, windowMs: 15 * 60_000 };
export const TOKEN_CHECKS = { max: 30, windowMs: 15 * 60_000 };

function windowStart(windowMs: number, now = Date.now()) {
  return new Date(Math.floor(now / windowMs) * windowMs);
}

/** True when any of the limits has already been reached in its current window. */
export async function isLimited(businessId: string, limits: Limit[]): Promise<boolean> {
  if (limits.length === 0) return false;
  const db = await getDb();
  const rows = await db
    .selectFrom("rate_limits")
    .select(["key", "window_start", "count"])
    .where("business_id", "=", businessId)
    .where((eb) =>
      eb.or(limits.map((limit) => eb.and([eb("key", "=", limit.key), eb("window_start", "=", windowStart(limit.windowMs))]))),
    )
    .execute();
  return limits.some((limit) => {
    const row = rows.find((r) => r.key === limit.key);
    return row !== undefined && row.count >= limit.max;
  });
}

/** Counts one event against each limit. */
export async function hit(businessId: string, limits: Limit[]) {
  if (limits.length === 0) return;
  const db = await getDb();
  await db
    .insertInto("rate_limits")
    .values(limits.map((limit) => ({ business_id: businessId, key: limit.key, window_start: windowStart(limit.windowMs), count: 1 })))
    .onConflict((oc) => oc.columns(["business_id", "key", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }))
    .execute();
  // Old windows are never read again.
  await db.deleteFrom("rate_limits").where("window_start", "<", new Date(Date.now() - 24 * 3_600_000)).execute();
}

/** Clears counters (a successful sign-in clears that account's failures). */
export async function clearLimits(businessId: string, keys: string[]) {
  if (keys.length === 0) return;
  const db = await getDb();
  await db.deleteFrom("rate_limits").where("business_id", "=", businessId).where("key", "in", keys).execute();
}
