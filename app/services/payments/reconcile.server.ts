import { sql } from "kysely";
import { getDb } from "../platform/database.server";
import { now } from "../platform/clock.server";
import { logger } from "../platform/logger.server";
import type { GatewayCharge } from "./gateway/card-gateway.server";
import { getCardGateway } from "./gateway/index.server";
import { gatewayKey, RESERVING_STATUSES } from "./payment-records.server";
import { reconcilePayToPayment } from "./payto/payto-payments.server";
import { failCardPayment, settleCardCharge } from "./settle.server";

/**
 * The reconciler (ARCHITECTURE "Money moves exactly once"): a payment whose outcome we do not
 * know — a crash or a time-out between "charged" and "recorded" — is settled or failed from what
 * the gateway (or the PayTo provider) says it did with our key. The submit path asks at once;
 * the background jobs sweep what is left (`jobs/background.server.ts`).
 */

/**
 * Settles a payment whose outcome we do not know, by asking the gateway for the charge made
 * with our key. A captured charge is recorded once; a declined one fails the payment; no charge
 * at all fails it only once `graceMs` has passed (a request may still be on its way).
 */
export async function reconcilePayment(paymentId: string, options: { graceMs?: number } = {}) {
  const db = await getDb();
  const payment = await db
    .selectFrom("payments")
    .select(["id", "business_id", "request_guid", "status", "method", "created_at"])
    .where("id", "=", paymentId)
    .executeTakeFirst();
  if (!payment) return null;
  if ((RESERVING_STATUSES as string[]).includes(payment.status)) {
    // Asked now: the sweep's turn passes to the others (reconcileUnsettled's order).
    await db.updateTable("payments").set({ last_checked_at: now() }).where("id", "=", payment.id).execute();
  }
  // PayTo: the provider's record by our key, applied as a webhook would be; "submitted" waits.
  if (payment.method === "payto") return reconcilePayToPayment(payment, options.graceMs ?? 120_000);
  if (payment.status !== "unknown" && payment.status !== "pending") return payment.status;
  let charge: GatewayCharge | null;
  try {
    charge = await getCardGateway().findCharge(gatewayKey(payment.business_id, payment.request_guid));
  } catch (error) {
    logger.warn("reconcile: gateway lookup failed", { paymentId, error });
    return payment.status;
  }
  if (charge && (charge.status === "captured" || charge.status === "refunded")) {
    await settleCardCharge(payment.id, charge);
    return "succeeded";
  }
  if (charge && charge.status === "declined") {
    await failCardPayment(payment.id, charge.declineCode ?? "declined");
    return "failed";
  }
  // eslint-disable-next-line no-restricted-syntax -- its age is compared with created_at, which the database stamps with its own (real) now()
  const age = Date.now() - new Date(payment.created_at).getTime();
  if (age > (options.graceMs ?? 120_000)) {
    await failCardPayment(payment.id, "unavailable");
    return "failed";
  }
  return payment.status;
}

/**
 * The reconciler's sweep: every payment left pending or unknown (or, PayTo, submitted and
 * waiting to settle) for longer than `olderThanMs`; `method` narrows it to one kind.
 */
export async function reconcileUnsettled(
  options: { olderThanMs?: number; graceMs?: number; limit?: number; method?: "card" | "payto" } = {},
) {
  const db = await getDb();
  // eslint-disable-next-line no-restricted-syntax -- its age is compared with created_at, which the database stamps with its own (real) now()
  const before = new Date(Date.now() - (options.olderThanMs ?? 30_000));
  let query = db
    .selectFrom("payments")
    .select("id")
    .where("status", "in", RESERVING_STATUSES)
    .where("created_at", "<", before);
  if (options.method) query = query.where("method", "=", options.method);
  // Never asked first, then the longest since asked, then the oldest: each run moves on, so a
  // backlog of long-lived submitted PayTo payments is worked through instead of re-asked.
  const rows = await query
    .orderBy(sql`last_checked_at NULLS FIRST`)
    .orderBy("created_at")
    .limit(options.limit ?? 100)
    .execute();
  const results: Record<string, number> = {};
  for (const row of rows) {
    const status = (await reconcilePayment(row.id, { graceMs: options.graceMs })) ?? "missing";
    results[status] = (results[status] ?? 0) + 1;
  }
  return results;
}

/**
 * The card reconciler's sweep: card payments only. PayTo payments have their own poller, and a
 * backlog of them submitted for days must not take the places of a card payment left unknown.
 * Promises are never swept (they are "promised", not unsettled). Run as the `payment-reconcile`
 * job, once per RECONCILE_EVERY_MS across processes (decision 043): a payment is settled or
 * failed at most once, whoever sweeps (the status guard in each write).
 */
export const reconcileCardPayments = () => reconcileUnsettled({ method: "card" });

/**
 * The PayTo poller's sweep (decision 027 "Polling"; decision 043): asks the provider about PayTo
 * payments still submitted, pending or unknown a few seconds after they were made (younger ones
 * are still with the request that made them). Webhooks usually get there first; this is the
 * fallback when one is lost. Run as the `payto-payment-poll` job, once per PAYTO_POLL_MS across
 * processes; each payment's outcome is recorded at most once (the status guard in each write).
 */
export const pollPayToPayments = () => reconcileUnsettled({ method: "payto", olderThanMs: 3_000 });
