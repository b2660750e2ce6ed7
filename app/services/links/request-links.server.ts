import { sql } from "kysely";
import {
  isPayableState,
  paymentRequestState,
  requestOwingCents,
  type PaymentRequestState,
} from "~/lib/payment-request-state";
import { getDb } from "../platform/database.server";
import { PAYABLE_STATUSES } from "../payments/payment-records.server";
import { UUID } from "~/lib/ids";

/**
 * A payment request as its payer sees it (issue 14; decision 031): the request, the invoices
 * it covers with what is left of each now, and what is still owing on it — the same figures the
 * payment engine checks under its lock (`submitPayment`), read without one. Two statements.
 */
export type PayerRequest = {
  id: string;
  accountId: string;
  accountNumber: string;
  accountName: string;
  reference: string;
  kind: "invoices" | "amount";
  description: string;
  currency: string;
  amountCents: number;
  paidCents: number;
  allowPartPayment: boolean;
  minPartPaymentCents: number | null;
  dueDate: string | null;
  expiresAt: Date;
  state: PaymentRequestState;
  /** In due-date order: the order a part-payment pays them in. */
  invoices: {
    id: string;
    number: string;
    dueDate: string;
    /** What the request asked of it. */
    askedCents: number;
    balanceCents: number;
    /** What a payment of this request may take of it now (0 once paid, closed or held). */
    payableCents: number;
  }[];
  /** What a payment may take now: the invoices' payable parts, or the amount less paid and held. */
  remainingCents: number;
  /** What is still owing, whatever paid the rest (decision 032): all its invoices, payable now or not. */
  owingCents: number;
  /** Of what is owing, what is on invoices that cannot be paid online now (on hold, disputed, closed). */
  notPayableCents: number;
};

const REFERENCE = /^PR-[0-9A-Z]{6,12}$/;

/** Payments still holding money (not answered, answer lost, PayTo waiting to settle). */
const HOLDING = ["pending", "unknown", "submitted"] as const;

/**
 * The request of this business by id (a link's subject) or by reference (the signed-in page),
 * or null. The caller decides who may see it: a link bound to it, or a contact of its account.
 */
export async function loadPayerRequest(
  businessId: string,
  by: { id: string } | { reference: string },
  // eslint-disable-next-line no-restricted-syntax -- A link token's lifetime is a credential's: it keeps the system's time (decision 068).
  now = new Date(),
): Promise<PayerRequest | null> {
  if ("id" in by ? !UUID.test(by.id) : !REFERENCE.test(by.reference)) return null;
  const db = await getDb();
  let query = db
    .selectFrom("payment_requests")
    .innerJoin("accounts", "accounts.id", "payment_requests.account_id")
    .select((eb) => [
      "payment_requests.id",
      "payment_requests.account_id as accountId",
      "accounts.number as accountNumber",
      "accounts.name as accountName",
      "payment_requests.reference",
      "payment_requests.kind",
      "payment_requests.description",
      "payment_requests.currency",
      "payment_requests.amount_cents as amountCents",
      "payment_requests.paid_cents as paidCents",
      "payment_requests.allow_part_payment as allowPartPayment",
      "payment_requests.min_part_payment_cents as minPartPaymentCents",
      sql<string | null>`to_char(payment_requests.due_date, 'YYYY-MM-DD')`.as("dueDate"),
      "payment_requests.expires_at as expiresAt",
      "payment_requests.status",
      "payment_requests.opened_at as openedAt",
      // What in-flight payments hold of a stated amount (the engine's reservedOfRequest).
      eb
        .selectFrom("payments")
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number>("subtotal_cents"), inner.lit(0)).as("held"))
        .whereRef("payments.payment_request_id", "=", "payment_requests.id")
        .where("payments.status", "in", [...HOLDING])
        .as("heldCents"),
    ])
    .where("payment_requests.business_id", "=", businessId)
    .where("accounts.business_id", "=", businessId);
  query =
    "id" in by
      ? query.where("payment_requests.id", "=", by.id)
      : query.where("payment_requests.reference", "=", by.reference);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const invoices =
    row.kind === "invoices"
      ? await db
          .selectFrom("payment_request_invoices as ri")
          .innerJoin("invoices as i", "i.id", "ri.invoice_id")
          .select((eb) => [
            "i.id",
            "i.number",
            sql<string>`to_char(i.due_date, 'YYYY-MM-DD')`.as("dueDate"),
            "ri.amount_cents as askedCents",
            "i.balance_cents as balanceCents",
            "i.status",
            eb
              .selectFrom("payment_allocations as a")
              .innerJoin("payments as p", "p.id", "a.payment_id")
              .select((inner) => inner.fn.coalesce(inner.fn.sum<number>("a.amount_cents"), inner.lit(0)).as("held"))
              .whereRef("a.invoice_id", "=", "i.id")
              .where("a.business_id", "=", businessId)
              .where("p.status", "in", [...HOLDING])
              .as("heldCents"),
          ])
          .where("ri.request_id", "=", row.id)
          .where("ri.business_id", "=", businessId)
          .where("i.business_id", "=", businessId)
          .orderBy("i.due_date")
          .orderBy("i.number")
          .execute()
      : [];
  let notPayableCents = 0;
  const listed = invoices.map((invoice) => {
    const balance = Number(invoice.balanceCents);
    const asked = Number(invoice.askedCents);
    const payable = (PAYABLE_STATUSES as readonly number[]).includes(invoice.status) && balance > 0;
    if (!payable) notPayableCents += Math.max(0, Math.min(asked, balance));
    const available = balance - Number(invoice.heldCents ?? 0);
    return {
      id: invoice.id,
      number: invoice.number,
      dueDate: invoice.dueDate,
      askedCents: asked,
      balanceCents: balance,
      payableCents: payable ? Math.max(0, Math.min(asked, available)) : 0,
    };
  });
  const amountCents = Number(row.amountCents);
  const paidCents = Number(row.paidCents);
  const kind = row.kind as PayerRequest["kind"];
  // What is owing, whatever paid it (decision 032): all its invoices, payable now or not.
  const owingCents = requestOwingCents({ kind, amountCents, paidCents }, listed);
  const remainingCents =
    row.kind === "invoices"
      ? listed.reduce((sum, invoice) => sum + invoice.payableCents, 0)
      : Math.max(0, amountCents - paidCents - Number(row.heldCents ?? 0));
  return {
    id: row.id,
    accountId: row.accountId,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    reference: row.reference,
    kind,
    description: row.description,
    currency: row.currency,
    amountCents,
    paidCents,
    allowPartPayment: row.allowPartPayment,
    minPartPaymentCents: row.minPartPaymentCents === null ? null : Number(row.minPartPaymentCents),
    dueDate: row.dueDate,
    expiresAt: new Date(row.expiresAt),
    state: paymentRequestState(
      {
        status: row.status as "created" | "sent" | "paid" | "cancelled",
        expiresAt: row.expiresAt,
        openedAt: row.openedAt,
        amountCents,
        paidCents,
        owingCents,
      },
      now,
    ),
    invoices: listed,
    remainingCents,
    owingCents,
    notPayableCents,
  };
}

/** Why a request takes no money now, for the page that says so. */
export type ClosedReason = "paid" | "expired" | "cancelled" | "processing" | "onHold";

/**
 * Why a request takes no money now, or null while it does. Paid only when it is: stored paid, or
 * nothing it asked for is owing (its invoices paid some other way too). Something still owing
 * that cannot be paid now is either held by payments still being processed (`processing`: if
 * one fails, the request takes money again) or on invoices that cannot be paid online — on
 * hold, disputed — which only the business can help with (`onHold`).
 */
export function closedReason(request: PayerRequest): ClosedReason | null {
  if (request.state === "cancelled") return "cancelled";
  if (request.state === "paid") return "paid";
  if (request.state === "expired") return "expired";
  if (isPayableState(request.state) && request.remainingCents > 0) return null;
  return request.notPayableCents > 0 ? "onHold" : "processing";
}

/**
 * A payment of `cents` spread over a request's invoices, the earliest due first, each taking
 * at most what the request may still take of it. The engine checks the same limits again
 * under its lock; a sum it cannot place returns null.
 */
export function spreadOverInvoices(request: PayerRequest, cents: number) {
  const selection: { invoiceId: string; amountCents: number }[] = [];
  let left = cents;
  for (const invoice of request.invoices) {
    if (left <= 0) break;
    const take = Math.min(invoice.payableCents, left);
    if (take <= 0) continue;
    selection.push({ invoiceId: invoice.id, amountCents: take });
    left -= take;
  }
  return left === 0 ? selection : null;
}

/** The business's contact details for a payer whose link no longer takes money. */
export async function businessContact(businessId: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("businesses")
    .select(["support_email as email", "support_phone as phone"])
    .where("id", "=", businessId)
    .executeTakeFirst();
  return { email: row?.email ?? null, phone: row?.phone ?? null };
}

/** The payment request a payment was made against, for its receipt (reference and description). */
export async function paymentRequestOf(businessId: string, requestId: string | null) {
  if (!requestId) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("payment_requests")
    .select(["reference", "description"])
    .where("business_id", "=", businessId)
    .where("id", "=", requestId)
    .executeTakeFirst();
  return row ?? null;
}

/** How many of the newest requests a brand preview looks through for one that still takes money. */
const PREVIEW_CANDIDATES = 20;

/**
 * The business's newest request that still takes money, for the brand preview of the link's page
 * (decision 082), or null when it has none. Reads only.
 */
export async function previewableRequest(businessId: string): Promise<PayerRequest | null> {
  const db = await getDb();
  const candidates = await db
    .selectFrom("payment_requests")
    .select("id")
    .where("business_id", "=", businessId)
    .where("status", "in", ["created", "sent"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PREVIEW_CANDIDATES)
    .execute();
  for (const { id } of candidates) {
    const request = await loadPayerRequest(businessId, { id });
    if (request && closedReason(request) === null) return request;
  }
  return null;
}
