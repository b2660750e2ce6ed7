import { sql } from "kysely";
import { getDb } from "./database.server";

/**
 * Fixed-window counters in the database, so every portal process shares them (ASVS 2.2.1).
 * An attempt is counted *before* the work it guards, in one atomic statement per counter,
 * so a burst of parallel requests cannot all slip under the limit while the first ones are
 * still being checked.
 */
export type Limit = { key: string; max: number; windowMs: number };

const MINUTES_15 = 15 * 60_000;
/** Per account and client address together: the lock a guesser hits. */
export const SIGN_IN_PER_ACCOUNT_AND_ADDRESS = { max: 10, windowMs: MINUTES_15 };
/**
 * Per account from anywhere: a ceiling well above the pair limit, so that someone
 * guessing from one address cannot lock the real owner out, yet a distributed guesser is
 * still stopped.
 */
export const SIGN_IN_PER_ACCOUNT = { max: 100, windowMs: MINUTES_15 };
/** Per client address: higher, because many people may share one office or carrier address. */
export const SIGN_IN_PER_ADDRESS = { max: 50, windowMs: MINUTES_15 };
/** Password-reset and confirmation mails: per account, and (higher) per client address. */
export const RESET_REQUESTS = { max: 5, windowMs: MINUTES_15 };
export const RESET_REQUESTS_PER_ADDRESS = { max: 30, windowMs: MINUTES_15 };
/** Token checks and token uses, per client address. */
export const TOKEN_CHECKS = { max: 30, windowMs: MINUTES_15 };
/** Current-password checks when changing a password, per contact. */
export const PASSWORD_CHECKS = { max: 10, windowMs: MINUTES_15 };

function windowStart(windowMs: number, now = Date.now()) {
  return new Date(Math.floor(now / windowMs) * windowMs);
}

/**
 * Counts one attempt against each limit and says whether it may go ahead: false when any
 * counter is now over its maximum.
 */
export async function consume(businessId: string, limits: Limit[]): Promise<boolean> {
  if (limits.length === 0) return true;
  const db = await getDb();
  let allowed = true;
  for (const limit of limits) {
    const row = await db
      .insertInto("rate_limits")
      .values({ business_id: businessId, key: limit.key, window_start: windowStart(limit.windowMs), count: 1 })
      .onConflict((oc) =>
        oc.columns(["business_id", "key", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }),
      )
      .returning("count")
      .executeTakeFirstOrThrow();
    if (Number(row.count) > limit.max) allowed = false;
  }
  // Old windows are never read again.
  if (Math.random() < 0.05) {
    await db
      .deleteFrom("rate_limits")
      .where("window_start", "<", new Date(Date.now() - 24 * 3_600_000))
      .execute();
  }
  return allowed;
}

/** Gives back one counted attempt (a sign-in that succeeded should not use up an office's budget). */
export async function refund(businessId: string, limits: Limit[]) {
  const db = await getDb();
  for (const limit of limits) {
    await db
      .updateTable("rate_limits")
      .set({ count: sql`greatest(rate_limits.count - 1, 0)` })
      .where("business_id", "=", businessId)
      .where("key", "=", limit.key)
      .where("window_start", "=", windowStart(limit.windowMs))
      .execute();
  }
}

/** Clears counters (a successful sign-in or reset clears that account's failures). */
export async function clearLimits(businessId: string, keys: string[]) {
  if (keys.length === 0) return;
  const db = await getDb();
  await db.deleteFrom("rate_limits").where("business_id", "=", businessId).where("key", "in", keys).execute();
}

/** The counters of one sign-in attempt. */
export function signInLimits(email: string | null, address: string): Limit[] {
  const limits: Limit[] = [{ key: `signin:ip:${address}`, ...SIGN_IN_PER_ADDRESS }];
  if (email) {
    limits.push({ key: `signin:email-ip:${email}|${address}`, ...SIGN_IN_PER_ACCOUNT_AND_ADDRESS });
    limits.push({ key: `signin:email:${email}`, ...SIGN_IN_PER_ACCOUNT });
  }
  return limits;
}
