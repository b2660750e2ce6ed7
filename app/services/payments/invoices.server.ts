import { sql } from "kysely";
import { INVOICE_PAGE_SIZE } from "~/lib/invoice-query";
import { getDb } from "../platform/database.server";
import { businessTodayOf } from "../host/business-day.server";
import { isUuid } from "~/lib/ids";

/**
 * The selected account's invoices and payments (issue 3): paged, filtered and sorted in SQL
 * on the (business_id, account_id, …) indexes, a constant number of statements per page.
 */
// In lib: the page's component needs it too, and a .server module is empty in the browser.
export { INVOICE_PAGE_SIZE };
export const INVOICE_FILTERS = ["outstanding", "overdue", "all", "1", "2", "3", "4", "5", "6", "7", "8"] as const;
export const INVOICE_SORTS = ["due-asc", "due-desc", "balance-desc", "number-asc"] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

type Scope = { businessId: string; accountId: string };

const INVOICE_COLUMNS = [
  "id",
  "number",
  "description",
  "issue_date as issueDate",
  "due_date as dueDate",
  "amount_cents as amountCents",
  "balance_cents as balanceCents",
  "promise_date as promiseDate",
] as const;

/** Whole days past the due date on the business's date (decision 078; 0 when not yet due). */
const daysOverdue = (today: string) => sql<number>`GREATEST(${today}::date - due_date, 0)`.as("daysOverdue");

/**
 * Spec §3: a promise whose date has passed with money still owing is a Broken Promise (8).
 * Derived when read, so no page view writes: the stored status stays Promise (7) with its
 * date, and every reader sees 8 from the day after.
 */
const brokenPromise = (today: string) =>
  sql<boolean>`(invoices.status = 7 AND invoices.promise_date < ${today}::date AND invoices.balance_cents > 0)`;
const effectiveStatus = (today: string) =>
  sql<number>`CASE WHEN ${brokenPromise(today)} THEN 8 ELSE invoices.status END`.as("status");

/**
 * Totals are counted over at most this many matching invoices: an account with a hundred
 * thousand invoices still pages in a few milliseconds (the growth benchmark), and shows
 * "more than 2,000" with a hint to narrow by status.
 */
export const INVOICE_COUNT_CAP = 2_000;

/**
 * One page of the account's invoices and the totals of all that match, in one statement:
 * the matching invoices in page order (at most the cap, read along the index), numbered by
 * a window, of which the page is a slice.
 */
/** Invoices that count as owing: the dashboard's tiles and the "overdue" filter use the same set. */
const OWING_STATUSES = [1, 3, 5, 6, 7, 8];

export async function listInvoices(
  scope: Scope,
  query: { filter: InvoiceFilter; sort: InvoiceSort; page: number },
  /** The business's calendar date ("YYYY-MM-DD"): what "overdue" is measured against. */
  given?: string,
) {
  const db = await getDb();
  const today = given ?? (await businessTodayOf(db, scope.businessId));
  const [field, alias, dir] = {
    "due-asc": ["due_date", "dueDate", "asc"],
    "due-desc": ["due_date", "dueDate", "desc"],
    "balance-desc": ["balance_cents", "balanceCents", "desc"],
    "number-asc": ["number", "number", "asc"],
  }[query.sort] as ["due_date" | "balance_cents" | "number", "dueDate" | "balanceCents" | "number", "asc" | "desc"];
  const rows = await db
    .with("matching", (qb) => {
      let base = qb
        .selectFrom("invoices")
        .select([...INVOICE_COLUMNS, effectiveStatus(today), daysOverdue(today), "dispute_reason as disputeReason"])
        .where("business_id", "=", scope.businessId)
        .where("account_id", "=", scope.accountId);
      if (query.filter === "outstanding")
        base = base.where("balance_cents", ">", 0).where("status", "in", OWING_STATUSES);
      else if (query.filter === "overdue")
        base = base.where("balance_cents", ">", 0).where("status", "in", OWING_STATUSES).where("due_date", "<", today);
      else if (query.filter === "8") base = base.where((eb) => eb.or([eb("status", "=", 8), brokenPromise(today)]));
      else if (query.filter === "7")
        base = base.where("status", "=", 7).where(sql<boolean>`NOT ${brokenPromise(today)}`);
      else if (query.filter !== "all") base = base.where("status", "=", Number(query.filter));
      return base
        .orderBy(field, dir)
        .orderBy("id", dir)
        .limit(INVOICE_COUNT_CAP + 1);
    })
    .selectFrom("matching")
    .selectAll()
    .select([
      sql<number>`count(*) OVER ()`.as("total"),
      sql<number>`coalesce(sum("balanceCents") OVER (), 0)`.as("totalBalance"),
    ])
    .orderBy(alias, dir)
    .orderBy("id", dir)
    .limit(INVOICE_PAGE_SIZE)
    .offset((query.page - 1) * INVOICE_PAGE_SIZE)
    .execute();
  const first = rows[0];
  const total = first ? Number(first.total) : 0;
  return {
    items: rows.map(({ total: _t, totalBalance: _b, ...invoice }) => ({
      ...invoice,
      daysOverdue: Number(invoice.daysOverdue),
    })),
    // Past the last page (or the cap) there is no row to carry the totals: the page says none match.
    total: Math.min(total, INVOICE_COUNT_CAP),
    capped: total > INVOICE_COUNT_CAP,
    balanceCents: first && total <= INVOICE_COUNT_CAP ? Number(first.totalBalance) : null,
  };
}

export async function findInvoice(scope: Scope, invoiceId: unknown) {
  if (typeof invoiceId !== "string" || !/^[0-9a-f-]{36}$/i.test(invoiceId)) return null;
  const db = await getDb();
  const today = await businessTodayOf(db, scope.businessId);
  const invoice = await db
    .selectFrom("invoices")
    .select([...INVOICE_COLUMNS, effectiveStatus(today), "dispute_reason as disputeReason", daysOverdue(today)])
    .where("business_id", "=", scope.businessId)
    .where("account_id", "=", scope.accountId)
    .where("id", "=", invoiceId)
    .executeTakeFirst();
  if (!invoice) return null;
  const payments = await db
    .selectFrom("payment_allocations as a")
    .innerJoin("payments as p", "p.id", "a.payment_id")
    .select(["p.reference", "p.status", "p.completed_at as completedAt", "a.amount_cents as amountCents", "p.method"])
    .where("a.business_id", "=", scope.businessId)
    .where("a.invoice_id", "=", invoice.id)
    .where("p.status", "in", ["succeeded", "promised"])
    .orderBy("p.created_at", "desc")
    .limit(50)
    .execute();
  return { ...invoice, daysOverdue: Number(invoice.daysOverdue), payments };
}

/** The account's latest payments with the invoices each paid: one statement, whatever the count. */
export async function listPayments(scope: Scope, limit = 10) {
  const db = await getDb();
  const payments = await db
    .selectFrom("payments")
    .select((eb) => [
      "id",
      "reference",
      "status",
      "method",
      "amount_cents as amountCents",
      "card_brand as cardBrand",
      "card_last4 as cardLast4",
      "promise_date as promiseDate",
      "created_at as createdAt",
      eb
        .selectFrom("payment_allocations as a")
        .innerJoin("invoices as i", "i.id", "a.invoice_id")
        .select(
          sql<
            { number: string; amountCents: number }[]
          >`coalesce(json_agg(json_build_object('number', i.number, 'amountCents', a.amount_cents) ORDER BY i.number), '[]'::json)`.as(
            "list",
          ),
        )
        .whereRef("a.payment_id", "=", "payments.id")
        .where("a.business_id", "=", scope.businessId)
        .as("allocations"),
    ])
    .where("business_id", "=", scope.businessId)
    .where("account_id", "=", scope.accountId)
    // "submitted": a PayTo payment the bank is still processing, shown as pending.
    .where("status", "in", ["succeeded", "promised", "failed", "submitted"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return payments.map((payment) => ({ ...payment, allocations: payment.allocations ?? [] }));
}

/** Our references: PAY-<10 hex> for payments made here, PAYID-<12 hex> for money received at a PayID. */
const PAYMENT_REFERENCE = /^(?:PAY-[0-9A-F]{10}|PAYID-[0-9A-F]{12})$/;

/** A payment for its receipt, by reference, only on this account. */
export async function findPaymentByReference(businessId: string, reference: string) {
  if (!PAYMENT_REFERENCE.test(reference)) return null;
  return findPayment(businessId, "reference", reference);
}

/** A payment for its receipt by id (a receipt link's payment, decision 076), of this business only. */
export async function findPaymentById(businessId: string, paymentId: string) {
  if (!isUuid(paymentId)) return null;
  return findPayment(businessId, "id", paymentId);
}

async function findPayment(businessId: string, by: "id" | "reference", value: string) {
  const db = await getDb();
  const payment = await db
    .selectFrom("payments")
    .selectAll()
    .where("business_id", "=", businessId)
    .where(by, "=", value)
    .executeTakeFirst();
  if (!payment) return null;
  const allocations = await db
    .selectFrom("payment_allocations as a")
    .innerJoin("invoices as i", "i.id", "a.invoice_id")
    .select([
      "i.number",
      "a.invoice_id as invoiceId",
      "a.amount_cents as amountCents",
      "a.discount_cents as discountCents",
      "a.late_fee_cents as lateFeeCents",
      "a.balance_before_cents as balanceBeforeCents",
    ])
    .where("a.business_id", "=", businessId)
    .where("a.payment_id", "=", payment.id)
    .orderBy("i.number")
    .execute();
  return { ...payment, allocations };
}
