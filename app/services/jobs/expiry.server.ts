import { sql } from "kysely";
import { sweepExpiredDrafts } from "../credit/credit-applications.server";
import { sweepHeldCards } from "../payments/held-cards.server";
import { now } from "../platform/clock.server";
import type { Db } from "../platform/db.server";
import { RATE_LIMIT_PRUNE_AFTER_MS } from "../platform/rate-limit.server";

/**
 * The expiry sweep (issue 18; decision 043), run as the `expiry-sweep` job once per
 * EXPIRY_EVERY_MS across all processes. It deletes rows nothing reads again:
 *
 * - sessions past `expires_at` (a session is read only while `expires_at > now`);
 * - link sessions past `expires_at` (the browsers that paid from a link, for a day);
 * - rate-limit hits older than any window looks back (an hour);
 * - credit-application drafts past their expiry, with their documents (their own sweep);
 * - held cards past their 15 minutes (decision 071), with their tokens at the gateway (their own sweep).
 *
 * Each is deleted in bounded batches along the index on its expiry column, one short statement
 * a batch, so requests (on PGlite, sharing the one connection) get in between; a run stops after
 * `maxBatches` per table and the next run carries on. Deleting what is already gone deletes
 * nothing: a second run, or two at once, changes nothing more.
 *
 * Payment requests, ad-hoc links, offers and link tokens are not touched: none has a stored
 * "expired" state (payment requests read theirs from `expires_at`), and their rows are the
 * record of what was asked and paid.
 */
export const EXPIRY_BATCH = 1_000;
export const EXPIRY_MAX_BATCHES = 50;

export type ExpiryResult = {
  sessions: number;
  linkSessions: number;
  rateLimitHits: number;
  drafts: number;
  heldCards: number;
};

export async function expireStale(
  db: Db,
  options: { at?: Date; batch?: number; maxBatches?: number } = {},
): Promise<ExpiryResult> {
  // Real time, as the checks that read these rows use (not the e2e suite's movable clock).
  const at = options.at ?? now();
  const batch = options.batch ?? EXPIRY_BATCH;
  const maxBatches = options.maxBatches ?? EXPIRY_MAX_BATCHES;
  const iso = at.toISOString();
  const inBatches = async (deleteOne: () => Promise<number>) => {
    let total = 0;
    for (let n = 0; n < maxBatches; n++) {
      const deleted = await deleteOne();
      total += deleted;
      if (deleted < batch) break;
    }
    return total;
  };
  const affected = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0n);

  const sessions = await inBatches(async () =>
    affected(
      await sql`
        DELETE FROM sessions WHERE id_hash IN (
          SELECT id_hash FROM sessions WHERE expires_at <= ${iso}::timestamptz ORDER BY expires_at LIMIT ${batch}
        )`.execute(db),
    ),
  );
  const linkSessions = await inBatches(async () =>
    affected(
      await sql`
        DELETE FROM link_sessions WHERE (id_hash, link_token_id) IN (
          SELECT id_hash, link_token_id FROM link_sessions
          WHERE expires_at <= ${iso}::timestamptz ORDER BY expires_at LIMIT ${batch}
        )`.execute(db),
    ),
  );
  const before = new Date(at.getTime() - RATE_LIMIT_PRUNE_AFTER_MS).toISOString();
  const rateLimitHits = await inBatches(async () =>
    affected(
      await sql`
        DELETE FROM rate_limit_hits WHERE id IN (
          SELECT id FROM rate_limit_hits WHERE at < ${before}::timestamptz ORDER BY at LIMIT ${batch}
        )`.execute(db),
    ),
  );
  // Drafts go with their stored documents, a small batch at a time (their own sweep, on the
  // portal's clock as when a draft is started).
  let drafts = 0;
  for (let n = 0; n < maxBatches; n++) {
    const removed = await sweepExpiredDrafts();
    drafts += removed;
    if (removed === 0) break;
  }
  // Held cards go with their gateway tokens (their own sweep), a batch at a time.
  let heldCards = 0;
  for (let n = 0; n < maxBatches; n++) {
    const removed = await sweepHeldCards(batch, at);
    heldCards += removed;
    if (removed < batch) break;
  }
  return { sessions, linkSessions, rateLimitHits, drafts, heldCards };
}
