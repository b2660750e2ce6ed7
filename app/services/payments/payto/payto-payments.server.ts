import { audit } from "../../platform/audit.server";
import { getDb } from "../../platform/database.server";
import { logger } from "../../platform/logger.server";
import { failPayment, settleFailedPayToPayment, settlePayment } from "../settle.server";
import { applyAgreementSnapshot } from "./agreements.server";
import { getPayToProvider } from "./index.server";
import { getPayToConfiguration, type PayToConfiguration } from "./settings.server";
import { PayToTimeoutError, type PayToRefusalCode, type ProviderPayment } from "./payto-provider.server";
import { UUID } from "~/lib/ids";

/**
 * Paying invoices by PayTo (decision 027 "A PayTo payment's states"; decision 029). The claim
 * is the card path's (submit.server.ts, claim.server.ts); from there the provider is asked to
 * pull the money under the account's active agreement with our key, and the payment waits as
 * "submitted" until the provider's snapshot (a webhook, the poller, or the receipt page asking)
 * says it settled or was rejected. Settling and failing are the card path's too
 * (settle.server.ts), and the poller's sweep is the reconciler's (reconcile.server.ts), so the
 * arrows run one way: submit and reconcile call in here; of the engine, this calls only settle.
 * Every write is guarded by the payment's status, so snapshots arriving late, twice, or from a
 * webhook and a poll at once settle it exactly once.
 */

export type SnapshotSource = "webhook" | "poll" | "portal";

/** The payment of `businessId` a snapshot is about: by our key (business:requestGuid), else the provider's id. */
async function findPayToPayment(businessId: string, snapshot: ProviderPayment) {
  const db = await getDb();
  const prefix = `${businessId}:`;
  const guid = snapshot.idempotencyKey.startsWith(prefix) ? snapshot.idempotencyKey.slice(prefix.length) : null;
  const byGuid = guid !== null && UUID.test(guid);
  const providerId = typeof snapshot.paymentId === "string" ? snapshot.paymentId.slice(0, 100) : "";
  return db
    .selectFrom("payments")
    .select(["id", "status", "amount_cents", "payto_agreement_id", "provider_payment_id"])
    .where("business_id", "=", businessId)
    .where("method", "=", "payto")
    .where((eb) =>
      byGuid
        ? eb.or([eb("request_guid", "=", guid), eb("provider_payment_id", "=", providerId)])
        : eb("provider_payment_id", "=", providerId),
    )
    .executeTakeFirst();
}

/**
 * Applies the provider's snapshot of a PayTo payment of `businessId`: settles it (balances,
 * statement, receipt email) or releases its reservation, once. "unknown": we never made it
 * (the webhook refuses it); "stale": nothing to change (a repeat, an older state, or one that
 * contradicts a final state we already hold, which is logged).
 */
export async function applyPaymentSnapshot(
  businessId: string,
  snapshot: ProviderPayment,
  source: SnapshotSource,
): Promise<"applied" | "stale" | "unknown"> {
  const payment = await findPayToPayment(businessId, snapshot);
  if (!payment) return "unknown";
  if (snapshot.amountCents !== payment.amount_cents) {
    // Never settle a different amount from the one the customer confirmed.
    logger.error("payto payment snapshot with another amount: ignored", {
      businessId,
      paymentId: payment.id,
      ours: payment.amount_cents,
      theirs: snapshot.amountCents,
    });
    return "stale";
  }
  const db = await getDb();
  switch (snapshot.status) {
    case "CREATED": {
      const updated = await db
        .updateTable("payments")
        .set({ status: "submitted", provider_payment_id: snapshot.paymentId })
        .where("id", "=", payment.id)
        .where("status", "in", ["pending", "unknown"])
        .returning("id")
        .executeTakeFirst();
      return updated ? "applied" : "stale";
    }
    case "SETTLED": {
      const settled = await settlePayment(payment.id, { provider_payment_id: snapshot.paymentId });
      if (!settled) {
        if (payment.status === "failed") return settleAfterFailure(businessId, payment.id, snapshot, source);
        return "stale";
      }
      await audit({ businessId, action: "payment.payto.settled", details: { paymentId: payment.id, source } });
      // The receipt was written with the settlement (decision 044): one, whoever learnt it first.
      return "applied";
    }
    case "FAILED": {
      const reason: PayToRefusalCode = snapshot.failureReason ?? "declined";
      const failed = await failPayment(payment.id, reason);
      if (!failed) {
        if (payment.status === "succeeded") {
          logger.error("payto payment rejected after it settled", { businessId, paymentId: payment.id, source });
        }
        return "stale";
      }
      await db
        .updateTable("payments")
        .set({ provider_payment_id: snapshot.paymentId })
        .where("id", "=", payment.id)
        .execute();
      await audit({ businessId, action: "payment.payto.failed", details: { paymentId: payment.id, reason, source } });
      if (reason === "agreement_not_active" && payment.payto_agreement_id) {
        await refreshAgreement(businessId, payment.payto_agreement_id);
      }
      return "applied";
    }
  }
}

/**
 * The bank paid a payment we had failed (a provider record that appeared after our deadline,
 * or a rejection it took back): the money moved, so it is recorded (decision 029 "Settled
 * after we failed it"). If its invoices can still take it, it settles as usual, receipt and
 * all; otherwise what fits is applied and the rest is kept as account credit, and the business
 * is told (an error in the log and an audit event) to apply or refund it.
 */
async function settleAfterFailure(
  businessId: string,
  paymentId: string,
  snapshot: ProviderPayment,
  source: SnapshotSource,
): Promise<"applied" | "stale"> {
  const late = await settleFailedPayToPayment(paymentId, snapshot.paymentId);
  if (!late) return "stale";
  if (late.kind === "settled") {
    logger.warn("payto payment settled after we failed it: settled after all", { businessId, paymentId, source });
    await audit({
      businessId,
      action: "payment.payto.settled",
      details: { paymentId, source, afterFailure: true },
    });
    return "applied";
  }
  logger.error("payto payment settled after we failed it: kept as account credit", {
    businessId,
    paymentId,
    source,
    creditCents: late.creditCents,
  });
  await audit({
    businessId,
    action: "payment.payto.unapplied",
    details: { paymentId, source, creditCents: late.creditCents, unapplied: late.unapplied },
  });
  return "applied";
}

/**
 * A payment rejected because the agreement is no longer active: the payer cancelled or paused
 * it in their bank, perhaps without a webhook. Ask the provider and apply what it says, so the
 * portal stops offering the agreement.
 */
async function refreshAgreement(businessId: string, agreementId: string) {
  try {
    const db = await getDb();
    const row = await db
      .selectFrom("payto_agreements")
      .select("provider_agreement_id")
      .where("business_id", "=", businessId)
      .where("id", "=", agreementId)
      .executeTakeFirst();
    if (!row?.provider_agreement_id) return;
    const snapshot = await getPayToProvider().getAgreement(row.provider_agreement_id);
    if (snapshot) await applyAgreementSnapshot(businessId, snapshot, "payment");
  } catch (error) {
    // The poller will learn it later; the payment's rejection is already recorded.
    logger.warn("payto agreement refresh after a rejection failed", { businessId, agreementId, error });
  }
}

export type InitiateInput = {
  paymentId: string;
  businessId: string;
  providerAgreementId: string;
  amountCents: number;
  currency: string;
  /** business:requestGuid: a repeat at the provider returns the first payment. */
  idempotencyKey: string;
  reference: string;
};

/**
 * Asks the provider to pull a claimed payment. Accepted → submitted (or settled/failed at
 * once, if the provider already knows); refused → failed with the reason; no answer → unknown,
 * then asked again by our key.
 */
export async function initiatePayToPayment(input: InitiateInput) {
  const db = await getDb();
  try {
    const result = await getPayToProvider().initiatePayment({
      agreementId: input.providerAgreementId,
      amountCents: input.amountCents,
      currency: input.currency,
      idempotencyKey: input.idempotencyKey,
      description: input.reference,
    });
    if (!result.ok) {
      await failPayment(input.paymentId, result.refusal);
      if (result.refusal === "agreement_not_active") {
        const row = await db
          .selectFrom("payments")
          .select("payto_agreement_id")
          .where("id", "=", input.paymentId)
          .executeTakeFirst();
        if (row?.payto_agreement_id) await refreshAgreement(input.businessId, row.payto_agreement_id);
      }
      return;
    }
    await applyPaymentSnapshot(input.businessId, result.value, "portal");
  } catch (error) {
    if (!(error instanceof PayToTimeoutError)) {
      logger.error("payto payment initiation failed", { error, paymentId: input.paymentId });
    }
    // Did the provider take it? Only our key can tell: unknown until it answers.
    await db
      .updateTable("payments")
      .set({ status: "unknown" })
      .where("id", "=", input.paymentId)
      .where("status", "=", "pending")
      .execute();
    const payment = await db
      .selectFrom("payments")
      .select(["id", "business_id", "request_guid", "status", "created_at"])
      .where("id", "=", input.paymentId)
      .executeTakeFirstOrThrow();
    await reconcilePayToPayment(payment, 120_000);
  }
}

/**
 * How long a submitted payment may have no record at the provider before it is failed as
 * "unavailable" and its invoices are freed. A provider's lookup by our key is normally
 * immediate; ten minutes covers a lagging read replica or a short outage.
 */
export const SUBMITTED_WITHOUT_RECORD_MS = 10 * 60_000;

/**
 * The reconciler's step for one PayTo payment: the provider's record by our key, applied. A
 * submitted payment is never failed for want of news while the provider has it (it waits for
 * settlement); one the provider has no record of is failed after SUBMITTED_WITHOUT_RECORD_MS;
 * one it never received is failed only after `graceMs` (a request may still be on its way).
 */
export async function reconcilePayToPayment(
  payment: { id: string; business_id: string; request_guid: string; status: string; created_at: Date | string },
  graceMs: number,
): Promise<string> {
  if (payment.status !== "pending" && payment.status !== "unknown" && payment.status !== "submitted") {
    return payment.status;
  }
  let snapshot: ProviderPayment | null;
  try {
    snapshot = await getPayToProvider().getPayment(`${payment.business_id}:${payment.request_guid}`);
  } catch (error) {
    logger.warn("reconcile: payto provider lookup failed", { paymentId: payment.id, error });
    return payment.status;
  }
  const db = await getDb();
  if (snapshot) {
    await applyPaymentSnapshot(payment.business_id, snapshot, "poll");
  } else if (payment.status === "submitted") {
    // The provider accepted it, yet has no record: after a while the reservation is released
    // rather than held for ever (a record that turns up later is still settled: settleAfterFailure).
    // eslint-disable-next-line no-restricted-syntax -- its age is compared with created_at, which the database stamps with its own (real) now()
    const missingFor = Date.now() - new Date(payment.created_at).getTime();
    if (missingFor > SUBMITTED_WITHOUT_RECORD_MS && (await failPayment(payment.id, "unavailable"))) {
      logger.error("reconcile: the payto provider has no record of a submitted payment: failed", {
        paymentId: payment.id,
      });
      await audit({
        businessId: payment.business_id,
        action: "payment.payto.failed",
        details: { paymentId: payment.id, reason: "unavailable", source: "poll", noProviderRecord: true },
      });
    } else {
      logger.error("reconcile: the payto provider has no record of a submitted payment", { paymentId: payment.id });
    }
    // eslint-disable-next-line no-restricted-syntax -- its age is compared with created_at, which the database stamps with its own (real) now()
  } else if (Date.now() - new Date(payment.created_at).getTime() > graceMs) {
    await failPayment(payment.id, "unavailable");
  }
  const latest = await db.selectFrom("payments").select("status").where("id", "=", payment.id).executeTakeFirst();
  return latest?.status ?? payment.status;
}

/**
 * Which of these invoice ids are this account's (in any status): the API answers 404 for one
 * that is not (another account's or business's), and "not payable" for one that is but is
 * paid, closed or held.
 */
export async function invoicesOfAccount(actor: { businessId: string; accountId: string }, ids: string[]) {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return new Set<string>();
  const db = await getDb();
  const rows = await db
    .selectFrom("invoices")
    .select("id")
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("id", "in", valid)
    .execute();
  return new Set(rows.map((row) => row.id));
}

export type PayToChoice = {
  id: string;
  status: "CREATED" | "ACTIVE" | "SUSPENDED";
  /** The payer's PayID, or null when the agreement names a BSB and account. */
  payId: string | null;
  bsb: string | null;
  accountLast3: string | null;
  /** The most one payment under it may take now: the agreement's limit or the business's, whichever is less. */
  maxCents: number;
};

/**
 * What the pay page offers by PayTo: whether the business offers it, and the account's live
 * agreements (active ones can pay; pending and paused ones are only listed). Ended ones are
 * not shown here.
 */
export async function payToChoices(
  actor: { businessId: string; accountId: string },
  /** The business's configuration when the caller has it already (with the host): one query fewer. */
  known?: PayToConfiguration,
) {
  const config = known ?? (await getPayToConfiguration(actor.businessId));
  if (!config.enabled) return { enabled: false, providerName: config.providerName, agreements: [] as PayToChoice[] };
  const db = await getDb();
  const rows = await db
    .selectFrom("payto_agreements")
    .select(["id", "status", "alias_value", "bsb", "account_number", "max_amount_cents"])
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("status", "in", ["CREATED", "ACTIVE", "SUSPENDED"])
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(20)
    .execute();
  return {
    enabled: true,
    providerName: config.providerName,
    agreements: rows.map((row): PayToChoice => ({
      id: row.id,
      status: row.status as PayToChoice["status"],
      payId: row.alias_value,
      bsb: row.bsb,
      accountLast3: row.account_number ? row.account_number.slice(-3) : null,
      maxCents: Math.min(Number(row.max_amount_cents), config.maxPaymentCents),
    })),
  };
}
