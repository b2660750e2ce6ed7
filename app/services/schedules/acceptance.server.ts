import { todayIn } from "~/lib/dates";
import { isExpired } from "~/lib/card";
import { UUID_SOURCE } from "~/lib/ids";
import type { WayToPayRefusal } from "~/lib/schedule-pages";
import { isScheduleReference } from "~/lib/schedule-paths";
import { scheduleView } from "~/lib/schedule-states";
import { endLinkedRecord } from "../links/link-lifecycle.server";
import { audit } from "../platform/audit.server";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { getSchedule, mayActFor } from "./queries.server";
import { lockSchedule, type ScheduleView } from "./schedule-rows.server";

/**
 * The contact's side of a payment schedule (issue 15; decision 034): a signed-in contact who may
 * act for the account accepts a proposal with a way to pay, or changes the way to pay of an
 * accepted one. Each answers with an outcome the pages word, never a thrown problem. The same
 * lock order as the business's changes (`commands.server.ts`): the schedule's row first.
 */
export type WayToPay = { kind: "card"; cardId: string } | { kind: "payto"; agreementId: string };

export type { WayToPayRefusal };

export type WayToPayOutcome = { ok: true; schedule: ScheduleView } | { ok: false; reason: WayToPayRefusal };

type ContactActor = { businessId: string; contactId: string; clientIp: string };

const WAY_TO_PAY = new RegExp(`^(card|payto):(${UUID_SOURCE})$`, "i");

/** A way to pay as the form posts it (`card:<id>`, `payto:<id>`), or null for anything else. */
export function parseWayToPay(value: unknown): WayToPay | null {
  if (typeof value !== "string") return null;
  const match = WAY_TO_PAY.exec(value);
  if (!match) return null;
  const id = match[2]!.toLowerCase();
  return match[1] === "card" ? { kind: "card", cardId: id } : { kind: "payto", agreementId: id };
}

/**
 * Checks a way to pay against the schedule's account, under the caller's transaction: a saved
 * card of this very account (not removed, not expired on the business's today), or an ACTIVE
 * PayTo agreement of it where the business takes PayTo and whose limit (and the business's)
 * covers the largest instalment.
 */
async function checkWayToPay(
  tx: Db,
  businessId: string,
  accountId: string,
  scheduleId: string,
  way: WayToPay,
  today: string,
): Promise<WayToPayRefusal | null> {
  if (way.kind === "card") {
    const card = await tx
      .selectFrom("cards")
      .select(["expiry_month as expiryMonth", "expiry_year as expiryYear"])
      .where("business_id", "=", businessId)
      .where("account_id", "=", accountId)
      .where("id", "=", way.cardId)
      .where("removed_at", "is", null)
      .executeTakeFirst();
    if (!card) return "method";
    return isExpired(card.expiryMonth, card.expiryYear, today) ? "cardExpired" : null;
  }
  const agreement = await tx
    .selectFrom("payto_agreements")
    .select(["status", "max_amount_cents as maxCents"])
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("id", "=", way.agreementId)
    .executeTakeFirst();
  if (!agreement) return "method";
  const settings = await tx
    .selectFrom("payto_settings")
    .select(["enabled", "max_payment_cents as maxPaymentCents"])
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  if (!settings?.enabled) return "payToOff";
  if (agreement.status !== "ACTIVE") return "agreementInactive";
  const largest = await tx
    .selectFrom("schedule_instalments")
    .select((eb) => eb.fn.max("amount_cents").as("largest"))
    .where("business_id", "=", businessId)
    .where("schedule_id", "=", scheduleId)
    .where("status", "in", ["scheduled", "failed", "processing"])
    .executeTakeFirst();
  const limit = Math.min(Number(agreement.maxCents), Number(settings.maxPaymentCents));
  return Number(largest?.largest ?? 0) > limit ? "payToLimit" : null;
}

async function findForContact(db: Db, actor: ContactActor, reference: string) {
  if (!isScheduleReference(reference)) return null;
  const row = await db
    .selectFrom("payment_schedules as ps")
    .innerJoin("businesses as b", "b.id", "ps.business_id")
    .select(["ps.id", "ps.account_id as accountId", "b.time_zone as timeZone"])
    .where("ps.business_id", "=", actor.businessId)
    .where("ps.reference", "=", reference)
    .executeTakeFirst();
  if (!row || !(await mayActFor(db, actor.businessId, actor.contactId, row.accountId))) return null;
  return row;
}

const wayColumns = (way: WayToPay) =>
  way.kind === "card"
    ? { card_id: way.cardId, payto_agreement_id: null }
    : { card_id: null, payto_agreement_id: way.agreementId };

/**
 * A signed-in contact who may act for the account accepts a proposal with a way to pay and the
 * authority's words as they were shown (`authorityText`). In one transaction that locks the
 * schedule, so of two accepts (two tabs, two contacts) exactly one succeeds; the other is told
 * it is already accepted. A proposal withdrawn, expired or cancelled is refused; so is another
 * account's card or agreement. Nothing changes on a refusal.
 */
export async function acceptSchedule(
  actor: ContactActor,
  input: { reference: string; way: WayToPay | null; authorityAccepted: boolean; authorityText: string },
): Promise<WayToPayOutcome> {
  const db = await getDb();
  const found = await findForContact(db, actor, input.reference);
  if (!found) return { ok: false, reason: "notFound" };
  const at = now();
  const today = todayIn(found.timeZone, at);
  const authorityText = input.authorityText.slice(0, 2000);
  const result = await db.transaction().execute(async (tx): Promise<WayToPayRefusal | WayToPay> => {
    const row = await lockSchedule(tx, actor.businessId, found.id);
    const state = scheduleView({ status: row.status, expiresAt: new Date(row.expiresAt) }, at);
    if (state === "active" || state === "arrears" || state === "completed") return "accepted";
    if (state !== "proposed") return state;
    if (!input.authorityAccepted || authorityText.trim() === "") return "authority";
    if (!input.way) return "method";
    const problem = await checkWayToPay(tx, actor.businessId, row.accountId, row.id, input.way, today);
    if (problem) return problem;
    // Its link has done its work: a forwarded copy opens nothing more than "accepted".
    await endLinkedRecord(
      tx,
      "payment_schedules",
      { businessId: actor.businessId, purpose: "payment-schedule", subjectId: row.id },
      {
        set: {
          status: "active",
          accepted_at: at,
          accepted_by: actor.contactId,
          accepted_ip: actor.clientIp.slice(0, 64),
          authority_text: authorityText,
          ...wayColumns(input.way),
        },
      },
    );
    return input.way;
  });
  if (typeof result === "string") return { ok: false, reason: result };
  await audit({
    businessId: actor.businessId,
    contactId: actor.contactId,
    clientIp: actor.clientIp,
    action: "schedule.accepted",
    details: {
      reference: input.reference,
      way: result.kind,
      id: result.kind === "card" ? result.cardId : result.agreementId,
    },
  });
  return { ok: true, schedule: (await getSchedule(actor.businessId, found.id))! };
}

/**
 * The contact chooses another saved card or active PayTo agreement for the schedule's future
 * instalments (active or in arrears only; the same checks as accepting). An instalment whose
 * charge is in flight keeps the way it is being charged by: only the schedule's row changes.
 */
export async function changeWayToPay(
  actor: ContactActor,
  input: { reference: string; way: WayToPay | null },
): Promise<WayToPayOutcome> {
  const db = await getDb();
  const found = await findForContact(db, actor, input.reference);
  if (!found) return { ok: false, reason: "notFound" };
  const today = todayIn(found.timeZone, now());
  const result = await db.transaction().execute(async (tx): Promise<WayToPayRefusal | WayToPay | "same"> => {
    const row = await lockSchedule(tx, actor.businessId, found.id);
    if (row.status !== "active" && row.status !== "arrears") return "notActive";
    if (!input.way) return "method";
    const problem = await checkWayToPay(tx, actor.businessId, row.accountId, row.id, input.way, today);
    if (problem) return problem;
    const same =
      input.way.kind === "card" ? row.cardId === input.way.cardId : row.payToAgreementId === input.way.agreementId;
    if (same) return "same";
    await tx
      .updateTable("payment_schedules")
      .set(wayColumns(input.way))
      .where("business_id", "=", actor.businessId)
      .where("id", "=", row.id)
      .execute();
    return input.way;
  });
  if (typeof result === "string" && result !== "same") return { ok: false, reason: result };
  if (result !== "same") {
    await audit({
      businessId: actor.businessId,
      contactId: actor.contactId,
      clientIp: actor.clientIp,
      action: "schedule.way-to-pay-changed",
      details: {
        reference: input.reference,
        way: result.kind,
        id: result.kind === "card" ? result.cardId : result.agreementId,
      },
    });
  }
  return { ok: true, schedule: (await getSchedule(actor.businessId, found.id))! };
}
