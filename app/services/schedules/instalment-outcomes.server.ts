import { sql } from "kysely";
import { todayIn } from "~/lib/dates";
import { MAX_ATTEMPTS, nextRetryDay } from "~/lib/instalments";
import { now } from "../platform/clock.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { enqueue, QUEUES } from "../platform/queue.server";

/**
 * What an instalment payment's outcome does to its instalment and schedule (decisions 034, 035),
 * called by the payment engine inside the very transaction that settles or fails the payment, so
 * the payment, the instalment, the schedule and the emails about them (outbox jobs) move together
 * or not at all — whoever learns the outcome (the charge itself, the card reconciler, a PayTo
 * webhook or poll, the runner finishing an attempt after a crash).
 *
 * Lock order, everywhere: the payment's row, then the schedule's, then the instalment's, then
 * invoices (the claim takes schedule → instalment → invoices; a cancel schedule → instalments).
 */

export type InstalmentEmail =
  | { kind: "receipt"; businessId: string; paymentId: string }
  | { kind: "declined"; businessId: string; attemptId: string }
  | { kind: "arrears-contact"; businessId: string; attemptId: string }
  | { kind: "arrears-business"; businessId: string; attemptId: string }
  /** A payment settled for an instalment something else had already paid (or that was cancelled). */
  | { kind: "paid-twice-business"; businessId: string; paymentId: string };

/** Writes an email job in `tx`, once per key (what it is about and which email). */
export async function queueInstalmentEmail(tx: Db, email: InstalmentEmail) {
  const subject = email.kind === "receipt" || email.kind === "paid-twice-business" ? email.paymentId : email.attemptId;
  await enqueue(tx, QUEUES.email, email, { key: `${email.kind}:${subject}` });
}

type LockedInstalment = {
  id: string;
  scheduleId: string;
  scheduleStatus: string;
  status: string;
  attempts: number;
  amountCents: number;
  timeZone: string;
};

/**
 * Locks a settling or failing instalment payment's schedule, then its instalment (before the
 * engine touches any invoice). Null when the payment is not for an instalment.
 */
export async function lockInstalmentForSettlement(
  tx: Db,
  businessId: string,
  instalmentId: string | null,
): Promise<LockedInstalment | null> {
  if (!instalmentId) return null;
  const schedule = await tx
    .selectFrom("payment_schedules as ps")
    .innerJoin("businesses as b", "b.id", "ps.business_id")
    .select(["ps.id", "ps.status", "b.time_zone as timeZone"])
    .where("ps.business_id", "=", businessId)
    .where("ps.id", "=", (eb) =>
      eb.selectFrom("schedule_instalments").select("schedule_id").where("id", "=", instalmentId),
    )
    .forUpdate("ps")
    .executeTakeFirst();
  if (!schedule) return null;
  const instalment = await tx
    .selectFrom("schedule_instalments")
    .select(["id", "status", "attempts", "amount_cents as amountCents"])
    .where("id", "=", instalmentId)
    .where("business_id", "=", businessId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return {
    id: instalment.id,
    scheduleId: schedule.id,
    scheduleStatus: schedule.status,
    status: instalment.status,
    attempts: instalment.attempts,
    amountCents: Number(instalment.amountCents),
    timeZone: schedule.timeZone,
  };
}

type InstalmentPayment = { id: string; business_id: string; request_guid: string };

/** Marks the payment's attempt finished (once: only a started or pending attempt changes). */
async function finishAttempt(
  tx: Db,
  payment: InstalmentPayment,
  outcome: "succeeded" | "declined",
  failureCode: string | null,
) {
  return (
    tx
      .updateTable("instalment_attempts")
      .set({ outcome, failure_code: failureCode, finished_at: now(), payment_id: payment.id })
      .where("business_id", "=", payment.business_id)
      .where("request_guid", "=", payment.request_guid)
      // A PayTo payment the bank paid after we had failed it: its try succeeded after all.
      .where(
        "outcome",
        "in",
        outcome === "succeeded" ? ["started", "pending", "declined", "error"] : ["started", "pending"],
      )
      .returning(["id", "trigger", "attempt_no as attemptNo", "instalment_id as instalmentId"])
      .executeTakeFirst()
  );
}

/**
 * The payment succeeded (a card charge captured, a PayTo payment settled — even one we had
 * failed): its attempt succeeded, its instalment is paid (unless something else paid it first, in
 * which case this money stays credit on the account), the schedule's paid amount grows, and the
 * schedule is completed when nothing is left to pay, or back to active from arrears when no
 * failed instalment remains. The receipt goes through the outbox.
 */
export async function instalmentSettled(tx: Db, payment: InstalmentPayment, locked: LockedInstalment) {
  await finishAttempt(tx, payment, "succeeded", null);
  const at = now();
  const paid = await tx
    .updateTable("schedule_instalments")
    .set({ status: "paid", payment_id: payment.id, paid_at: at, next_attempt_on: null, last_failure: null })
    .where("id", "=", locked.id)
    .where("status", "in", ["processing", "scheduled", "failed"])
    .returning("id")
    .executeTakeFirst();
  if (!paid) {
    // Money moved twice for one instalment (a PayTo try failed for want of news that the bank
    // paid after all, beside the try that replaced it): it stays credit on the account, and the
    // business is told at once to refund or apply it.
    logger.error("instalment payment settled for an instalment already paid or cancelled: kept as credit", {
      paymentId: payment.id,
      instalmentId: locked.id,
      status: locked.status,
    });
    await queueInstalmentEmail(tx, {
      kind: "paid-twice-business",
      businessId: payment.business_id,
      paymentId: payment.id,
    });
  } else {
    const left = await tx
      .selectFrom("schedule_instalments")
      .select((eb) => [
        eb.fn.countAll<number>().filterWhere("status", "not in", ["paid", "cancelled"]).as("unpaid"),
        eb.fn.countAll<number>().filterWhere("status", "=", "failed").as("failed"),
      ])
      .where("schedule_id", "=", locked.scheduleId)
      .executeTakeFirstOrThrow();
    const unpaid = Number(left.unpaid);
    const failed = Number(left.failed);
    await tx
      .updateTable("payment_schedules")
      .set({
        paid_cents: sql`paid_cents + ${locked.amountCents}`,
        ...(unpaid === 0 && (locked.scheduleStatus === "active" || locked.scheduleStatus === "arrears")
          ? { status: "completed", completed_at: at }
          : locked.scheduleStatus === "arrears" && failed === 0
            ? { status: "active" }
            : {}),
      })
      .where("id", "=", locked.scheduleId)
      .execute();
  }
  await queueInstalmentEmail(tx, { kind: "receipt", businessId: payment.business_id, paymentId: payment.id });
}

/**
 * A try did not go through (declined, refused, rejected later by the payer's bank, or the way to
 * pay no longer works). Only the instalment's current try moves it:
 * - the runner's: the next try is booked by the published policy (`nextRetryDay`) and the contact
 *   is emailed with a link to pay another way; after the last, the instalment has failed, the
 *   schedule is in arrears, and the contact and the business are told;
 * - the contact's own: back to what it was (it does not use up the policy), no email — the page
 *   they are on says so;
 * - a cancelled schedule's: cancelled with it.
 */
export async function instalmentFailed(
  tx: Db,
  payment: InstalmentPayment | { id: null; business_id: string; request_guid: string },
  locked: LockedInstalment,
  reason: string,
) {
  const attempt = payment.id
    ? await finishAttempt(tx, payment as InstalmentPayment, "declined", reason)
    : await tx
        .updateTable("instalment_attempts")
        .set({ outcome: "error", failure_code: reason, finished_at: now() })
        .where("business_id", "=", payment.business_id)
        .where("request_guid", "=", payment.request_guid)
        .where("outcome", "in", ["started", "pending"])
        .returning(["id", "trigger", "attempt_no as attemptNo", "instalment_id as instalmentId"])
        .executeTakeFirst();
  if (!attempt || locked.status !== "processing") return { moved: false as const };
  const latest = await tx
    .selectFrom("instalment_attempts")
    .select((eb) => eb.fn.max("attempt_no").as("latest"))
    .where("instalment_id", "=", locked.id)
    .executeTakeFirstOrThrow();
  // A late answer about an older try leaves the current one alone.
  if (Number(latest.latest) !== attempt.attemptNo) return { moved: false as const };
  const instalment = tx.updateTable("schedule_instalments").where("id", "=", locked.id);
  if (locked.scheduleStatus === "cancelled") {
    await instalment.set({ status: "cancelled", next_attempt_on: null, last_failure: reason }).execute();
    return { moved: true as const, status: "cancelled" as const };
  }
  if (attempt.trigger === "contact") {
    const back = locked.attempts >= MAX_ATTEMPTS ? "failed" : "scheduled";
    await instalment.set({ status: back, last_failure: reason }).execute();
    return { moved: true as const, status: back };
  }
  const today = todayIn(locked.timeZone, now());
  const next = nextRetryDay(Math.max(1, locked.attempts), today);
  if (next) {
    await instalment.set({ status: "scheduled", next_attempt_on: next, last_failure: reason }).execute();
    await queueInstalmentEmail(tx, { kind: "declined", businessId: payment.business_id, attemptId: attempt.id });
    return { moved: true as const, status: "scheduled" as const, nextAttemptOn: next };
  }
  await instalment.set({ status: "failed", next_attempt_on: null, last_failure: reason }).execute();
  await tx
    .updateTable("payment_schedules")
    .set({ status: "arrears", arrears_at: now() })
    .where("id", "=", locked.scheduleId)
    .where("status", "=", "active")
    .execute();
  await queueInstalmentEmail(tx, { kind: "arrears-contact", businessId: payment.business_id, attemptId: attempt.id });
  await queueInstalmentEmail(tx, { kind: "arrears-business", businessId: payment.business_id, attemptId: attempt.id });
  return { moved: true as const, status: "failed" as const };
}
