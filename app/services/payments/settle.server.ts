import { sql, type Insertable } from "kysely";
import { cardName } from "~/lib/card";
import { getDb } from "../platform/database.server";
import { now } from "../platform/clock.server";
import { businessTodayOf } from "../host/business-day.server";
import type { Db } from "../platform/db.server";
import type { PaymentPurpose, StatementLinesTable } from "../platform/db-schema.server";
import {
  instalmentFailed,
  instalmentSettled,
  lockInstalmentForSettlement,
} from "../schedules/instalment-outcomes.server";
import type { GatewayCharge, GatewayRefusal } from "./gateway/card-gateway.server";
import {
  outcomeOf,
  PAYABLE_STATUSES,
  RESERVING_STATUSES,
  storedPayment,
  type PaymentOutcome,
} from "./payment-records.server";
import { kickReceipt, queueReceipt } from "./receipts.server";

/**
 * Finishing a claimed payment, exactly once (ARCHITECTURE "Money moves exactly once"): settling
 * it (balances, statuses, statement lines and the payment request move with it, and its receipt
 * is written in the same transaction) or failing it (its reservation released). Every write is
 * guarded by the payment's status, so the card path, the reconciler, PayTo's webhook and its
 * poller may all arrive at once and the payment still moves once. The card path and the
 * reconciler call these; so does PayTo (`payto/payto-payments.server.ts`), which is why they live
 * apart from both.
 */

/**
 * Fails a payment that has not finished, releasing its reservation. True only for the call
 * that failed it (the status guard), so a rejection is recorded once however often it arrives.
 */
export async function failPayment(paymentId: string, reason: string): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable("payments")
      .set({ status: "failed", failure_code: reason, completed_at: now() })
      .where("id", "=", paymentId)
      .where("status", "in", RESERVING_STATUSES)
      .returning(["id", "business_id", "request_guid", "schedule_instalment_id"])
      .executeTakeFirst();
    if (!updated) return false;
    // An instalment's try: its instalment and schedule move in this transaction (decision 035).
    const instalment = await lockInstalmentForSettlement(tx, updated.business_id, updated.schedule_instalment_id);
    if (instalment) await instalmentFailed(tx, updated, instalment, reason);
    return true;
  });
}

/** Fails a card payment the gateway refused (or could not be asked about), and answers with it. */
export async function failCardPayment(paymentId: string, refusal: GatewayRefusal): Promise<PaymentOutcome> {
  await failPayment(paymentId, refusal);
  const db = await getDb();
  const payment = await storedPayment(db, paymentId);
  return outcomeOf(payment);
}

/**
 * Records a captured charge: the payment succeeds and, in the same transaction, each invoice's
 * balance falls by its allocation (Closed at zero) and the statement gets the payment, any
 * fees and any discount. Runs at most once per payment (the status guard).
 */
export async function settleCardCharge(paymentId: string, charge: GatewayCharge) {
  await settlePayment(paymentId, { gateway_charge_id: charge.chargeId });
}

/**
 * Settles a card charge or a PayTo payment (the provider's payment id). True only for the
 * call that settled it: the caller that gets true sends the receipt, so it goes once.
 */
export async function settlePayment(
  paymentId: string,
  ids: { gateway_charge_id: string } | { provider_payment_id: string },
): Promise<boolean> {
  const db = await getDb();
  const settled = await db.transaction().execute(async (tx) => {
    const payment = await tx
      .updateTable("payments")
      .set({ status: "succeeded", ...ids, completed_at: now(), failure_code: null })
      .where("id", "=", paymentId)
      .where("status", "in", RESERVING_STATUSES)
      .returningAll()
      .executeTakeFirst();
    if (!payment) return null;
    // The request or the instalment (if any) before the invoices: the order a claim takes them in.
    await lockRequestForSettlement(tx, payment.payment_request_id);
    const instalment = await lockInstalmentForSettlement(tx, payment.business_id, payment.schedule_instalment_id);
    await applySettlement(tx, payment, await allocationsOf(tx, paymentId), 0);
    if (instalment) await instalmentSettled(tx, payment, instalment);
    // The receipt is written with the success it reports (decision 044); an instalment's goes
    // through its own email job (decision 035), which writes the same key.
    return { receipt: instalment ? null : await queueReceipt(tx, payment.business_id, payment.id) };
  });
  if (!settled) return false;
  await kickReceipt(settled.receipt);
  return true;
}

type SettledPayment = {
  id: string;
  business_id: string;
  account_id: string;
  reference: string;
  method: string;
  amount_cents: number;
  merchant_fee_cents: number;
  late_fee_cents: number;
  discount_cents: number;
  card_brand: string | null;
  card_last4: string | null;
  purpose: PaymentPurpose;
  subtotal_cents: number;
  payment_request_id: string | null;
  payer_reference: string | null;
  note: string;
};

/** Locks a settling payment's request, if it has one, before any of its invoices. */
async function lockRequestForSettlement(tx: Db, requestId: string | null) {
  if (!requestId) return;
  await tx.selectFrom("payment_requests").select("id").where("id", "=", requestId).forUpdate().execute();
}

/**
 * A settled payment counts towards its request: paid_cents grows by what it paid (its
 * invoices' share, or the stated amount), never beyond the amount asked — a PayTo payment
 * settled after we had failed it may arrive when the request was paid another way, and the
 * money is then credit on the account, not more paid on the request. The request becomes paid
 * once nothing it asked for is still owing (a request of invoices: each invoice's balance, at
 * most what was asked of it).
 */
async function countTowardsRequest(tx: Db, payment: SettledPayment, appliedCents: number) {
  if (!payment.payment_request_id || appliedCents <= 0) return;
  const request = await tx
    .updateTable("payment_requests")
    .set({ paid_cents: sql`paid_cents + least(${appliedCents}::bigint, greatest(amount_cents - paid_cents, 0))` })
    .where("id", "=", payment.payment_request_id)
    .returning(["id", "kind", "amount_cents", "paid_cents", "status"])
    .executeTakeFirst();
  if (!request || (request.status !== "created" && request.status !== "sent")) return;
  let remaining: number;
  if (request.kind === "amount") remaining = Number(request.amount_cents) - Number(request.paid_cents);
  else {
    const row = await tx
      .selectFrom("payment_request_invoices as ri")
      .innerJoin("invoices as i", "i.id", "ri.invoice_id")
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<number>(sql<number>`least(ri.amount_cents, i.balance_cents)`), eb.lit(0)).as("owing"),
      )
      .where("ri.request_id", "=", request.id)
      .executeTakeFirstOrThrow();
    remaining = Number(row.owing);
  }
  if (remaining <= 0) {
    await tx
      .updateTable("payment_requests")
      .set({ status: "paid", paid_at: now() })
      .where("id", "=", request.id)
      .execute();
  }
}

type Allocation = { invoice_id: string; amount_cents: number; late_fee_cents: number; discount_cents: number };

/** A payment's allocations in invoice id order: the order the claim locks invoices in. */
const allocationsOf = (tx: Db, paymentId: string): Promise<Allocation[]> =>
  tx
    .selectFrom("payment_allocations")
    .select(["invoice_id", "amount_cents", "late_fee_cents", "discount_cents"])
    .where("payment_id", "=", paymentId)
    .orderBy("invoice_id")
    .execute();

/**
 * Moves the money of a payment now marked succeeded: each allocation's invoice balance falls
 * (Closed at zero), in invoice id order like the claim's locks, so two settlements and a claim
 * of the same invoices cannot wait on each other in a cycle; the statement gets the payment,
 * its fees and discount, and `unappliedCents` (money received that paid no invoice) as credit.
 */
async function applySettlement(tx: Db, payment: SettledPayment, allocations: Allocation[], unappliedCents: number) {
  const sorted = [...allocations].sort((a, b) =>
    a.invoice_id < b.invoice_id ? -1 : a.invoice_id > b.invoice_id ? 1 : 0,
  );
  // The business's date, not the UTC one (decision 078): the day the statement shows and that
  // "overdue" is measured against.
  const day = await businessTodayOf(tx, payment.business_id);
  for (const allocation of sorted) {
    await tx
      .updateTable("invoices")
      .set({
        balance_cents: sql`balance_cents - ${allocation.amount_cents}`,
        status: sql`CASE WHEN balance_cents - ${allocation.amount_cents} = 0 THEN 2 WHEN status IN (7, 8) THEN (CASE WHEN due_date < ${day}::date THEN 3 ELSE 1 END) ELSE status END`,
        promise_date: sql`CASE WHEN balance_cents - ${allocation.amount_cents} = 0 THEN NULL ELSE promise_date END`,
      })
      .where("id", "=", allocation.invoice_id)
      .where("business_id", "=", payment.business_id)
      .execute();
  }
  const line = (
    type: StatementLinesTable["type"],
    description: string,
    debit: number,
    credit: number,
  ): Insertable<StatementLinesTable> => ({
    business_id: payment.business_id,
    account_id: payment.account_id,
    line_date: day,
    type,
    reference: payment.reference,
    description,
    debit_cents: debit,
    credit_cents: credit,
    invoice_id: null,
  });
  const card = payment.card_last4 ? cardName(payment.card_brand, payment.card_last4) : "";
  const payto = payment.method === "payto";
  if (payment.purpose !== "invoices") {
    // Money that paid no invoice (ad hoc, a stated-amount request): all of it is credit on
    // the account, less any card surcharge, which the statement shows as its own line.
    // An instalment's part that paid invoices is in the allocations applied above; the line
    // carries all of it, so whatever no invoice took is credit on the account.
    const what =
      payment.purpose === "adhoc"
        ? `Payment: ${payment.payer_reference ?? ""}`.trim()
        : payment.purpose === "instalment"
          ? payment.note || "Instalment"
          : "Payment request";
    const lines = [line("payment", `${what} (${payto ? "PayTo" : `card ${card}`.trim()})`, 0, payment.amount_cents)];
    if (payment.merchant_fee_cents > 0) lines.push(line("fee", "Card surcharge", payment.merchant_fee_cents, 0));
    await tx.insertInto("statement_lines").values(lines).execute();
    await countTowardsRequest(tx, payment, payment.subtotal_cents);
    return;
  }
  // The statement nets to the invoices' fall in balance (paid − fees + discount = subtotal),
  // plus any money kept as credit.
  const paid = payment.amount_cents - unappliedCents;
  const lines: Insertable<StatementLinesTable>[] = [];
  if (paid > 0) lines.push(line("payment", payto ? "PayTo payment" : `Card payment ${card}`.trim(), 0, paid));
  const fees = payment.merchant_fee_cents + payment.late_fee_cents;
  // PayTo has no surcharge (spec §9): its only fees are late fees.
  if (fees > 0) lines.push(line("fee", payto ? "Late fees" : "Card surcharge and late fees", fees, 0));
  if (payment.discount_cents > 0) lines.push(line("credit", "Early-payment discount", 0, payment.discount_cents));
  if (unappliedCents > 0) lines.push(line("credit", "Unapplied PayTo payment", 0, unappliedCents));
  if (lines.length > 0) await tx.insertInto("statement_lines").values(lines).execute();
  await countTowardsRequest(
    tx,
    payment,
    allocations.reduce((sum, a) => sum + a.amount_cents, 0),
  );
}

export type LateSettlement =
  | { kind: "settled" }
  | { kind: "credited"; creditCents: number; unapplied: { invoiceId: string; amountCents: number }[] };

/**
 * The provider settled a PayTo payment we had already failed (decision 029 "Settled after we
 * failed it"): the money moved, so it must be recorded. With the invoices locked (id order),
 * each allocation is applied in full if its invoice is still payable with that much balance
 * free of other payments' reservations; the rest is not applied (its allocation is removed)
 * and its money is kept on the account as an "Unapplied PayTo payment" credit. Null when the
 * payment is not a failed PayTo payment (another call got there first).
 */
export async function settleFailedPayToPayment(
  paymentId: string,
  providerPaymentId: string,
): Promise<LateSettlement | null> {
  const db = await getDb();
  const late = await db.transaction().execute(async (tx) => {
    const held = await tx
      .selectFrom("payments")
      .select(["id", "business_id", "purpose", "payment_request_id", "schedule_instalment_id"])
      .where("id", "=", paymentId)
      .where("method", "=", "payto")
      .where("status", "=", "failed")
      .forUpdate()
      .executeTakeFirst();
    if (!held) return null;
    await lockRequestForSettlement(tx, held.payment_request_id);
    const instalment = await lockInstalmentForSettlement(tx, held.business_id, held.schedule_instalment_id);
    if (held.purpose === "adhoc" || held.purpose === "request") {
      // It paid no invoice: the money is credit on the account, whenever it arrives.
      const payment = await tx
        .updateTable("payments")
        .set({
          status: "succeeded",
          provider_payment_id: providerPaymentId,
          completed_at: now(),
          failure_code: null,
        })
        .where("id", "=", paymentId)
        .where("status", "=", "failed")
        .returningAll()
        .executeTakeFirstOrThrow();
      await applySettlement(tx, payment, [], 0);
      return { kind: "settled" as const, receipt: await queueReceipt(tx, payment.business_id, payment.id) };
    }
    const allocations = await allocationsOf(tx, paymentId);
    const ids = allocations.map((a) => a.invoice_id);
    const invoices =
      ids.length === 0
        ? []
        : await tx
            .selectFrom("invoices")
            .select(["id", "balance_cents", "status"])
            .where("business_id", "=", held.business_id)
            .where("id", "in", ids)
            .orderBy("id")
            .forUpdate()
            .execute();
    // Read after the lock, in a new statement: what other unsettled payments hold now.
    const reserved =
      ids.length === 0
        ? []
        : await tx
            .selectFrom("payment_allocations as a")
            .innerJoin("payments as p", "p.id", "a.payment_id")
            .select(["a.invoice_id as invoiceId", (eb) => eb.fn.sum<number>("a.amount_cents").as("cents")])
            .where("a.business_id", "=", held.business_id)
            .where("a.invoice_id", "in", ids)
            .where("p.status", "in", RESERVING_STATUSES)
            .groupBy("a.invoice_id")
            .execute();
    const reservedOf = new Map(reserved.map((r) => [r.invoiceId, Number(r.cents)]));
    const fits = (allocation: Allocation) => {
      const invoice = invoices.find((i) => i.id === allocation.invoice_id);
      return (
        invoice !== undefined &&
        (PAYABLE_STATUSES as readonly number[]).includes(invoice.status) &&
        invoice.balance_cents - (reservedOf.get(invoice.id) ?? 0) >= allocation.amount_cents
      );
    };
    const applied = allocations.filter(fits);
    const unapplied = allocations.filter((a) => !fits(a));
    const sum = (list: Allocation[], pick: (a: Allocation) => number) => list.reduce((n, a) => n + pick(a), 0);
    if (unapplied.length > 0) {
      await tx
        .deleteFrom("payment_allocations")
        .where("payment_id", "=", paymentId)
        .where(
          "invoice_id",
          "in",
          unapplied.map((a) => a.invoice_id),
        )
        .execute();
    }
    // What the payment now says it paid: the applied allocations (the whole amount when all fit).
    // An instalment keeps its amount: what no invoice takes is credit on the account anyway.
    const payment = await tx
      .updateTable("payments")
      .set({
        status: "succeeded",
        provider_payment_id: providerPaymentId,
        completed_at: now(),
        failure_code: null,
        ...(instalment
          ? {}
          : {
              subtotal_cents: sum(applied, (a) => a.amount_cents),
              late_fee_cents: sum(applied, (a) => a.late_fee_cents),
              discount_cents: sum(applied, (a) => a.discount_cents),
            }),
      })
      .where("id", "=", paymentId)
      .where("status", "=", "failed")
      .returningAll()
      .executeTakeFirstOrThrow();
    const appliedMoney = instalment
      ? sum(applied, (a) => a.amount_cents)
      : payment.subtotal_cents + payment.late_fee_cents - payment.discount_cents;
    const creditCents = payment.amount_cents - payment.merchant_fee_cents * (instalment ? 1 : 0) - appliedMoney;
    await applySettlement(tx, payment, applied, instalment ? 0 : creditCents);
    if (instalment) await instalmentSettled(tx, payment, instalment);
    if (unapplied.length === 0) {
      return {
        kind: "settled" as const,
        receipt: instalment ? null : await queueReceipt(tx, payment.business_id, payment.id),
      };
    }
    return {
      kind: "credited" as const,
      creditCents,
      unapplied: unapplied.map((a) => ({ invoiceId: a.invoice_id, amountCents: a.amount_cents })),
    };
  });
  if (late?.kind === "settled") {
    await kickReceipt(late.receipt);
    return { kind: "settled" };
  }
  return late;
}
