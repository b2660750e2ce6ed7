import { sql } from "kysely";
import { MAX_MONEY_CENTS } from "~/lib/format";
import { UUID } from "~/lib/ids";
import { paymentRequestState } from "~/lib/payment-request-state";
import { endRecord } from "../links/link-lifecycle.server";
import { insertWithReference } from "../links/reference.server";
import { now as clockNow } from "../platform/clock.server";
import { businessTodayOf } from "../host/business-day.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import { clip, findAccount, resolveRecipients } from "./lookups.server";
import type { PaymentRequestView } from "./payment-request-view.server";
import { getPaymentRequest } from "./queries.server";
import { CreateSchema, DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS } from "./request-input.server";
import { lockForChange, type BeforeCommit } from "./request-rows.server";

/**
 * Emailed payment requests, the business's side (issue 14; decision 032): create and cancel, and
 * the link page's "opened". Sending, resending and reminding are in `sending.server.ts`; reading
 * in `queries.server.ts`. The back-office API and the CLI call these functions and nothing else;
 * the link pages call `getPaymentRequest` and `markPaymentRequestOpened`.
 *
 * A request asks one account for either a set of its payable invoices (each for its balance
 * at that moment) or a stated amount. Every email carries a link token of its own (purpose
 * `payment-request`, subject the request, bound to the recipient): sending again revokes the
 * recipient's earlier links, so a forwarded or leaked old email stops working.
 */

/** Invoice statuses a request may ask for (spec §3 codes): Open, Overdue, Promise, Broken Promise. */
const PAYABLE_INVOICE_STATUSES = [1, 3, 7, 8];
const DAY_MS = 86_400_000;

/**
 * Creates a request for one account of the business, in one transaction; nothing is sent.
 * Throws RequestProblem("validation") with a message per field for anything wrong.
 */
export async function createPaymentRequest(
  businessId: string,
  input: unknown,
  options: { apiKeyId?: string | null; now?: Date; beforeCommit?: BeforeCommit } = {},
): Promise<PaymentRequestView> {
  const parsed = CreateSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const data = parsed.data;
  const now = options.now ?? clockNow();
  const fields: Record<string, string> = {};
  const hasInvoices = data.invoices != null;
  const hasAmount = data.amountCents != null;
  if (hasInvoices === hasAmount) {
    fields[hasInvoices ? "amountCents" : "invoices"] =
      "Give either invoices (one or more of the account's invoices) or amountCents with a description, not both.";
  }
  if (hasAmount && !data.description) fields.description = "Say what the amount is for.";
  if (data.expiresAt != null && data.expiresInDays != null) {
    fields.expiresInDays = "Give expiresAt or expiresInDays, not both.";
  }
  if (data.minPartPaymentCents != null && !data.allowPartPayment) {
    fields.minPartPaymentCents = "A smallest part-payment needs allowPartPayment: true.";
  }
  const expiresAt =
    data.expiresAt != null
      ? new Date(data.expiresAt)
      : new Date(now.getTime() + (data.expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS);
  if (expiresAt.getTime() <= now.getTime()) fields.expiresAt = "The expiry must be in the future.";
  else if (expiresAt.getTime() > now.getTime() + MAX_EXPIRY_DAYS * DAY_MS) {
    fields.expiresAt = `The expiry must be within ${MAX_EXPIRY_DAYS} days.`;
  }
  if (Object.keys(fields).length) throw invalid(fields);

  const db = await getDb();
  const requestId = await db.transaction().execute(async (tx) => {
    const business = await tx
      .selectFrom("businesses")
      .select("currency")
      .where("id", "=", businessId)
      .executeTakeFirst();
    if (!business) throw new RequestProblem("not-found", "No such business.");
    const account = await findAccount(tx, businessId, data.account);
    if (!account) throw invalid({ account: `No account "${clip(data.account)}" at this business.` });

    const invoices = hasInvoices ? await resolveInvoices(tx, businessId, account.id, data.invoices!) : [];
    const recipients = await resolveRecipients(tx, businessId, account, data.recipients);
    const amountCents = hasInvoices
      ? invoices.reduce((sum, invoice) => sum + invoice.balanceCents, 0)
      : data.amountCents!;
    if (amountCents > MAX_MONEY_CENTS)
      throw invalid({ invoices: "Together these invoices are too large for one request." });
    if (data.minPartPaymentCents != null && data.minPartPaymentCents > amountCents) {
      throw invalid({ minPartPaymentCents: "The smallest part-payment cannot be more than the amount asked for." });
    }
    const dueDate =
      data.dueDate ??
      (hasInvoices
        ? invoices.reduce((latest, invoice) => (invoice.dueDate > latest ? invoice.dueDate : latest), "")
        : null);

    const values = {
      business_id: businessId,
      account_id: account.id,
      kind: hasInvoices ? ("invoices" as const) : ("amount" as const),
      description: data.description ?? "",
      currency: business.currency,
      amount_cents: amountCents,
      allow_part_payment: data.allowPartPayment ?? false,
      min_part_payment_cents: data.allowPartPayment ? (data.minPartPaymentCents ?? null) : null,
      due_date: dueDate || null,
      expires_at: expiresAt,
      created_by_api_key: options.apiKeyId ?? null,
    };
    const inserted = await insertWithReference(tx, "payment_requests", "PR", values, "createPaymentRequest");

    if (invoices.length) {
      await tx
        .insertInto("payment_request_invoices")
        .values(
          invoices.map((invoice) => ({
            request_id: inserted.id,
            invoice_id: invoice.id,
            business_id: businessId,
            amount_cents: invoice.balanceCents,
          })),
        )
        .execute();
    }
    await tx
      .insertInto("payment_request_recipients")
      .values(
        recipients.map((contact) => ({
          request_id: inserted.id,
          contact_id: contact.id,
          business_id: businessId,
          email: contact.email,
        })),
      )
      .execute();
    await options.beforeCommit?.(tx, inserted.id);
    return inserted.id;
  });
  const view = await getPaymentRequest(businessId, requestId, { now });
  if (!view) throw new Error("createPaymentRequest: the new request is not readable");
  return view;
}

/** Effective status (a promise whose date has passed unpaid is a Broken Promise: invoices.server). */
const effectiveStatus = (today: string) =>
  sql<number>`CASE WHEN invoices.status = 7 AND invoices.promise_date < ${today}::date AND invoices.balance_cents > 0 THEN 8 ELSE invoices.status END`;

async function resolveInvoices(db: Db, businessId: string, accountId: string, wanted: string[]) {
  const ids = wanted.filter((value) => UUID.test(value));
  const rows = await db
    .selectFrom("invoices")
    .select([
      "id",
      "number",
      "due_date as dueDate",
      "balance_cents as balanceCents",
      effectiveStatus(await businessTodayOf(db, businessId)).as("status"),
    ])
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where((eb) => eb.or([eb("number", "in", wanted), ...(ids.length ? [eb("id", "in", ids)] : [])]))
    .execute();
  const fields: Record<string, string> = {};
  const chosen = new Map<string, (typeof rows)[number]>();
  wanted.forEach((value, index) => {
    const row = rows.find((r) => r.number === value) ?? rows.find((r) => r.id === value.toLowerCase());
    if (!row) {
      fields[`invoices.${index}`] = `No invoice "${clip(value)}" on this account.`;
    } else if (!PAYABLE_INVOICE_STATUSES.includes(Number(row.status)) || row.balanceCents <= 0) {
      fields[`invoices.${index}`] =
        `Invoice ${row.number} has nothing to pay (it is closed, on hold, disputed or paid).`;
    } else {
      // Named twice (by id and by number, say): asked for once.
      chosen.set(row.id, row);
    }
  });
  if (Object.keys(fields).length) throw invalid(fields);
  return [...chosen.values()];
}

/**
 * Cancels a request and revokes every link to it. Cancelling a cancelled request changes
 * nothing (and says so by its state); a paid request cannot be cancelled.
 */
export async function cancelPaymentRequest(
  businessId: string,
  idOrReference: string,
  options: { now?: Date; beforeCommit?: BeforeCommit } = {},
): Promise<PaymentRequestView> {
  const now = options.now ?? clockNow();
  const found = await getPaymentRequest(businessId, idOrReference, { now });
  if (!found) throw new RequestProblem("not-found", "No such payment request.");
  await endRecord(
    "payment_requests",
    { businessId, purpose: "payment-request" },
    {
      lock: (tx) => lockForChange(tx, businessId, found.id),
      check: (row) => {
        // Paid as it reads: stored, or nothing owing on its invoices any more.
        if (row.status !== "cancelled" && paymentRequestState(row, now) === "paid") {
          throw new RequestProblem("conflict", "The request is paid: it cannot be cancelled.");
        }
        return row.status !== "cancelled";
      },
      change: () => ({ set: { status: "cancelled", cancelled_at: now } }),
      beforeCommit: options.beforeCommit,
    },
  );
  return (await getPaymentRequest(businessId, found.id, { now }))!;
}

/**
 * The link page opened the request: the first time is kept, later openings change nothing.
 * Scoped to the link's business like every other read and write of a request.
 */
export async function markPaymentRequestOpened(businessId: string, requestId: string): Promise<void> {
  if (!UUID.test(requestId) || !UUID.test(businessId)) return;
  const db = await getDb();
  await db
    .updateTable("payment_requests")
    .set({ opened_at: sql`now()` })
    .where("business_id", "=", businessId)
    .where("id", "=", requestId)
    .where("opened_at", "is", null)
    .execute();
}
