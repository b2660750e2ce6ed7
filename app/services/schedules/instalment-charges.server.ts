import { ordinal } from "~/lib/format";
import { randomUUID } from "node:crypto";
import { todayIn } from "~/lib/dates";
import { audit } from "../platform/audit.server";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { findBusinessBranding, publicLink } from "../host/host.server";
import type { NewCard, PayMethod } from "../payments/payment-records.server";
import { reconcilePayment } from "../payments/reconcile.server";
import { submitPayment } from "../payments/submit.server";
import { getPayToProvider } from "../payments/payto/index.server";
import { applyPaymentSnapshot } from "../payments/payto/payto-payments.server";
import { instalmentFailed, lockInstalmentForSettlement } from "./instalment-outcomes.server";
import { mayActFor } from "./queries.server";
import { UUID } from "~/lib/ids";

/**
 * Charging one instalment, exactly once (decision 035) — for the runner on the instalment's day
 * and for the contact paying it early or another way. The attempt protocol:
 *
 * 1. Claim, in one transaction under the schedule's and the instalment's locks: the instalment
 *    goes to `processing` (from `scheduled`, or `failed` for the contact) and an
 *    `instalment_attempts` row records the try's requestGuid — before any money moves.
 * 2. Charge through the payment engine with that guid (the gateway's and the PayTo provider's
 *    idempotency key). The engine moves the instalment and the schedule in the transaction that
 *    settles or fails the payment (instalment-outcomes.server.ts), with its emails as outbox jobs.
 * 3. A try left unresolved (the process died after the claim or after the charge) is finished
 *    with the SAME guid, never a new one: a payment row is settled from the gateway's record by our
 *    key (`reconcilePayment`); no payment row means no money moved, and the runner's try is charged
 *    again under its guid (the engine and the gateway answer a repeat once).
 *
 * Receipts and the decline and arrears emails are sent by the outbox jobs: callers send none.
 */

export type InstalmentPayMethod =
  | { kind: "saved-card"; cardId: string }
  | { kind: "payto"; agreementId: string }
  | { kind: "new-card"; card: NewCard }
  /** A new card the confirm step holds (decision 071): a new card's try, paid with the held token. */
  | { kind: "held-card"; heldCardId: string; holderHash: string };

export type PayInstalmentInput = {
  businessId: string;
  instalmentId: string;
  trigger: "runner" | "contact";
  /** contact: who pays (required); runner: the contact who accepted the schedule. */
  actor?: { contactId: string; clientIp: string };
  /** Default: the schedule's way to pay. */
  method?: InstalmentPayMethod;
  /** contact: the form's (a repeat answers the first try); runner: chosen here per try. */
  requestGuid?: string;
  /** The emailed link the contact pays from (decision 031). */
  linkTokenId?: string;
  /** contact: the total the page showed; a different one now is refused (`invalid`, "amount"). */
  expectedAmountCents?: number;
};

export type NotPayableReason = "paid" | "processing" | "cancelled" | "scheduleClosed" | "notDue" | "failed";

export type InstalmentPayOutcome =
  | { kind: "paid"; paymentId: string; reference: string }
  /** The try did not go through; `status` is the instalment's now, `nextAttemptOn` the runner's next try. */
  | {
      kind: "declined";
      paymentId: string | null;
      reference: string | null;
      refusal: string;
      status: string;
      nextAttemptOn: string | null;
    }
  /** PayTo: the provider took it; it settles (or is rejected) later. */
  | { kind: "submitted"; paymentId: string; reference: string }
  /** The charge's outcome is not known yet (the gateway did not answer): reconciled by our key. */
  | { kind: "pending"; paymentId: string; reference: string }
  | { kind: "notPayable"; why: NotPayableReason }
  | { kind: "invalid"; problem: string };

/** The address recorded for the runner's own charges (the portal itself). */
export const RUNNER_CLIENT_IP = "127.0.0.1";
/**
 * An attempt with no payment row this long after it started was abandoned between the claim and
 * the engine's own claim (no money moved): it may be charged again under its guid (runner) or
 * released (contact). Younger ones may still be on their way.
 */
export const ABANDONED_AFTER_MS = 2 * 60_000;

type Found = {
  id: string;
  scheduleId: string;
  seq: number;
  count: number;
  accountId: string;
  scheduleReference: string;
  currency: string;
  acceptedBy: string | null;
  contactId: string;
  cardId: string | null;
  payToAgreementId: string | null;
  timeZone: string;
};

async function findInstalment(db: Db, businessId: string, instalmentId: string): Promise<Found | null> {
  const row = await db
    .selectFrom("schedule_instalments as si")
    .innerJoin("payment_schedules as ps", "ps.id", "si.schedule_id")
    .innerJoin("businesses as b", "b.id", "si.business_id")
    .select((eb) => [
      "si.id",
      "si.schedule_id as scheduleId",
      "si.seq",
      "ps.account_id as accountId",
      "ps.reference as scheduleReference",
      "ps.currency",
      "ps.accepted_by as acceptedBy",
      "ps.contact_id as contactId",
      "ps.card_id as cardId",
      "ps.payto_agreement_id as payToAgreementId",
      "b.time_zone as timeZone",
      eb
        .selectFrom("schedule_instalments as all")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .whereRef("all.schedule_id", "=", "si.schedule_id")
        .as("count"),
    ])
    .where("si.business_id", "=", businessId)
    .where("si.id", "=", instalmentId)
    .executeTakeFirst();
  return row ? { ...row, count: Number(row.count) } : null;
}

type Attempt = {
  id: string;
  instalment_id: string;
  attempt_no: number;
  trigger: "runner" | "contact";
  request_guid: string;
  outcome: string;
  failure_code: string | null;
  started_at: Date;
  way: "saved-card" | "payto" | "new-card" | null;
  card_id: string | null;
  payto_agreement_id: string | null;
};

const attemptColumns = [
  "id",
  "instalment_id",
  "attempt_no",
  "trigger",
  "request_guid",
  "outcome",
  "failure_code",
  "started_at",
  "way",
  "card_id",
  "payto_agreement_id",
] as const;

/** What an instalment's latest try came to, read back (a repeat of the contact's submission, a finished recovery). */
async function outcomeOfAttempt(db: Db, businessId: string, attempt: Attempt): Promise<InstalmentPayOutcome> {
  const payment = await db
    .selectFrom("payments")
    .select(["id", "reference", "status", "failure_code"])
    .where("business_id", "=", businessId)
    .where("request_guid", "=", attempt.request_guid)
    .executeTakeFirst();
  const instalment = await db
    .selectFrom("schedule_instalments")
    .select(["status", "next_attempt_on as nextAttemptOn"])
    .where("id", "=", attempt.instalment_id)
    .executeTakeFirstOrThrow();
  if (payment?.status === "succeeded") return { kind: "paid", paymentId: payment.id, reference: payment.reference };
  if (payment?.status === "submitted")
    return { kind: "submitted", paymentId: payment.id, reference: payment.reference };
  if (payment && (payment.status === "pending" || payment.status === "unknown"))
    return { kind: "pending", paymentId: payment.id, reference: payment.reference };
  if (attempt.outcome === "started" || attempt.outcome === "pending") return { kind: "notPayable", why: "processing" };
  return {
    kind: "declined",
    paymentId: payment?.id ?? null,
    reference: payment?.reference ?? null,
    refusal: payment?.failure_code ?? attempt.failure_code ?? "declined",
    status: instalment.status,
    nextAttemptOn: instalment.nextAttemptOn,
  };
}

/** A try that could not even be made (no way to pay, refused by the engine): it counts as a failed try. */
async function recordFailedTry(
  db: Db,
  businessId: string,
  attempt: { request_guid: string; instalment_id: string },
  reason: string,
) {
  await db.transaction().execute(async (tx) => {
    const locked = await lockInstalmentForSettlement(tx, businessId, attempt.instalment_id);
    if (locked)
      await instalmentFailed(
        tx,
        { id: null, business_id: businessId, request_guid: attempt.request_guid },
        locked,
        reason,
      );
  });
}

async function setAttemptPending(db: Db, businessId: string, requestGuid: string) {
  await db
    .updateTable("instalment_attempts")
    .set({ outcome: "pending" })
    .where("business_id", "=", businessId)
    .where("request_guid", "=", requestGuid)
    .where("outcome", "=", "started")
    .execute();
}

/**
 * The engine's way to pay for this try: the one it was claimed with (a card or agreement removed
 * since: none, and the try fails as "method"); a contact's new card as posted; an attempt from
 * before the claim recorded its way (migration 0013): the schedule's.
 */
function payMethodOf(found: Found, attempt: Attempt, posted: InstalmentPayMethod | undefined): PayMethod | null {
  if (posted?.kind === "new-card" && attempt.way === "new-card") return { kind: "new-card", card: posted.card };
  if (posted?.kind === "held-card" && attempt.way === "new-card") return posted;
  if (attempt.way === "new-card") return null;
  if (attempt.way === "saved-card") return attempt.card_id ? { kind: "saved-card", cardId: attempt.card_id } : null;
  if (attempt.way === "payto")
    return attempt.payto_agreement_id ? { kind: "payto", agreementId: attempt.payto_agreement_id } : null;
  if (found.cardId) return { kind: "saved-card", cardId: found.cardId };
  if (found.payToAgreementId) return { kind: "payto", agreementId: found.payToAgreementId };
  return null;
}

/** The way a new try is claimed with: the one asked for, else the schedule's as it stands under the claim's lock. */
function wayOfClaim(
  posted: InstalmentPayMethod | undefined,
  schedule: { card_id: string | null; payto_agreement_id: string | null },
) {
  // A held card is a new card tokenised a step earlier: the try is a new card's.
  if (posted?.kind === "new-card" || posted?.kind === "held-card")
    return { way: "new-card" as const, card_id: null, payto_agreement_id: null };
  if (posted?.kind === "saved-card")
    return { way: "saved-card" as const, card_id: posted.cardId, payto_agreement_id: null };
  if (posted?.kind === "payto") return { way: "payto" as const, card_id: null, payto_agreement_id: posted.agreementId };
  if (schedule.card_id) return { way: "saved-card" as const, card_id: schedule.card_id, payto_agreement_id: null };
  if (schedule.payto_agreement_id)
    return { way: "payto" as const, card_id: null, payto_agreement_id: schedule.payto_agreement_id };
  return { way: null, card_id: null, payto_agreement_id: null };
}

/** Step 2: the charge under the claimed attempt's guid, and what it came to. */
async function charge(
  db: Db,
  input: PayInstalmentInput,
  found: Found,
  attempt: Attempt,
  payer: { contactId: string; clientIp: string },
): Promise<InstalmentPayOutcome> {
  const method = payMethodOf(found, attempt, attempt.trigger === "contact" ? input.method : undefined);
  if (!method) {
    await recordFailedTry(db, input.businessId, attempt, "method");
    return outcomeOfAttempt(db, input.businessId, { ...attempt, outcome: "error", failure_code: "method" });
  }
  const branding = await findBusinessBranding(db, input.businessId);
  const outcome = await submitPayment(
    { businessId: input.businessId, accountId: found.accountId, contactId: payer.contactId, clientIp: payer.clientIp },
    {
      requestGuid: attempt.request_guid,
      selection: [],
      paymentFor: { kind: "instalment", instalmentId: found.id },
      linkTokenId: input.linkTokenId,
      method,
      expectedAmountCents: attempt.trigger === "contact" ? input.expectedAmountCents : undefined,
      note: `${ordinal(found.seq)} of ${found.count} instalments, ${found.scheduleReference}`,
      currency: found.currency,
      today: todayIn(found.timeZone, now()),
    },
    {
      origin: branding ? publicLink(branding, "/").replace(/\/$/, "") : "",
      clientIp: payer.clientIp,
      extraData: { schedule: found.scheduleReference, instalment: String(found.seq) },
    },
  );
  switch (outcome.kind) {
    case "succeeded":
    case "declined":
      // The engine moved the instalment with the payment; read back where it stands.
      break;
    case "submitted":
    case "pending":
      await setAttemptPending(db, input.businessId, attempt.request_guid);
      break;
    case "conflict":
    case "invalid":
    case "promised": {
      // A repeat refused by the engine (another request under this key, or its first request's
      // row): a payment with this key exists, and its outcome is the try's — never a failed try
      // beside a charge that may have happened.
      const existing = await db
        .selectFrom("payments")
        .select("status")
        .where("business_id", "=", input.businessId)
        .where("request_guid", "=", attempt.request_guid)
        .executeTakeFirst();
      if (existing) {
        logger.warn("instalment try refused by the engine beside a payment under its key: that payment is the try's", {
          businessId: input.businessId,
          instalmentId: found.id,
          attemptId: attempt.id,
          refusal: outcome.kind,
        });
        if (["pending", "unknown", "submitted"].includes(existing.status))
          await setAttemptPending(db, input.businessId, attempt.request_guid);
        break;
      }
      const problem = outcome.kind === "invalid" ? outcome.problem : outcome.kind;
      await recordFailedTry(db, input.businessId, attempt, problem);
      if (attempt.trigger === "contact") return { kind: "invalid", problem };
      break;
    }
  }
  const latest = await db
    .selectFrom("instalment_attempts")
    .select(attemptColumns)
    .where("id", "=", attempt.id)
    .executeTakeFirstOrThrow();
  return outcomeOfAttempt(db, input.businessId, latest as Attempt);
}

/**
 * Step 3: finishes a try left unresolved. With a payment row, from the engine's record (pending or
 * unknown ones reconciled with the gateway by our key now). Without one, no money moved: the
 * runner's try is charged again under the same guid once it is clearly abandoned; a contact's is
 * released (their card number is long gone).
 */
export async function resolveAttempt(
  db: Db,
  input: PayInstalmentInput,
  found: Found,
  attempt: Attempt,
): Promise<InstalmentPayOutcome> {
  const payment = await db
    .selectFrom("payments")
    .select(["id", "status", "created_by"])
    .where("business_id", "=", input.businessId)
    .where("request_guid", "=", attempt.request_guid)
    .executeTakeFirst();
  if (payment) {
    if (payment.status === "pending" || payment.status === "unknown") await reconcilePayment(payment.id);
    return outcomeOfAttempt(db, input.businessId, attempt);
  }
  const age = now().getTime() - new Date(attempt.started_at).getTime();
  if (age < ABANDONED_AFTER_MS) return { kind: "notPayable", why: "processing" };
  if (attempt.trigger === "runner") {
    logger.warn("instalment try left unresolved with no payment: charged again under its key", {
      businessId: input.businessId,
      instalmentId: attempt.instalment_id,
      attemptId: attempt.id,
    });
    const payer = found.acceptedBy ?? found.contactId;
    return charge(db, input, found, attempt, { contactId: payer, clientIp: RUNNER_CLIENT_IP });
  }
  await recordFailedTry(db, input.businessId, attempt, "abandoned");
  return outcomeOfAttempt(db, input.businessId, { ...attempt, outcome: "error", failure_code: "abandoned" });
}

/** The instalment a contact's earlier submission with this requestGuid was for, if there was one. */
export async function instalmentOfSubmission(businessId: string, requestGuid: string): Promise<string | null> {
  if (!UUID.test(businessId) || !UUID.test(requestGuid)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("instalment_attempts")
    .select("instalment_id")
    .where("business_id", "=", businessId)
    .where("request_guid", "=", requestGuid.toLowerCase())
    .where("trigger", "=", "contact")
    .executeTakeFirst();
  return row?.instalment_id ?? null;
}

/**
 * Is an earlier PayTo pull of this instalment perhaps still on its way? A PayTo try we failed for
 * want of news ("unavailable": the provider did not answer, or had no record of it yet) is not
 * final: the payer's bank may still pay it. Before a new try could pull the money a second time,
 * the provider is asked about each such payment by our key: settled → recorded now (the
 * instalment is paid, and the new try is not made); still in progress, or no answer → no new
 * try yet (the runner's next sweep asks again); failed or never received → the new try goes ahead.
 * A bank that pays one later all the same is recorded as account credit and the business told
 * (instalmentSettled).
 */
async function earlierPullInFlight(db: Db, businessId: string, instalmentId: string): Promise<boolean> {
  const doubtful = await db
    .selectFrom("instalment_attempts as a")
    .innerJoin("payments as p", "p.id", "a.payment_id")
    .select(["p.id", "p.request_guid as requestGuid"])
    .where("a.business_id", "=", businessId)
    .where("a.instalment_id", "=", instalmentId)
    .where("p.method", "=", "payto")
    .where("p.status", "=", "failed")
    .where("p.failure_code", "=", "unavailable")
    .execute();
  for (const payment of doubtful) {
    let snapshot;
    try {
      snapshot = await getPayToProvider().getPayment(`${businessId}:${payment.requestGuid}`);
    } catch (error) {
      logger.warn("instalment: the payto provider could not say whether an earlier pull is on its way", {
        businessId,
        instalmentId,
        paymentId: payment.id,
        error,
      });
      return true;
    }
    if (!snapshot) continue;
    if (snapshot.status === "CREATED") return true;
    if (snapshot.status === "SETTLED") {
      await applyPaymentSnapshot(businessId, snapshot, "poll");
      continue;
    }
    // Final at the provider: keep its reason, so the next try does not ask again.
    await db
      .updateTable("payments")
      .set({ failure_code: snapshot.failureReason ?? "declined" })
      .where("id", "=", payment.id)
      .where("status", "=", "failed")
      .where("failure_code", "=", "unavailable")
      .execute();
  }
  return false;
}

/**
 * Charges one instalment (see the protocol above). The runner calls it for a due instalment (it
 * must be `scheduled` with its try day come in the business's time zone); a contact for any
 * instalment still to pay (`scheduled` or `failed`), with their own requestGuid. Another
 * business's or account's instalment is `invalid`.
 */
export async function payInstalment(input: PayInstalmentInput): Promise<InstalmentPayOutcome> {
  if (!UUID.test(input.businessId) || !UUID.test(input.instalmentId)) return { kind: "invalid", problem: "instalment" };
  if (input.trigger !== "runner" && input.trigger !== "contact") return { kind: "invalid", problem: "request" };
  if (input.trigger === "contact" && (!input.actor || !input.requestGuid))
    return { kind: "invalid", problem: "request" };
  if (input.requestGuid !== undefined && !UUID.test(input.requestGuid)) return { kind: "invalid", problem: "request" };
  if (input.linkTokenId !== undefined && !UUID.test(input.linkTokenId)) return { kind: "invalid", problem: "request" };
  const db = await getDb();
  const found = await findInstalment(db, input.businessId, input.instalmentId);
  if (!found) return { kind: "invalid", problem: "instalment" };
  const payer =
    input.trigger === "contact"
      ? input.actor!
      : { contactId: input.actor?.contactId ?? found.acceptedBy ?? found.contactId, clientIp: RUNNER_CLIENT_IP };
  if (input.trigger === "contact" && !(await mayActFor(db, input.businessId, payer.contactId, found.accountId)))
    return { kind: "invalid", problem: "instalment" };
  const requestGuid = (input.requestGuid ?? randomUUID()).toLowerCase();

  // A contact's repeat of a submission (double click, reload): the first try's answer.
  if (input.trigger === "contact") {
    const seen = await db
      .selectFrom("instalment_attempts")
      .select(attemptColumns)
      .where("business_id", "=", input.businessId)
      .where("request_guid", "=", requestGuid)
      .executeTakeFirst();
    if (seen) {
      if (seen.instalment_id !== found.id) return { kind: "invalid", problem: "request" };
      if (seen.outcome === "started") return charge(db, input, found, seen as Attempt, payer);
      return outcomeOfAttempt(db, input.businessId, seen as Attempt);
    }
  }

  // Never a new guid while an older try is unresolved: finish that one first.
  const open = await db
    .selectFrom("instalment_attempts")
    .select(attemptColumns)
    .where("instalment_id", "=", found.id)
    .where("outcome", "in", ["started", "pending"])
    .orderBy("attempt_no", "desc")
    .executeTakeFirst();
  if (open) {
    const resolved = await resolveAttempt(db, input, found, open as Attempt);
    if (input.trigger === "runner") return resolved;
    if (resolved.kind !== "declined")
      return resolved.kind === "paid" ? { kind: "notPayable", why: "paid" } : { kind: "notPayable", why: "processing" };
  }

  if (await earlierPullInFlight(db, input.businessId, found.id)) return { kind: "notPayable", why: "processing" };

  // Step 1: the claim.
  const today = todayIn(found.timeZone, now());
  const claim = await db.transaction().execute(async (tx): Promise<Attempt | NotPayableReason> => {
    const schedule = await tx
      .selectFrom("payment_schedules")
      .select(["status", "card_id", "payto_agreement_id"])
      .where("business_id", "=", input.businessId)
      .where("id", "=", found.scheduleId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const instalment = await tx
      .selectFrom("schedule_instalments")
      .select(["status", "next_attempt_on as nextAttemptOn"])
      .where("id", "=", found.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (instalment.status === "paid") return "paid";
    if (instalment.status === "processing") return "processing";
    if (instalment.status === "cancelled") return "cancelled";
    if (schedule.status !== "active" && schedule.status !== "arrears") return "scheduleClosed";
    if (input.trigger === "runner") {
      if (instalment.status === "failed") return "failed";
      if (!instalment.nextAttemptOn || instalment.nextAttemptOn > today) return "notDue";
    }
    const latest = await tx
      .selectFrom("instalment_attempts")
      .select((eb) => eb.fn.max("attempt_no").as("n"))
      .where("instalment_id", "=", found.id)
      .executeTakeFirstOrThrow();
    await tx
      .updateTable("schedule_instalments")
      .set((eb) => ({
        status: "processing",
        // The runner's tries are the policy's count; a contact's own try does not use it up.
        attempts: input.trigger === "runner" ? eb("attempts", "+", 1) : eb.ref("attempts"),
      }))
      .where("id", "=", found.id)
      .execute();
    const attempt = await tx
      .insertInto("instalment_attempts")
      .values({
        business_id: input.businessId,
        instalment_id: found.id,
        attempt_no: Number(latest.n ?? 0) + 1,
        trigger: input.trigger,
        request_guid: requestGuid,
        started_at: now(),
        // The way this try is charged, now and if it is finished after a crash.
        ...wayOfClaim(input.trigger === "contact" ? input.method : undefined, schedule),
      })
      .returning(attemptColumns)
      .executeTakeFirstOrThrow();
    return attempt as Attempt;
  });
  if (typeof claim === "string") return { kind: "notPayable", why: claim };

  // Step 2: the charge, under the guid now on record.
  const result = await charge(db, input, found, claim, payer);
  await audit({
    businessId: input.businessId,
    contactId: payer.contactId,
    clientIp: payer.clientIp,
    action: `instalment.${result.kind}`,
    details: { instalmentId: found.id, schedule: found.scheduleReference, seq: found.seq, trigger: input.trigger },
  });
  return result;
}
