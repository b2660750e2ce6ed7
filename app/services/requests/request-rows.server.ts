import { sql } from "kysely";
import { paymentRequestState, requestOwingCents } from "~/lib/payment-request-state";
import type { Db } from "../platform/db.server";
import type { PaymentRequestView } from "./payment-request-view.server";

/**
 * A payment request's row and its view (issue 14; decision 032), shared by the commands, the
 * sending and the queries: the statement that reads requests, the views made from its rows (their
 * invoices and recipients in one statement each), and the lock a change takes.
 */

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
export type BeforeCommit = (tx: Db, requestId: string) => Promise<void>;

export type RequestRow = {
  id: string;
  reference: string;
  accountId: string;
  accountNumber: string;
  accountName: string;
  kind: "invoices" | "amount";
  description: string;
  currency: string;
  amountCents: number;
  paidCents: number;
  allowPartPayment: boolean;
  minPartPaymentCents: number | null;
  dueDate: string | null;
  expiresAt: Date;
  status: "created" | "sent" | "paid" | "cancelled";
  sentAt: Date | null;
  openedAt: Date | null;
  paidAt: Date | null;
  cancelledAt: Date | null;
  createdAt: Date;
  /** created_at to the microsecond, for keyset paging (a JS Date keeps only milliseconds). */
  cursorAt: string;
};

export function selectRequests(db: Db, businessId: string) {
  return db
    .selectFrom("payment_requests as pr")
    .innerJoin("accounts as a", (join) =>
      join.onRef("a.id", "=", "pr.account_id").onRef("a.business_id", "=", "pr.business_id"),
    )
    .select([
      "pr.id",
      "pr.reference",
      "a.id as accountId",
      "a.number as accountNumber",
      "a.name as accountName",
      "pr.kind",
      "pr.description",
      "pr.currency",
      "pr.amount_cents as amountCents",
      "pr.paid_cents as paidCents",
      "pr.allow_part_payment as allowPartPayment",
      "pr.min_part_payment_cents as minPartPaymentCents",
      "pr.due_date as dueDate",
      "pr.expires_at as expiresAt",
      "pr.status",
      "pr.sent_at as sentAt",
      "pr.opened_at as openedAt",
      "pr.paid_at as paidAt",
      "pr.cancelled_at as cancelledAt",
      "pr.created_at as createdAt",
      sql<string>`to_char(pr.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
    ])
    .where("pr.business_id", "=", businessId);
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The views of these requests: their invoices and recipients in one statement each. */
export async function toViews(
  db: Db,
  businessId: string,
  rows: RequestRow[],
  now: Date,
): Promise<PaymentRequestView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [invoices, recipients] = await Promise.all([
    db
      .selectFrom("payment_request_invoices as ri")
      .innerJoin("invoices as i", (join) =>
        join.onRef("i.id", "=", "ri.invoice_id").onRef("i.business_id", "=", "ri.business_id"),
      )
      .select([
        "ri.request_id as requestId",
        "i.id",
        "i.number",
        "ri.amount_cents as amountCents",
        "i.balance_cents as balanceCents",
      ])
      .where("ri.business_id", "=", businessId)
      .where("ri.request_id", "in", ids)
      .orderBy("i.due_date")
      .orderBy("i.number")
      .execute(),
    db
      .selectFrom("payment_request_recipients as r")
      .select((eb) => [
        "r.request_id as requestId",
        "r.email",
        "r.send_count as sendCount",
        "r.last_sent_at as lastSentAt",
        "r.remind_count as remindCount",
        "r.last_reminded_at as lastRemindedAt",
        // Opened through any link this recipient was sent (an older one before a resend counts).
        eb
          .selectFrom("link_tokens as lt")
          .select((inner) => inner.fn.min("lt.first_opened_at").as("openedAt"))
          .where("lt.business_id", "=", businessId)
          .where("lt.purpose", "=", "payment-request")
          .whereRef("lt.subject_id", "=", "r.request_id")
          .whereRef("lt.contact_id", "=", "r.contact_id")
          .as("openedAt"),
      ])
      .where("r.business_id", "=", businessId)
      .where("r.request_id", "in", ids)
      .orderBy("r.email")
      .execute(),
  ]);
  return rows.map((row) => {
    const own = invoices.filter((invoice) => invoice.requestId === row.id);
    const owingCents = requestOwingCents(
      row,
      own.map((invoice) => ({ askedCents: invoice.amountCents, balanceCents: invoice.balanceCents })),
    );
    const state = paymentRequestState({ ...row, owingCents }, now);
    return {
      id: row.id,
      reference: row.reference,
      account: { id: row.accountId, number: row.accountNumber, name: row.accountName },
      kind: row.kind,
      description: row.description,
      amountCents: row.amountCents,
      paidCents: row.paidCents,
      remainingCents: state === "paid" ? 0 : owingCents,
      currency: row.currency,
      dueDate: row.dueDate,
      expiresAt: iso(row.expiresAt)!,
      allowPartPayment: row.allowPartPayment,
      minPartPaymentCents: row.minPartPaymentCents,
      state,
      invoices: own.map(({ requestId: _r, ...invoice }) => invoice),
      recipients: recipients
        .filter((recipient) => recipient.requestId === row.id)
        .map((recipient) => ({
          email: recipient.email,
          sendCount: recipient.sendCount,
          lastSentAt: iso(recipient.lastSentAt),
          opened: recipient.openedAt !== null,
          openedAt: iso(recipient.openedAt as Date | null),
          remindCount: recipient.remindCount,
          lastRemindedAt: iso(recipient.lastRemindedAt),
        })),
      createdAt: iso(row.createdAt)!,
      sentAt: iso(row.sentAt),
      openedAt: iso(row.openedAt),
      paidAt: iso(row.paidAt),
      cancelledAt: iso(row.cancelledAt),
    };
  });
}

/**
 * Locks a request for send or cancel (FOR UPDATE) and reads what its state needs, owing
 * included. No invoice is locked: a payment's claim locks the request before its invoices, and
 * this only reads them.
 */
export async function lockForChange(tx: Db, businessId: string, requestId: string) {
  const row = await tx
    .selectFrom("payment_requests")
    .select([
      "id",
      "kind",
      "status",
      "expires_at as expiresAt",
      "opened_at as openedAt",
      "amount_cents as amountCents",
      "paid_cents as paidCents",
    ])
    .where("business_id", "=", businessId)
    .where("id", "=", requestId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const invoices =
    row.kind === "invoices"
      ? await tx
          .selectFrom("payment_request_invoices as ri")
          .innerJoin("invoices as i", (join) =>
            join.onRef("i.id", "=", "ri.invoice_id").onRef("i.business_id", "=", "ri.business_id"),
          )
          .select(["ri.amount_cents as askedCents", "i.balance_cents as balanceCents"])
          .where("ri.business_id", "=", businessId)
          .where("ri.request_id", "=", row.id)
          .execute()
      : [];
  const amountCents = Number(row.amountCents);
  const paidCents = Number(row.paidCents);
  const owingCents = requestOwingCents(
    { kind: row.kind, amountCents, paidCents },
    invoices.map((i) => ({ askedCents: Number(i.askedCents), balanceCents: Number(i.balanceCents) })),
  );
  return { ...row, amountCents, paidCents, owingCents };
}
