import { computePayment, feeRulesFromRow, type FeeRules } from "~/lib/payment-calc";
import type { CardBrand } from "~/lib/payment-method-types";
import { UUID } from "~/lib/ids";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { PAYABLE_STATUSES, RESERVING_STATUSES, type Actor } from "./payment-records.server";

/**
 * What an account may pay now and what it costs: its payable invoices with what other unsettled
 * payments leave of each balance, and the business's fee rules. The pay pages read them to show
 * a breakdown; the claim (`claim.server.ts`) reads the same, under lock, to check one.
 */

/** The business's surcharge, late-fee and early-discount rules. */
export async function getFeeRules(businessId: string): Promise<FeeRules> {
  const db = await getDb();
  const row = await db
    .selectFrom("fee_rules")
    .select([
      "surcharge",
      "late_fee_bps as lateFeeBps",
      "late_fee_fixed_cents as lateFeeFixedCents",
      "early_discount_bps as earlyDiscountBps",
      "early_discount_days as earlyDiscountDays",
    ])
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  return feeRulesFromRow(row ?? null);
}

/**
 * The invoices of the selection that can be paid now, with what is left of each balance after
 * other unsettled payments' reservations. Invoices of another account, paid, closed, on
 * hold or disputed are simply absent.
 */
export async function payableInvoices(db: Db, actor: Actor, invoiceIds: string[] | "all", lock = false) {
  if (invoiceIds !== "all" && (invoiceIds.length === 0 || !invoiceIds.every((id) => UUID.test(id)))) return [];
  let query = db
    .selectFrom("invoices")
    .select((eb) => [
      "id",
      "number",
      "due_date as dueDate",
      "balance_cents as balanceCents",
      "status",
      // What other unsettled payments already hold of the balance, in the same statement.
      eb
        .selectFrom("payment_allocations as a")
        .innerJoin("payments as p", "p.id", "a.payment_id")
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number>("a.amount_cents"), inner.lit(0)).as("held"))
        .whereRef("a.invoice_id", "=", "invoices.id")
        .where("a.business_id", "=", actor.businessId)
        .where("p.status", "in", RESERVING_STATUSES)
        .as("reservedCents"),
    ])
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("status", "in", [...PAYABLE_STATUSES])
    .where("balance_cents", ">", 0);
  // "Pay everything owing": the 50 payable invoices due soonest.
  query =
    invoiceIds === "all"
      ? query.orderBy("due_date").orderBy("id").limit(50)
      : query.where("id", "in", invoiceIds).orderBy("id");
  if (lock) query = query.forUpdate();
  const rows = await query.execute();
  if (!lock || rows.length === 0) {
    return rows.map(({ reservedCents, ...row }) => ({
      ...row,
      availableCents: row.balanceCents - Number(reservedCents ?? 0),
    }));
  }
  // Under FOR UPDATE the row is re-read after a concurrent payment commits, but a subquery
  // still sees the statement's snapshot: read the reservations again, in a new statement
  // (a new snapshot under READ COMMITTED), now that the invoices are ours.
  const reserved = await db
    .selectFrom("payment_allocations as a")
    .innerJoin("payments as p", "p.id", "a.payment_id")
    .select(["a.invoice_id as invoiceId", (eb) => eb.fn.sum<number>("a.amount_cents").as("cents")])
    .where("a.business_id", "=", actor.businessId)
    .where(
      "a.invoice_id",
      "in",
      rows.map((r) => r.id),
    )
    .where("p.status", "in", RESERVING_STATUSES)
    .groupBy("a.invoice_id")
    .execute();
  const held = new Map(reserved.map((r) => [r.invoiceId, Number(r.cents)]));
  return rows.map(({ reservedCents: _stale, ...row }) => ({
    ...row,
    availableCents: row.balanceCents - (held.get(row.id) ?? 0),
  }));
}

/** The pay page's invoices: payable ones of the account, in the order asked (or all owing), at most 50. */
export async function loadPayable(actor: Actor, invoiceIds: string[] | "all") {
  const db = await getDb();
  if (invoiceIds === "all") return payableInvoices(db, actor, "all");
  const ids = [...new Set(invoiceIds.filter((id) => UUID.test(id)))].slice(0, 50);
  const rows = await payableInvoices(db, actor, ids);
  return ids.map((id) => rows.find((row) => row.id === id)).filter((row) => row !== undefined);
}

/** The breakdown the pay page shows (and the total the customer is asked to confirm). */
export async function previewPayment(
  actor: Actor,
  invoices: { id: string; balanceCents: number; dueDate: string }[],
  amounts: Record<string, number>,
  method: { kind: "card"; brand: CardBrand } | { kind: "payto" } | { kind: "promise" },
  today: string,
  /** The business's rules when the caller has them already (with the host): one query fewer. */
  known?: FeeRules,
) {
  const rules = known ?? (await getFeeRules(actor.businessId));
  return computePayment(
    invoices.map((i) => ({ orderId: i.id, balanceCents: i.balanceCents, dueDate: i.dueDate })),
    amounts,
    method.kind === "promise" ? { kind: "payto" } : method,
    method.kind === "promise" ? { ...rules, surcharge: {} } : rules,
    today,
  );
}

/** How many invoices one "Pay now" opens: the pay page takes at most this many (`loadPayable`). */
export const PAY_NOW_LIMIT = 50;

/**
 * What the dashboard's "Pay now" opens (decision 072): the overdue invoices that can be paid
 * online, due soonest first, or, when none is overdue, everything payable (at most 50 either way,
 * as the pay page takes), with what they add up to. Also how many owing invoices cannot be paid
 * online (on hold, disputed), so a page can say what is left out and why. `today` is the
 * business's calendar date: overdue means the same here as on the dashboard's tile.
 *
 * One statement: the count of those on hold or disputed is one row, and the payable invoices are
 * joined to it laterally, so the count comes back (beside nulls) when nothing can be paid.
 */
export async function payNowChoice(scope: { businessId: string; accountId: string }, today: string) {
  const db = await getDb();
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("invoices")
        .select((inner) => inner.fn.countAll<number>().as("count"))
        .where("business_id", "=", scope.businessId)
        .where("account_id", "=", scope.accountId)
        .where("status", "in", [5, 6])
        .where("balance_cents", ">", 0)
        .as("held"),
    )
    .leftJoinLateral(
      (eb) =>
        // Due soonest first: the overdue ones, if any, are the first rows.
        eb
          .selectFrom("invoices")
          .select(["id", "due_date as dueDate", "balance_cents as balanceCents"])
          .where("business_id", "=", scope.businessId)
          .where("account_id", "=", scope.accountId)
          .where("status", "in", [...PAYABLE_STATUSES])
          .where("balance_cents", ">", 0)
          .orderBy("due_date")
          .orderBy("id")
          .limit(PAY_NOW_LIMIT)
          .as("soonest"),
      (join) => join.onTrue(),
    )
    .select(["held.count", "soonest.id", "soonest.dueDate", "soonest.balanceCents"])
    .orderBy("soonest.dueDate")
    .orderBy("soonest.id")
    .execute();
  const soonest = rows.flatMap(({ id, dueDate, balanceCents }) =>
    id !== null && dueDate !== null && balanceCents !== null ? [{ id, dueDate, balanceCents }] : [],
  );
  const overdue = soonest.filter((invoice) => invoice.dueDate < today);
  const opened = overdue.length > 0 ? overdue : soonest;
  return {
    /** The invoices "Pay now" opens, in the pay page's order. */
    invoiceIds: opened.map((invoice) => invoice.id),
    cents: opened.reduce((sum, invoice) => sum + invoice.balanceCents, 0),
    overdue: overdue.length > 0,
    notPayableCount: Number(rows[0]?.count ?? 0),
  };
}

/** The pay page's address for a "Pay now" choice; null when nothing can be paid online. */
export function payNowHref(choice: { invoiceIds: string[] }) {
  if (choice.invoiceIds.length === 0) return null;
  const params = new URLSearchParams(choice.invoiceIds.map((id) => ["invoice", id]));
  return `/customer/invoices-and-payments/pay?${params}`;
}
