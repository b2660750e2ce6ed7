import { createHash } from "node:crypto";
import { decideSnapshot, type AgreementStatus } from "~/lib/payto-states";
import { getDb } from "../../platform/database.server";
import type { Db } from "../../platform/db.server";
import { logger } from "../../platform/logger.server";
import { getPayToProvider } from "./index.server";
import {
  PayToTimeoutError,
  type PayToDebtor,
  type PayToRefusal,
  type ProviderAgreement,
} from "./payto-provider.server";
import { getPayToConfiguration } from "./settings.server";
import { isUuid } from "~/lib/ids";

/**
 * PayTo agreements as a payment method (issue 13; decision 027): created through the provider,
 * exactly once per requestGuid; kept in step with the provider by its snapshots, whichever way
 * they arrive (the portal's own answer, a webhook, the poller, a payment's rejection); listed,
 * shown and cancelled for the account that made them, and nobody else.
 */
export type SnapshotSource = "portal" | "webhook" | "poll" | "payment";

export type AgreementActor = { businessId: string; accountId: string; contactId: string };

/** What the pages and the token call show of an agreement: never the whole account number. */
export type AgreementView = {
  id: string;
  requestGuid: string;
  accountId: string;
  status: AgreementStatus;
  statusReason: string | null;
  providerAgreementId: string | null;
  method: "payid" | "bban";
  payIdType: "EMAL" | "TELI" | "AUBN" | "ORGN" | null;
  payId: string | null;
  bsb: string | null;
  accountNumberLast3: string | null;
  partyName: string;
  ultimatePartyName: string;
  maxAmountCents: number;
  frequency: "ADHOC";
  createdAt: string;
  updatedAt: string;
};

export type AgreementEventView = {
  fromStatus: AgreementStatus | null;
  toStatus: AgreementStatus;
  version: number;
  source: SnapshotSource;
  reason: string | null;
  at: string;
};

export type NewAgreement = { requestGuid: string; debtor: PayToDebtor };

export type CreateOutcome =
  { ok: true; agreement: AgreementView; repeat: boolean } | { ok: false; reason: "disabled" | "conflict" };

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;

/** How long a repeat of a requestGuid waits for the first request's answer before it answers what there is. */
const REPEAT_WAIT_MS = 5_000;
/** A creation that timed out and that the provider still does not know after this is failed. */
const LOST_CREATION_MS = 10 * 60_000;
const POLL_BATCH = 50;

const providerKey = (businessId: string, requestGuid: string) => `${businessId}:${requestGuid.toLowerCase()}`;

/** What makes two requests with one requestGuid the same request: the account and the debtor. */
function requestHash(accountId: string, request: NewAgreement) {
  const { debtor } = request;
  const identification =
    debtor.kind === "bban"
      ? { kind: "bban", bsb: debtor.bsb, accountNumber: debtor.accountNumber }
      : { kind: "alias", aliasType: debtor.aliasType, aliasValue: debtor.aliasValue };
  return createHash("sha256")
    .update(
      JSON.stringify({
        accountId,
        partyName: debtor.partyName,
        ultimatePartyName: debtor.ultimatePartyName,
        identification,
      }),
    )
    .digest("hex");
}

function baseQuery(db: Db) {
  return db
    .selectFrom("payto_agreements")
    .select([
      "id",
      "business_id",
      "account_id",
      "request_guid",
      "request_hash",
      "status",
      "status_reason",
      "provider_agreement_id",
      "provider_version",
      "party_name",
      "ultimate_party_name",
      "bsb",
      "account_number",
      "alias_type",
      "alias_value",
      "max_amount_cents",
      "frequency",
      "created_at",
      "updated_at",
    ]);
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toView(row: Row): AgreementView {
  return {
    id: row.id,
    requestGuid: row.request_guid,
    accountId: row.account_id,
    status: row.status,
    statusReason: row.status_reason,
    providerAgreementId: row.provider_agreement_id,
    method: row.alias_type ? "payid" : "bban",
    payIdType: row.alias_type,
    payId: row.alias_value,
    bsb: row.bsb,
    accountNumberLast3: row.account_number ? row.account_number.slice(-3) : null,
    partyName: row.party_name,
    ultimatePartyName: row.ultimate_party_name,
    maxAmountCents: Number(row.max_amount_cents),
    frequency: row.frequency,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * Creates an agreement for the actor's account (the spec's token request), exactly once per
 * requestGuid: the guid is claimed by inserting the row first, so concurrent repeats find it
 * taken and answer the first request's result; the same guid with other content is a conflict.
 * Only when the business offers PayTo; the limit is the business's most per payment.
 */
export async function createAgreement(
  actor: AgreementActor,
  request: NewAgreement,
  context: { hostname: string },
): Promise<CreateOutcome> {
  const configuration = await getPayToConfiguration(actor.businessId);
  if (!configuration.enabled) return { ok: false, reason: "disabled" };
  const db = await getDb();
  const requestGuid = request.requestGuid.toLowerCase();
  const hash = requestHash(actor.accountId, request);
  const { debtor } = request;

  const claimed = await db
    .insertInto("payto_agreements")
    .values({
      business_id: actor.businessId,
      account_id: actor.accountId,
      request_guid: requestGuid,
      request_hash: hash,
      // Until the provider answers: "asked for", which is what CREATED means to the payer.
      status: "CREATED",
      party_name: debtor.partyName,
      ultimate_party_name: debtor.ultimatePartyName,
      bsb: debtor.kind === "bban" ? debtor.bsb : null,
      account_number: debtor.kind === "bban" ? debtor.accountNumber : null,
      alias_type: debtor.kind === "alias" ? debtor.aliasType : null,
      alias_value: debtor.kind === "alias" ? debtor.aliasValue : null,
      max_amount_cents: configuration.maxPaymentCents,
      created_by: actor.contactId,
    })
    .onConflict((oc) => oc.columns(["business_id", "request_guid"]).doNothing())
    .returning("id")
    .executeTakeFirst();

  if (!claimed) return answerRepeat(actor, requestGuid, hash);

  const account = await db
    .selectFrom("accounts")
    .innerJoin("businesses", "businesses.id", "accounts.business_id")
    .select(["accounts.number", "businesses.name"])
    .where("accounts.id", "=", actor.accountId)
    .executeTakeFirstOrThrow();

  try {
    const answer = await getPayToProvider().createAgreement({
      idempotencyKey: providerKey(actor.businessId, requestGuid),
      merchant: actor.businessId,
      hostname: context.hostname,
      debtor,
      maxAmountCents: configuration.maxPaymentCents,
      description: `${account.name} — account ${account.number}`,
    });
    if (answer.ok) await attachSnapshot(actor.businessId, claimed.id, answer.value, "portal");
    else await failCreation(actor.businessId, claimed.id, answer.refusal);
  } catch (error) {
    // The provider may or may not have created it: the poller asks by our key (findAgreement).
    if (error instanceof PayToTimeoutError) {
      logger.warn("payto agreement creation timed out: left for the poller", { agreementId: claimed.id });
    } else {
      logger.error("payto agreement creation failed: left for the poller", { agreementId: claimed.id, error });
    }
  }
  const row = await baseQuery(db).where("id", "=", claimed.id).executeTakeFirstOrThrow();
  return { ok: true, agreement: toView(row), repeat: false };
}

async function answerRepeat(actor: AgreementActor, requestGuid: string, hash: string): Promise<CreateOutcome> {
  const db = await getDb();
  // eslint-disable-next-line no-restricted-syntax -- a timeout: how long to wait for a repeat, measured on the real clock (a duration is not a date)
  const deadline = Date.now() + REPEAT_WAIT_MS;
  for (;;) {
    const row = await baseQuery(db)
      .where("business_id", "=", actor.businessId)
      .where("request_guid", "=", requestGuid)
      .executeTakeFirstOrThrow();
    if (row.account_id !== actor.accountId || row.request_hash !== hash) return { ok: false, reason: "conflict" };
    // The first request is still waiting for the provider: its answer is the one to give.
    const settled = row.provider_agreement_id !== null || row.status === "FAILED";
    // eslint-disable-next-line no-restricted-syntax -- a timeout: how long to wait for a repeat, measured on the real clock (a duration is not a date)
    if (settled || Date.now() >= deadline) return { ok: true, agreement: toView(row), repeat: true };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The provider refused to create it: FAILED, with the reason, as the table's (none) → FAILED. */
async function failCreation(businessId: string, id: string, refusal: PayToRefusal) {
  const db = await getDb();
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom("payto_agreements")
      .select(["status", "provider_agreement_id"])
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.provider_agreement_id !== null || row.status !== "CREATED") return;
    await tx
      .updateTable("payto_agreements")
      // eslint-disable-next-line no-restricted-syntax -- updated_at orders pollAgreements, which stays on the real clock (its grace is measured from the database's created_at)
      .set({ status: "FAILED", status_reason: refusal, updated_at: new Date() })
      .where("id", "=", id)
      .execute();
    await tx
      .insertInto("payto_agreement_events")
      .values({
        business_id: businessId,
        agreement_id: id,
        from_status: null,
        to_status: "FAILED",
        version: 0,
        source: "portal",
        reason: refusal,
      })
      .execute();
  });
}

/** Records the provider's id on our row (first answer, or found by our key) and applies its snapshot. */
async function attachSnapshot(businessId: string, id: string, snapshot: ProviderAgreement, source: SnapshotSource) {
  const db = await getDb();
  await db.transaction().execute(async (tx) => {
    const row = await baseQuery(tx).where("id", "=", id).forUpdate().executeTakeFirstOrThrow();
    if (row.provider_agreement_id === null) {
      await tx
        .updateTable("payto_agreements")
        .set({ provider_agreement_id: snapshot.agreementId })
        .where("id", "=", id)
        .execute();
    } else if (row.provider_agreement_id !== snapshot.agreementId) {
      logger.error("payto agreement answered with another provider id: ignored", { agreementId: id });
      return;
    }
    await applyToRow(tx, row, snapshot, source);
  });
}

type Applied = "applied" | "stale" | "impossible";

async function applyToRow(tx: Db, row: Row, snapshot: ProviderAgreement, source: SnapshotSource): Promise<Applied> {
  const decision = decideSnapshot(row.status, row.provider_version, snapshot.status, snapshot.version);
  if (decision === "stale") return "stale";
  if (decision === "impossible") {
    logger.error("payto agreement snapshot with an impossible transition: refused", {
      agreementId: row.id,
      from: row.status,
      to: snapshot.status,
      version: snapshot.version,
      source,
    });
    return "impossible";
  }
  const reason = snapshot.statusReason === null ? null : snapshot.statusReason.slice(0, 200);
  const updated = await tx
    .updateTable("payto_agreements")
    // eslint-disable-next-line no-restricted-syntax -- updated_at orders pollAgreements, which stays on the real clock (its grace is measured from the database's created_at)
    .set({ status: snapshot.status, status_reason: reason, provider_version: snapshot.version, updated_at: new Date() })
    .where("id", "=", row.id)
    .where("provider_version", "<", snapshot.version)
    .returning("id")
    .executeTakeFirst();
  if (!updated) return "stale";
  await tx
    .insertInto("payto_agreement_events")
    .values({
      business_id: row.business_id,
      agreement_id: row.id,
      // Version 0 is our own "asked for" row: the first snapshot is the agreement's beginning.
      from_status: row.provider_version === 0 ? null : row.status,
      to_status: snapshot.status,
      version: snapshot.version,
      source,
      reason,
    })
    .execute();
  return "applied";
}

/**
 * Applies the provider's snapshot of an agreement of `businessId` (decision 027's table):
 * newer and reachable → applied (one event row); older or equal → "stale"; newer but not
 * reachable → "impossible" (logged). "unknown": this business has no agreement with that id.
 * The row is locked while deciding, so concurrent webhooks and polls take turns.
 */
export async function applyAgreementSnapshot(
  businessId: string,
  snapshot: ProviderAgreement,
  source: SnapshotSource,
): Promise<"applied" | "stale" | "impossible" | "unknown"> {
  if (snapshot.merchant !== businessId) return "unknown";
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const row = await baseQuery(tx)
      .where("business_id", "=", businessId)
      .where("provider_agreement_id", "=", String(snapshot.agreementId).slice(0, 100))
      .forUpdate()
      .executeTakeFirst();
    if (!row) return "unknown";
    return applyToRow(tx, row, snapshot, source);
  });
}

/** The account's agreements, newest first. */
export async function listAgreements(actor: AgreementActor): Promise<AgreementView[]> {
  const db = await getDb();
  const rows = await baseQuery(db)
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(100)
    .execute();
  return rows.map(toView);
}

/** One agreement of the actor's account with its history, or null (another account's, another business's, no such id). */
export async function getAgreement(
  actor: AgreementActor,
  agreementId: unknown,
): Promise<(AgreementView & { events: AgreementEventView[] }) | null> {
  if (!isUuid(agreementId)) return null;
  const db = await getDb();
  const row = await baseQuery(db)
    .where("id", "=", agreementId)
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .executeTakeFirst();
  if (!row) return null;
  const events = await db
    .selectFrom("payto_agreement_events")
    .select(["from_status", "to_status", "version", "source", "reason", "at"])
    .where("business_id", "=", actor.businessId)
    .where("agreement_id", "=", row.id)
    .orderBy("id")
    .execute();
  return {
    ...toView(row),
    events: events.map((event) => ({
      fromStatus: event.from_status as AgreementStatus | null,
      toStatus: event.to_status as AgreementStatus,
      version: event.version,
      source: event.source as SnapshotSource,
      reason: event.reason,
      at: iso(event.at),
    })),
  };
}

export type CancelOutcome =
  { ok: true; agreement: AgreementView } | { ok: false; reason: "not_found" | "ended" | "unavailable" };

/** The business cancels an agreement (the payer asked to, on the portal): through the provider, then its snapshot. */
export async function cancelAgreement(actor: AgreementActor, agreementId: unknown): Promise<CancelOutcome> {
  const agreement = await getAgreement(actor, agreementId);
  if (!agreement) return { ok: false, reason: "not_found" };
  if (!["CREATED", "ACTIVE", "SUSPENDED"].includes(agreement.status)) return { ok: false, reason: "ended" };
  // Not yet known to the provider (its creation timed out): nothing to cancel until the poller finds it.
  if (agreement.providerAgreementId === null) return { ok: false, reason: "unavailable" };
  try {
    const answer = await getPayToProvider().cancelAgreement(agreement.providerAgreementId);
    if (!answer.ok) {
      logger.warn("payto agreement cancellation refused", { agreementId: agreement.id, refusal: answer.refusal });
      return { ok: false, reason: answer.refusal === "agreement_not_active" ? "ended" : "unavailable" };
    }
    await applyAgreementSnapshot(actor.businessId, answer.value, "portal");
  } catch (error) {
    logger.warn("payto agreement cancellation did not complete", { agreementId: agreement.id, error });
    return { ok: false, reason: "unavailable" };
  }
  const after = await getAgreement(actor, agreement.id);
  if (!after) return { ok: false, reason: "not_found" };
  return after.status === "CANCELLED" ? { ok: true, agreement: after } : { ok: false, reason: "ended" };
}

/**
 * The fallback for lost webhooks (decision 027): asks the provider about the agreements that
 * can still change, least recently checked first, a bounded batch per sweep, and applies what
 * it says through the same function as webhooks. A creation that timed out is looked up by our
 * key; one the provider never heard of is failed after a grace period.
 */
// eslint-disable-next-line no-restricted-syntax -- its lost-creation grace is measured from created_at, which the database stamps with its own (real) now()
export async function pollAgreements(now = new Date(), limit = POLL_BATCH) {
  const db = await getDb();
  const rows = await baseQuery(db)
    .where("status", "in", ["CREATED", "ACTIVE", "SUSPENDED"])
    .orderBy("updated_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  if (rows.length === 0) return {};
  const provider = getPayToProvider();
  const results: Record<string, number> = {};
  for (const row of rows) {
    let result: string;
    try {
      result = await pollOne(row, provider, now);
    } catch (error) {
      logger.warn("payto agreement poll failed", { agreementId: row.id, error });
      result = "error";
    }
    results[result] = (results[result] ?? 0) + 1;
    // Checked now: the next sweep starts with the others (the guard keeps a newer change's time).
    await db
      .updateTable("payto_agreements")
      .set({ updated_at: now })
      .where("id", "=", row.id)
      .where("updated_at", "<", now)
      .execute();
  }
  return results;
}

async function pollOne(row: Row, provider: ReturnType<typeof getPayToProvider>, now: Date): Promise<string> {
  if (row.provider_agreement_id !== null) {
    const snapshot = await provider.getAgreement(row.provider_agreement_id);
    if (!snapshot) return "missing";
    return applyAgreementSnapshot(row.business_id, snapshot, "poll");
  }
  const found = await provider.findAgreement(providerKey(row.business_id, row.request_guid));
  if (found) {
    await attachSnapshot(row.business_id, row.id, found, "poll");
    return "found";
  }
  if (now.getTime() - new Date(row.created_at).getTime() > LOST_CREATION_MS) {
    await failCreation(row.business_id, row.id, "unavailable");
    return "lost";
  }
  return "waiting";
}
