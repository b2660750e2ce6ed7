import { sql } from "kysely";
import { getDb } from "./database.server";

/**
 * Sliding-window limits in the database, so every portal process shares them (ASVS 2.2.1).
 * Each counted attempt is a row with its time. A key is locked for one window from the
 * moment the max-th attempt within one window was counted: "ten failures in 15 minutes lock
 * it for 15 minutes" means exactly that, not "until the next quarter hour" (fixed buckets).
 *
 * An attempt is counted *before* the work it guards, under a per-key transaction lock, so
 * a burst of parallel requests cannot all slip under the limit while the first ones are
 * still being checked. Refused attempts are not counted: they did no work, and counting
 * them would let a guesser keep a lock up for ever. See decision 024.
 */
export type Limit = { key: string; max: number; windowMs: number };

const MINUTES_15 = 15 * 60_000;
/** Per account and client address together: the lock a guesser hits. */
export const SIGN_IN_PER_ACCOUNT_AND_ADDRESS = { max: 10, windowMs: MINUTES_15 };
/**
 * Per account from anywhere: a ceiling well above the pair limit, so that a distributed
 * guesser is still stopped. Not applied from an address the contact has signed in from
 * successfully before (KNOWN_ADDRESS_MS), so that such a guesser cannot lock the owner out.
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
/** How long an address stays "known" for a contact after a successful sign-in from it. */
export const KNOWN_ADDRESS_MS = 90 * 24 * 3_600_000;

/**
 * Counted attempts are kept this long (four of the longest window), then pruned: by the expiry
 * job (expiry.server.ts), and a few at a time by every counted attempt (`consume`).
 */
export const RATE_LIMIT_PRUNE_AFTER_MS = 60 * 60_000;
const PRUNE_AFTER_MS = RATE_LIMIT_PRUNE_AFTER_MS;
/**
 * The most old hits one counted attempt deletes. An attempt adds at most one hit per limit (three),
 * so a flood of attempts prunes faster than it inserts, however many addresses it comes from.
 */
export const RATE_LIMIT_PRUNE_BATCH = 100;

// eslint-disable-next-line no-restricted-syntax -- rate-limit windows are elapsed real time; tests move them through setRateLimitClock
let clock: () => number = () => Date.now();

/** Tests move time; production reads the system clock. */
export function setRateLimitClockForTesting(next: (() => number) | null) {
  // eslint-disable-next-line no-restricted-syntax -- rate-limit windows are elapsed real time; tests move them through setRateLimitClock
  clock = next ?? (() => Date.now());
}

export function rateLimitNow() {
  return new Date(clock());
}

function lockKey(businessId: string, key: string) {
  return `${businessId}|${key}`;
}

/**
 * Counts one attempt against every limit and says whether it may go ahead: false (and
 * nothing counted) when any of the keys is locked.
 */
export async function consume(businessId: string, limits: Limit[]): Promise<boolean> {
  if (limits.length === 0) return true;
  const db = await getDb();
  const now = clock();
  const allowed = await db.transaction().execute(async (tx) => {
    // Sorted, so two requests sharing keys always lock them in the same order (no deadlock).
    for (const key of [...new Set(limits.map((l) => l.key))].sort()) {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(businessId, key)}, 0))`.execute(tx);
    }
    for (const limit of limits) {
      const windowMs = Math.trunc(limit.windowMs);
      // Locked when some attempt of the last window was the max-th within its own window.
      const row = await sql<{ locked: boolean }>`
        SELECT EXISTS (
          SELECT 1 FROM (
            SELECT at, count(*) OVER (
              ORDER BY at RANGE BETWEEN ${sql.raw(`interval '${windowMs} milliseconds'`)} PRECEDING AND CURRENT ROW
            ) AS n
            FROM rate_limit_hits
            WHERE business_id = ${businessId} AND key = ${limit.key} AND at > ${new Date(now - 2 * windowMs)}
          ) w
          WHERE w.n >= ${limit.max} AND w.at > ${new Date(now - windowMs)}
        ) AS locked`.execute(tx);
      if (row.rows[0]?.locked) return false;
    }
    // A lock looks back at most two windows (the max-th attempt, then one window of lock), and no
    // window is longer than 15 minutes: attempts older than an hour are never read again. Every
    // counted attempt deletes a bounded batch of them in the same statement as its insert (a
    // data-modifying CTE), so every request does the same statements — no request pays for a
    // long delete, and none runs one more statement by chance (issue 29: the bench's count of a
    // page's statements). SKIP LOCKED: two attempts never wait on each other's old rows.
    await tx
      .with("pruned", (db) =>
        db
          .deleteFrom("rate_limit_hits")
          .where(
            "id",
            "in",
            db
              .selectFrom("rate_limit_hits")
              .select("id")
              .where("at", "<", new Date(now - PRUNE_AFTER_MS))
              .orderBy("at")
              .limit(RATE_LIMIT_PRUNE_BATCH)
              .forUpdate()
              .skipLocked(),
          )
          .returning("id"),
      )
      .insertInto("rate_limit_hits")
      .values(limits.map((limit) => ({ business_id: businessId, key: limit.key, at: new Date(now) })))
      .execute();
    return true;
  });
  return allowed;
}

/** Gives back the latest counted attempt of each limit (a sign-in that succeeded). */
export async function refund(businessId: string, limits: Limit[]) {
  const db = await getDb();
  for (const limit of limits) {
    await db
      .deleteFrom("rate_limit_hits")
      .where(
        "id",
        "=",
        db
          .selectFrom("rate_limit_hits")
          .select("id")
          .where("business_id", "=", businessId)
          .where("key", "=", limit.key)
          .orderBy("at", "desc")
          .orderBy("id", "desc")
          .limit(1),
      )
      .execute();
  }
}

/** Clears counters (a successful sign-in or reset clears that account's failures). */
export async function clearLimits(businessId: string, keys: string[]) {
  if (keys.length === 0) return;
  const db = await getDb();
  await db.deleteFrom("rate_limit_hits").where("business_id", "=", businessId).where("key", "in", keys).execute();
}

/** Clears every counter whose key starts with `prefix` (e.g. one account's per-address keys). */
export async function clearLimitsStartingWith(businessId: string, prefix: string) {
  const db = await getDb();
  await db
    .deleteFrom("rate_limit_hits")
    .where("business_id", "=", businessId)
    .where(sql<boolean>`left(key, ${prefix.length}) = ${prefix}`)
    .execute();
}

export const signInAccountKey = (email: string) => `signin:email:${email}`;
export const signInPairKey = (email: string, address: string) => `signin:email-ip:${email}|${address}`;

/**
 * The counters of one sign-in attempt. `knownAddress`: the address has signed in to this
 * account successfully before, so the per-account ceiling does not apply to it.
 */
export function signInLimits(email: string | null, address: string, options: { knownAddress?: boolean } = {}) {
  const limits: Limit[] = [{ key: `signin:ip:${address}`, ...SIGN_IN_PER_ADDRESS }];
  if (email) {
    limits.push({ key: signInPairKey(email, address), ...SIGN_IN_PER_ACCOUNT_AND_ADDRESS });
    if (!options.knownAddress) limits.push({ key: signInAccountKey(email), ...SIGN_IN_PER_ACCOUNT });
  }
  return limits;
}

/** Has this address signed in to this contact's account successfully (recently)? */
export async function isKnownSignInAddress(businessId: string, email: string, address: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("sign_in_addresses")
    .innerJoin("contacts", "contacts.id", "sign_in_addresses.contact_id")
    .select("sign_in_addresses.address")
    .where("sign_in_addresses.business_id", "=", businessId)
    .where("contacts.business_id", "=", businessId)
    .where("contacts.email", "=", email)
    .where("sign_in_addresses.address", "=", address)
    .where("sign_in_addresses.last_success_at", ">", new Date(clock() - KNOWN_ADDRESS_MS))
    .executeTakeFirst();
  return row !== undefined;
}

/** Remembers a successful sign-in from this address. */
export async function rememberSignInAddress(businessId: string, contactId: string, address: string) {
  if (address.length > 64) return;
  const db = await getDb();
  const at = rateLimitNow();
  await db
    .insertInto("sign_in_addresses")
    .values({ business_id: businessId, contact_id: contactId, address, last_success_at: at })
    .onConflict((oc) => oc.columns(["business_id", "contact_id", "address"]).doUpdateSet({ last_success_at: at }))
    .execute();
}
