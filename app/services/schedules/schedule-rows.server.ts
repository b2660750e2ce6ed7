import { sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { todayIn } from "~/lib/dates";
import type { CardBrand } from "~/lib/payment-method-types";
import {
  instalmentView,
  scheduleView,
  type InstalmentStatus,
  type InstalmentView,
  type ScheduleStatus,
  type ScheduleView as ScheduleState,
} from "~/lib/schedule-states";
import { now } from "../platform/clock.server";
import type { Db } from "../platform/db.server";

/**
 * A payment schedule's row and its view (issue 15; decision 034), shared by the commands, the
 * queries and the acceptance: the one statement that reads a schedule with its lists, the view
 * made from it, and the lock a change takes. The email renders the view, so it lives here, below
 * the modules that send it.
 */
export type WayToPayView =
  | { kind: "card"; id: string; brand: CardBrand; last4: string; expiryMonth: number; expiryYear: number }
  | {
      kind: "payto";
      id: string;
      status: string;
      payId: string | null;
      bsb: string | null;
      accountLast3: string | null;
    };

export type InstalmentViewRow = {
  id: string;
  seq: number;
  dueDate: string;
  amountCents: number;
  status: InstalmentStatus;
  /** What the contact is shown (schedule-states `instalmentView`, on the business's today). */
  view: InstalmentView;
  /** The runner's tries so far. */
  attempts: number;
  /** The day of its next try while it waits (its due day, or a retry's). */
  nextAttemptOn: string | null;
  lastFailure: string | null;
  paidAt: string | null;
  /** The payment that paid it (its receipt), or the one in flight. */
  payment: { reference: string; status: string } | null;
  lastAttempt: { trigger: "runner" | "contact"; outcome: string; failureCode: string | null; at: string } | null;
};

export type ScheduleView = {
  id: string;
  reference: string;
  state: ScheduleState;
  status: ScheduleStatus;
  account: { id: string; number: string; name: string };
  contact: { id: string; email: string };
  description: string;
  currency: string;
  totalCents: number;
  paidCents: number;
  remainingCents: number;
  invoices: { id: string; number: string; amountCents: number; balanceCents: number }[];
  instalments: InstalmentViewRow[];
  /** The first instalment still to be paid (scheduled, failed or in flight), or null. */
  nextInstalment: { id: string; seq: number; dueDate: string; amountCents: number; view: InstalmentView } | null;
  wayToPay: WayToPayView | null;
  acceptance: { at: string; contactId: string | null; ip: string | null; authorityText: string | null } | null;
  attempts: { total: number; succeeded: number; declined: number; pending: number; errors: number };
  expiresAt: string;
  createdAt: string;
  sentAt: string | null;
  sendCount: number;
  withdrawnAt: string | null;
  cancelledAt: string | null;
  completedAt: string | null;
  arrearsAt: string | null;
  /** The business's day the views were read on (its time zone). */
  today: string;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * A schedule's row with everything its view needs — its instalments (with the payment that paid
 * each), its invoices and every try — in one statement: the lists come as JSON arrays from
 * correlated subqueries along each table's schedule index.
 */
export function selectSchedules(db: Db, businessId: string) {
  return db
    .selectFrom("payment_schedules as ps")
    .innerJoin("accounts as a", (join) =>
      join.onRef("a.id", "=", "ps.account_id").onRef("a.business_id", "=", "ps.business_id"),
    )
    .innerJoin("businesses as b", "b.id", "ps.business_id")
    .leftJoin("cards as c", (join) =>
      join.onRef("c.id", "=", "ps.card_id").onRef("c.business_id", "=", "ps.business_id"),
    )
    .leftJoin("payto_agreements as pa", (join) =>
      join.onRef("pa.id", "=", "ps.payto_agreement_id").onRef("pa.business_id", "=", "ps.business_id"),
    )
    .select((eb) => [
      "ps.id",
      "ps.reference",
      "ps.status",
      "ps.description",
      "ps.currency",
      "ps.total_cents as totalCents",
      "ps.paid_cents as paidCents",
      "ps.contact_id as contactId",
      "ps.email",
      "ps.expires_at as expiresAt",
      "ps.card_id as cardId",
      "ps.payto_agreement_id as payToAgreementId",
      "ps.accepted_at as acceptedAt",
      "ps.accepted_by as acceptedBy",
      "ps.accepted_ip as acceptedIp",
      "ps.authority_text as authorityText",
      "ps.sent_at as sentAt",
      "ps.send_count as sendCount",
      "ps.withdrawn_at as withdrawnAt",
      "ps.cancelled_at as cancelledAt",
      "ps.completed_at as completedAt",
      "ps.arrears_at as arrearsAt",
      "ps.created_at as createdAt",
      sql<string>`to_char(ps.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
      "a.id as accountId",
      "a.number as accountNumber",
      "a.name as accountName",
      "b.time_zone as timeZone",
      "c.brand as cardBrand",
      "c.last4 as cardLast4",
      "c.expiry_month as cardExpiryMonth",
      "c.expiry_year as cardExpiryYear",
      "pa.status as payToStatus",
      "pa.alias_value as payToPayId",
      "pa.bsb as payToBsb",
      "pa.account_number as payToAccountNumber",
      jsonArrayFrom(
        eb
          .selectFrom("schedule_instalments as si")
          .leftJoin("payments as p", (join) =>
            join.onRef("p.id", "=", "si.payment_id").onRef("p.business_id", "=", "si.business_id"),
          )
          .select([
            "si.id",
            "si.seq",
            "si.due_date as dueDate",
            "si.amount_cents as amountCents",
            "si.status",
            "si.next_attempt_on as nextAttemptOn",
            "si.attempts",
            "si.last_failure as lastFailure",
            "si.paid_at as paidAt",
            "p.reference as paymentReference",
            "p.status as paymentStatus",
          ])
          .whereRef("si.schedule_id", "=", "ps.id")
          .orderBy("si.seq"),
      ).as("instalments"),
      jsonArrayFrom(
        eb
          .selectFrom("payment_schedule_invoices as psi")
          .innerJoin("invoices as i", (join) =>
            join.onRef("i.id", "=", "psi.invoice_id").onRef("i.business_id", "=", "psi.business_id"),
          )
          .select(["i.id", "i.number", "psi.amount_cents as amountCents", "i.balance_cents as balanceCents"])
          .whereRef("psi.schedule_id", "=", "ps.id")
          .orderBy("i.due_date")
          .orderBy("i.number"),
      ).as("invoices"),
      // Every try of its instalments, newest first (at most 60 instalments, a few tries each).
      jsonArrayFrom(
        eb
          .selectFrom("instalment_attempts as ia")
          .innerJoin("schedule_instalments as sia", "sia.id", "ia.instalment_id")
          .select([
            "ia.instalment_id as instalmentId",
            "ia.trigger",
            "ia.outcome",
            "ia.failure_code as failureCode",
            "ia.started_at as startedAt",
          ])
          .whereRef("sia.schedule_id", "=", "ps.id")
          .orderBy("ia.started_at", "desc")
          .orderBy("ia.attempt_no", "desc"),
      ).as("tries"),
    ])
    .where("ps.business_id", "=", businessId);
}

type ScheduleRow = Awaited<ReturnType<ReturnType<typeof selectSchedules>["executeTakeFirstOrThrow"]>>;

/** A schedule's view from its row (instalment states on the business's today). */
export function toView(row: ScheduleRow): ScheduleView {
  const at = now();
  const today = todayIn(row.timeZone, at);
  const lastOf = new Map<string, (typeof row.tries)[number]>();
  const counts = { total: 0, succeeded: 0, declined: 0, pending: 0, errors: 0 };
  for (const attempt of row.tries) {
    if (!lastOf.has(attempt.instalmentId)) lastOf.set(attempt.instalmentId, attempt);
    counts.total += 1;
    if (attempt.outcome === "succeeded") counts.succeeded += 1;
    else if (attempt.outcome === "declined") counts.declined += 1;
    else if (attempt.outcome === "error") counts.errors += 1;
    else counts.pending += 1;
  }
  const instalments = row.instalments.map((i): InstalmentViewRow => {
    const last = lastOf.get(i.id);
    return {
      id: i.id,
      seq: i.seq,
      dueDate: i.dueDate,
      amountCents: Number(i.amountCents),
      status: i.status,
      view: instalmentView({ status: i.status, dueDate: i.dueDate, attempts: i.attempts }, today),
      attempts: i.attempts,
      nextAttemptOn: i.nextAttemptOn,
      lastFailure: i.lastFailure,
      paidAt: iso(i.paidAt),
      payment: i.paymentReference ? { reference: i.paymentReference, status: String(i.paymentStatus) } : null,
      lastAttempt: last
        ? { trigger: last.trigger, outcome: last.outcome, failureCode: last.failureCode, at: iso(last.startedAt)! }
        : null,
    };
  });
  const next = instalments.find((i) => i.status === "scheduled" || i.status === "failed" || i.status === "processing");
  const totalCents = Number(row.totalCents);
  const paidCents = Number(row.paidCents);
  return {
    id: row.id,
    reference: row.reference,
    state: scheduleView({ status: row.status, expiresAt: new Date(row.expiresAt) }, at),
    status: row.status,
    account: { id: row.accountId, number: row.accountNumber, name: row.accountName },
    contact: { id: row.contactId, email: row.email },
    description: row.description,
    currency: row.currency,
    totalCents,
    paidCents,
    remainingCents: Math.max(0, totalCents - paidCents),
    invoices: row.invoices.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      amountCents: Number(invoice.amountCents),
      balanceCents: Number(invoice.balanceCents),
    })),
    instalments,
    nextInstalment: next
      ? { id: next.id, seq: next.seq, dueDate: next.dueDate, amountCents: next.amountCents, view: next.view }
      : null,
    wayToPay: wayToPayOf(row),
    acceptance: row.acceptedAt
      ? { at: iso(row.acceptedAt)!, contactId: row.acceptedBy, ip: row.acceptedIp, authorityText: row.authorityText }
      : null,
    attempts: counts,
    expiresAt: iso(row.expiresAt)!,
    createdAt: iso(row.createdAt)!,
    sentAt: iso(row.sentAt),
    sendCount: row.sendCount,
    withdrawnAt: iso(row.withdrawnAt),
    cancelledAt: iso(row.cancelledAt),
    completedAt: iso(row.completedAt),
    arrearsAt: iso(row.arrearsAt),
    today,
  };
}

function wayToPayOf(row: ScheduleRow): WayToPayView | null {
  if (row.cardId && row.cardBrand) {
    return {
      kind: "card",
      id: row.cardId,
      brand: row.cardBrand,
      last4: row.cardLast4 ?? "",
      expiryMonth: row.cardExpiryMonth ?? 0,
      expiryYear: row.cardExpiryYear ?? 0,
    };
  }
  if (row.payToAgreementId && row.payToStatus) {
    return {
      kind: "payto",
      id: row.payToAgreementId,
      status: row.payToStatus,
      payId: row.payToPayId,
      bsb: row.payToBsb,
      accountLast3: row.payToAccountNumber ? row.payToAccountNumber.slice(-3) : null,
    };
  }
  return null;
}

/**
 * Locks a schedule (FOR UPDATE) for a change and reads its state. Another business's id is
 * simply not there.
 */
export async function lockSchedule(tx: Db, businessId: string, scheduleId: string) {
  return tx
    .selectFrom("payment_schedules")
    .select([
      "id",
      "reference",
      "status",
      "account_id as accountId",
      "contact_id as contactId",
      "expires_at as expiresAt",
      "sent_at as sentAt",
      "card_id as cardId",
      "payto_agreement_id as payToAgreementId",
    ])
    .where("business_id", "=", businessId)
    .where("id", "=", scheduleId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}
