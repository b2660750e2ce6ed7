import { sql, type ExpressionBuilder } from "kysely";
import { z } from "zod";
import { ISO_DATE_MAX, ISO_INSTANT_MAX } from "~/lib/input-bounds";
import { MAX_MONEY_CENTS } from "~/lib/format";
import {
  isPayableState,
  paymentRequestState,
  PAYMENT_REQUEST_STATES,
  requestOwingCents,
  type PaymentRequestState,
} from "~/lib/payment-request-state";
import { sendContactMail } from "../communication/contact-mail.server";
import { contactsWantingEmail } from "../communication/preferences.server";
import { publicLink } from "../host/host.server";
import {
  deliverLinkEmail,
  endLinkedRecord,
  linkSender,
  reissueLink,
  type Delivery,
} from "../links/link-lifecycle.server";
import { createLinkToken, revokeLinkTokens } from "../links/link-tokens.server";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { insertWithReference } from "../links/reference.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { DB } from "../platform/db-schema.server";
import { logger } from "../platform/logger.server";
import { clip, findAccount, resolveRecipients } from "./lookups.server";
import { UUID } from "~/lib/ids";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import type { PaymentRequestView } from "./payment-request-view.server";
import { renderPaymentRequestEmail } from "./request-email.server";

export type { PaymentRequestView } from "./payment-request-view.server";

/**
 * Emailed payment requests, the business's side (issue 14; decision 032): create, send,
 * resend, cancel, list and read. The back-office API and the CLI call these functions and
 * nothing else; the link pages call `getPaymentRequest` and `markPaymentRequestOpened`.
 *
 * A request asks one account for either a set of its payable invoices (each for its balance
 * at that moment) or a stated amount. Every email carries a link token of its own (purpose
 * `payment-request`, subject the request, bound to the recipient): sending again revokes the
 * recipient's earlier links, so a forwarded or leaked old email stops working.
 */
export const MAX_INVOICES_PER_REQUEST = 50;
export const MAX_RECIPIENTS_PER_REQUEST = 10;
export const DEFAULT_EXPIRY_DAYS = 14;
export const MAX_EXPIRY_DAYS = 90;
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../links/list-limits.server";

/** Invoice statuses a request may ask for (spec §3 codes): Open, Overdue, Promise, Broken Promise. */
const PAYABLE_INVOICE_STATUSES = [1, 3, 7, 8];
const DAY_MS = 86_400_000;
const REFERENCE = /^PR-[0-9A-Z]{6,12}$/;

// ---------------------------------------------------------------------------------------------
// Input

const text = (what: string, max: number) =>
  z
    .string({ required_error: `Give the ${what}.`, invalid_type_error: `Give the ${what} as text.` })
    .trim()
    .min(1, `Give the ${what}.`)
    .max(max, `That is too long for the ${what} (at most ${max} characters).`);

const cents = (what: string) =>
  z
    .number({ invalid_type_error: `Give ${what} as a whole number of cents, e.g. 12050 for 120.50.` })
    .int(`Give ${what} as a whole number of cents, e.g. 12050 for 120.50.`)
    .positive(`${what[0]!.toUpperCase()}${what.slice(1)} must be more than zero.`)
    .max(MAX_MONEY_CENTS, `${what[0]!.toUpperCase()}${what.slice(1)} is too large.`);

/** A real calendar date, "YYYY-MM-DD" (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    year <= 2100 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

const calendarDate = z
  .string({ invalid_type_error: "Give the date as text, e.g. 2026-12-15." })
  .max(ISO_DATE_MAX, "Give a real date as YYYY-MM-DD, e.g. 2026-12-15.")
  .refine(isCalendarDate, "Give a real date as YYYY-MM-DD, e.g. 2026-12-15.");

const CreateSchema = z
  .object({
    account: text("account's id or number", 100),
    invoices: z
      .array(text("invoice's id or number", 100), { invalid_type_error: "Give a list of invoice ids or numbers." })
      .min(1, "Name at least one invoice.")
      .max(MAX_INVOICES_PER_REQUEST, `At most ${MAX_INVOICES_PER_REQUEST} invoices in one request.`)
      .nullish(),
    amountCents: cents("the amount").nullish(),
    description: z
      .string({ invalid_type_error: "Give the description as text." })
      .trim()
      .max(500, "At most 500 characters.")
      .nullish(),
    dueDate: calendarDate.nullish(),
    expiresAt: z
      .string({ invalid_type_error: "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00." })
      .max(ISO_INSTANT_MAX, "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00.")
      .datetime({ offset: true, message: "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00." })
      .nullish(),
    expiresInDays: z
      .number({ invalid_type_error: "Give a whole number of days." })
      .int("Give a whole number of days.")
      .min(1, "At least 1 day.")
      .max(MAX_EXPIRY_DAYS, `At most ${MAX_EXPIRY_DAYS} days.`)
      .nullish(),
    allowPartPayment: z.boolean({ invalid_type_error: "Give true or false." }).nullish(),
    minPartPaymentCents: cents("the smallest part-payment").nullish(),
    recipients: z
      .array(text("recipient's contact id or email", 254), {
        required_error: "Name at least one contact of the account to send the request to.",
        invalid_type_error: "Give a list of contact ids or emails.",
      })
      .min(1, "Name at least one contact of the account to send the request to.")
      .max(MAX_RECIPIENTS_PER_REQUEST, `At most ${MAX_RECIPIENTS_PER_REQUEST} recipients.`),
  })
  .strict();

export type CreatePaymentRequestInput = z.input<typeof CreateSchema>;

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
type BeforeCommit = (tx: Db, requestId: string) => Promise<void>;

// ---------------------------------------------------------------------------------------------
// Create

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
const effectiveStatus = sql<number>`CASE WHEN invoices.status = 7 AND invoices.promise_date < current_date AND invoices.balance_cents > 0 THEN 8 ELSE invoices.status END`;

async function resolveInvoices(db: Db, businessId: string, accountId: string, wanted: string[]) {
  const ids = wanted.filter((value) => UUID.test(value));
  const rows = await db
    .selectFrom("invoices")
    .select(["id", "number", "due_date as dueDate", "balance_cents as balanceCents", effectiveStatus.as("status")])
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

// ---------------------------------------------------------------------------------------------
// Read

type RequestRow = {
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

function selectRequests(db: Db, businessId: string) {
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
async function toViews(db: Db, businessId: string, rows: RequestRow[], now: Date): Promise<PaymentRequestView[]> {
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
 * One request of the business by its id or its reference (PR-…), or null: another business's
 * request, a malformed id and no request at all are the same "not found".
 */
export async function getPaymentRequest(
  businessId: string,
  idOrReference: unknown,
  options: { now?: Date } = {},
): Promise<PaymentRequestView | null> {
  if (typeof idOrReference !== "string") return null;
  const byId = UUID.test(idOrReference);
  const reference = idOrReference.toUpperCase();
  if (!byId && !REFERENCE.test(reference)) return null;
  const db = await getDb();
  const row = await selectRequests(db, businessId)
    .where(byId ? "pr.id" : "pr.reference", "=", byId ? idOrReference.toLowerCase() : reference)
    .executeTakeFirst();
  if (!row) return null;
  const [view] = await toViews(db, businessId, [row as RequestRow], options.now ?? clockNow());
  return view ?? null;
}

export type ListQuery = {
  state?: string | null;
  /** The account's number or id. */
  account?: string | null;
  /** The account's id (as `account`, for callers that hold an id). */
  accountId?: string | null;
  /** Only requests addressed to this contact (a customer-style contact's own page). */
  contactId?: string | null;
  limit?: number | null;
  cursor?: string | null;
};

/**
 * The business's requests, newest first, a page at a time (keyset on created_at and id along
 * payment_requests_business_idx / _account_idx): three statements a page, whatever its size.
 * `nextCursor` is null on the last page.
 */
export async function listPaymentRequests(
  businessId: string,
  query: ListQuery = {},
  options: { now?: Date } = {},
): Promise<{ items: PaymentRequestView[]; nextCursor: string | null }> {
  const now = options.now ?? clockNow();
  const fields: Record<string, string> = {};
  const state = query.state || null;
  if (state !== null && !(PAYMENT_REQUEST_STATES as readonly string[]).includes(state)) {
    fields.state = `Use one of ${PAYMENT_REQUEST_STATES.join(", ")}.`;
  }
  const { limit, cursor } = listPage(query, fields);
  if (Object.keys(fields).length) throw invalid(fields);

  const db = await getDb();
  let accountId: string | null = null;
  if (query.accountId) {
    if (!UUID.test(query.accountId)) throw invalid({ accountId: "Not an account id." });
    accountId = query.accountId;
  } else if (query.account) {
    const account = await findAccount(db, businessId, query.account);
    if (!account) throw invalid({ account: `No account "${clip(query.account)}" at this business.` });
    accountId = account.id;
  }
  if (query.contactId && !UUID.test(query.contactId)) throw invalid({ contactId: "Not a contact id." });
  let select = selectRequests(db, businessId);
  if (accountId) select = select.where("pr.account_id", "=", accountId);
  if (query.contactId) {
    const contactId = query.contactId;
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom("payment_request_recipients as r")
          .select("r.request_id")
          .whereRef("r.request_id", "=", "pr.id")
          .where("r.business_id", "=", businessId)
          .where("r.contact_id", "=", contactId),
      ),
    );
  }
  if (state) select = select.where((eb) => stateCondition(eb, state as PaymentRequestState, now));
  if (cursor) {
    select = select.where(beforeCursor("pr.created_at", "pr.id", cursor));
  }
  const rows = (await select
    .orderBy("pr.created_at", "desc")
    .orderBy("pr.id", "desc")
    .limit(limit + 1)
    .execute()) as RequestRow[];
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    items: await toViews(db, businessId, page, now),
    nextCursor,
  };
}

type RequestsEb = ExpressionBuilder<DB & { pr: DB["payment_requests"]; a: DB["accounts"] }, "pr" | "a">;

/**
 * `requestOwingCents` as SQL: a request of invoices, one correlated sum over its invoices (the
 * payment_request_invoices primary key, then each invoice's); a stated amount, from the row.
 */
const owingSql = sql<number>`(CASE WHEN pr.kind = 'invoices' THEN (
    SELECT coalesce(sum(greatest(0, least(ri.amount_cents, i.balance_cents))), 0)
    FROM payment_request_invoices AS ri
    JOIN invoices AS i ON i.id = ri.invoice_id AND i.business_id = ri.business_id
    WHERE ri.request_id = pr.id)
  ELSE greatest(0, pr.amount_cents - pr.paid_cents) END)`;

/**
 * `paymentRequestState` as SQL, so that a state filter pages along the index like the rest:
 * the page walks the business's (or account's) requests newest first and each row's owing is
 * read through primary keys — "paid" is read, not only stored (decision 032).
 */
function stateCondition(eb: RequestsEb, state: PaymentRequestState, now: Date) {
  const unsettled = eb("pr.status", "in", ["created", "sent"]);
  const owing = eb(owingSql, ">", 0);
  const open = eb.and([unsettled, eb("pr.expires_at", ">", now), owing]);
  // Nothing paid yet, by the request's own payments or any other way.
  const untouched = eb.and([eb("pr.paid_cents", "=", 0), eb(owingSql, ">=", eb.ref("pr.amount_cents"))]);
  switch (state) {
    case "cancelled":
      return eb("pr.status", "=", state);
    case "paid":
      return eb.or([eb("pr.status", "=", "paid"), eb.and([unsettled, eb(owingSql, "<=", 0)])]);
    case "expired":
      return eb.and([unsettled, eb("pr.expires_at", "<=", now), owing]);
    case "part-paid":
      return eb.and([open, eb.not(untouched)]);
    case "opened":
      return eb.and([open, untouched, eb("pr.opened_at", "is not", null)]);
    case "sent":
    case "created":
      return eb.and([open, eb("pr.status", "=", state), untouched, eb("pr.opened_at", "is", null)]);
  }
}

// ---------------------------------------------------------------------------------------------
// Send, resend, cancel, opened

export type { Delivery } from "../links/link-lifecycle.server";
export type SendResult = { request: PaymentRequestView; deliveries: Delivery[] };

/**
 * Emails the request to each recipient with a new link, revoking that recipient's earlier links
 * to it. `send` takes a request that was never sent; `resend` one that was (its old links stop
 * working: that is the point of a resend). Paid, expired and cancelled requests are refused.
 * The links and counts are committed before any mail leaves; a mail failure is reported per
 * recipient in `deliveries`, never thrown.
 */
export async function sendPaymentRequest(
  businessId: string,
  idOrReference: string,
  options: {
    resend?: boolean;
    now?: Date;
    beforeCommit?: BeforeCommit;
    /** The CLI's --print-link (demos only): the link is otherwise in the email alone. */
    onLink?: (email: string, link: string) => void;
  } = {},
): Promise<SendResult> {
  const now = options.now ?? clockNow();
  const { found, db, branding, business } = await openForSending(businessId, idOrReference, now);

  const links = await db.transaction().execute(async (tx) => {
    const row = await lockPayable(tx, businessId, found.id, now, "it can no longer be sent.");
    if (options.resend && row.status === "created") {
      throw new RequestProblem("conflict", "The request has not been sent yet: send it first.");
    }
    if (!options.resend && row.status !== "created") {
      throw new RequestProblem("conflict", "The request has been sent already: resend it to send new links.");
    }
    // Only people who are still contacts of the account (and not disabled) get a link.
    const recipients = await recipientsOf(tx, businessId, row.id);
    const out: { contactId: string; email: string; firstName: string; token: string | null }[] = [];
    for (const recipient of recipients) {
      const subject = { businessId, purpose: "payment-request" as const, subjectId: row.id };
      if (recipient.disabledAt || !recipient.linked) {
        // No longer a contact of the account: their earlier links stop working, and no new one.
        await revokeLinkTokens(tx, { ...subject, contactId: recipient.contactId });
        out.push({
          contactId: recipient.contactId,
          email: recipient.email,
          firstName: recipient.firstName,
          token: null,
        });
        continue;
      }
      const link = await reissueLink(tx, {
        ...subject,
        contactId: recipient.contactId,
        expiresAt: new Date(row.expiresAt),
      });
      out.push({
        contactId: recipient.contactId,
        email: recipient.email,
        firstName: recipient.firstName,
        token: link.token,
      });
    }
    const sentTo = recipients.filter((r) => !r.disabledAt && r.linked).map((r) => r.contactId);
    if (sentTo.length) {
      await tx
        .updateTable("payment_request_recipients")
        .set({ send_count: sql`send_count + 1`, last_sent_at: now })
        .where("business_id", "=", businessId)
        .where("request_id", "=", row.id)
        .where("contact_id", "in", sentTo)
        .execute();
    }
    await tx
      .updateTable("payment_requests")
      .set({ status: "sent", sent_at: sql`coalesce(sent_at, ${now})` })
      .where("business_id", "=", businessId)
      .where("id", "=", row.id)
      .execute();
    await options.beforeCommit?.(tx, row.id);
    return out;
  });

  const request = (await getPaymentRequest(businessId, found.id, { now }))!;
  const deliveries: Delivery[] = [];
  for (const link of links) {
    if (!link.token) {
      deliveries.push({ email: link.email, sent: false, error: "No longer a contact of the account: not sent." });
      continue;
    }
    const url = publicLink(branding, `/customer/payment-request/${link.token}`);
    options.onLink?.(link.email, url);
    deliveries.push(
      await deliverLinkEmail(
        "payment request",
        link.email,
        { reference: request.reference, to: link.email, resend: !!options.resend },
        // Transactional: sent whatever the contact's preferences, with a link to them (decision 039).
        () =>
          sendContactMail({
            branding,
            contact: { id: link.contactId, email: link.email },
            category: "payment-requests",
            replyTo: business.supportEmail,
            render: (preferences) =>
              renderPaymentRequestEmail({
                branding,
                support: business,
                recipientName: link.firstName,
                request,
                link: url,
                preferences,
              }),
          }),
      ),
    );
  }
  return { request, deliveries };
}

export type RemindSkip = { email: string; reason: "opted-out" | "not-a-contact" | "reminded-recently" };
export type RemindResult = {
  request: PaymentRequestView;
  /** Recipients the reminder was emailed to. */
  sent: { email: string }[];
  /**
   * Recipients who got none: they opted out of payment reminders, left the account, or were
   * reminded less than REMINDER_SPACING_MS ago (while another recipient was due one).
   */
  skipped: RemindSkip[];
  /** Recipients whose reminder the mail server did not take (a later reminder may try again). */
  failed: { email: string; error: string }[];
};

/**
 * At most one reminder a day to each recipient: an integration calling remind in a loop must not
 * fill a contact's inbox. A retry after a failure uses the same Idempotency-Key instead.
 */
export const REMINDER_SPACING_MS = 24 * 60 * 60 * 1000;

/**
 * Reminds the recipients of an open request that was sent before (issue 17; decision 039). A
 * reminder is the contact's choice, unlike the request itself: a recipient who opted out of
 * payment reminders is skipped. Every other recipient still a contact of the account, and not
 * reminded in the last 24 hours, gets an additional link with the request's expiry — a reminder
 * never revokes: the request email they already have keeps working whatever becomes of this one
 * (revoking is resend's job). When nobody is due one because each wanting recipient was reminded
 * within 24 hours, the reminder is refused (409) and nothing is sent. Paid, expired, cancelled and
 * never-sent requests are refused. A recipient is counted (`remind_count`, `last_reminded_at`)
 * only once their message has left, after sending: a failed send or an opt-out found at sending
 * counts nothing. The answer says who was sent, who was skipped and why, and whose mail failed.
 */
export async function remindPaymentRequest(
  businessId: string,
  idOrReference: string,
  options: {
    now?: Date;
    beforeCommit?: BeforeCommit;
    /** Called before each message leaves, and awaited (the CLI's --print-link). */
    onLink?: (email: string, link: string) => void | Promise<void>;
  } = {},
): Promise<RemindResult> {
  const now = options.now ?? clockNow();
  const { found, db, branding, business } = await openForSending(businessId, idOrReference, now);

  const planned = await db.transaction().execute(async (tx) => {
    const row = await lockPayable(tx, businessId, found.id, now, "there is nothing to remind about.");
    if (row.status === "created") {
      throw new RequestProblem("conflict", "The request has not been sent yet: send it first.");
    }
    const recipients = await recipientsOf(tx, businessId, row.id);
    const reachable = recipients.filter((r) => !r.disabledAt && r.linked);
    const wanting = await contactsWantingEmail(
      tx,
      businessId,
      reachable.map((r) => r.contactId),
      "reminders",
    );
    const skipped: RemindSkip[] = [];
    const recent: Date[] = [];
    const remind: { contactId: string; email: string; firstName: string; token: string }[] = [];
    for (const recipient of recipients) {
      const last = recipient.lastRemindedAt ? new Date(recipient.lastRemindedAt) : null;
      if (recipient.disabledAt || !recipient.linked) {
        skipped.push({ email: recipient.email, reason: "not-a-contact" });
      } else if (!wanting.has(recipient.contactId)) {
        skipped.push({ email: recipient.email, reason: "opted-out" });
      } else if (last && now.getTime() - last.getTime() < REMINDER_SPACING_MS) {
        skipped.push({ email: recipient.email, reason: "reminded-recently" });
        recent.push(last);
      } else {
        // An additional link: the ones the recipient already has keep working.
        const link = await createLinkToken(tx, {
          businessId,
          purpose: "payment-request",
          subjectId: row.id,
          contactId: recipient.contactId,
          expiresAt: new Date(row.expiresAt),
        });
        remind.push({
          contactId: recipient.contactId,
          email: recipient.email,
          firstName: recipient.firstName,
          token: link.token,
        });
      }
    }
    if (!remind.length && recent.length) {
      const latest = new Date(Math.max(...recent.map((d) => d.getTime())));
      const next = new Date(latest.getTime() + REMINDER_SPACING_MS);
      throw new RequestProblem(
        "conflict",
        `A reminder was sent less than 24 hours ago (at ${latest.toISOString()}): the next one can be sent from ${next.toISOString()}. Nothing was sent.`,
      );
    }
    await options.beforeCommit?.(tx, row.id);
    return { remind, skipped };
  });

  // The request as it is now (a payment may have landed meanwhile), for the emails.
  const current = (await getPaymentRequest(businessId, found.id, { now }))!;
  const sentTo: string[] = [];
  const sent: RemindResult["sent"] = [];
  const skipped = [...planned.skipped];
  const failed: RemindResult["failed"] = [];
  for (const recipient of planned.remind) {
    const url = publicLink(branding, `/customer/payment-request/${recipient.token}`);
    await options.onLink?.(recipient.email, url);
    try {
      const outcome = await sendContactMail({
        branding,
        contact: { id: recipient.contactId, email: recipient.email },
        category: "reminders",
        replyTo: business.supportEmail,
        render: (preferences) =>
          renderPaymentRequestEmail({
            branding,
            support: business,
            recipientName: recipient.firstName,
            request: current,
            link: url,
            preferences,
            reminder: { now },
          }),
      });
      if (outcome.sent) {
        sentTo.push(recipient.contactId);
        sent.push({ email: recipient.email });
        logger.info("payment reminder emailed", { reference: current.reference, to: recipient.email });
      } else {
        // Opted out between the plan and the send: the one check at sending has the last word.
        skipped.push({ email: recipient.email, reason: "opted-out" });
      }
    } catch (error) {
      logger.warn("payment reminder email failed", { reference: current.reference, to: recipient.email, error });
      failed.push({ email: recipient.email, error: "The mail server did not take the message." });
    }
  }
  // Counted once sent, and only those: the count and the spacing are of mail that left.
  if (sentTo.length) {
    await db
      .updateTable("payment_request_recipients")
      .set({ remind_count: sql`remind_count + 1`, last_reminded_at: now })
      .where("business_id", "=", businessId)
      .where("request_id", "=", found.id)
      .where("contact_id", "in", sentTo)
      .execute();
  }
  skipped.sort((a, b) => a.email.localeCompare(b.email));
  const request = (await getPaymentRequest(businessId, found.id, { now }))!;
  return { request, sent, skipped, failed };
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
  const db = await getDb();
  await db.transaction().execute(async (tx) => {
    const row = await lockForChange(tx, businessId, found.id);
    // Paid as it reads: stored, or nothing owing on its invoices any more.
    if (row.status !== "cancelled" && paymentRequestState(row, now) === "paid") {
      throw new RequestProblem("conflict", "The request is paid: it cannot be cancelled.");
    }
    await endLinkedRecord(
      tx,
      "payment_requests",
      { businessId, purpose: "payment-request", subjectId: row.id },
      row.status !== "cancelled" ? { set: { status: "cancelled", cancelled_at: now } } : null,
    );
    await options.beforeCommit?.(tx, row.id);
  });
  return (await getPaymentRequest(businessId, found.id, { now }))!;
}

/**
 * What send and remind start from: the request, and who sends its links (a business without a
 * host name can make none).
 */
async function openForSending(businessId: string, idOrReference: string, now: Date) {
  const found = await getPaymentRequest(businessId, idOrReference, { now });
  if (!found) throw new RequestProblem("not-found", "No such payment request.");
  const db = await getDb();
  const { branding, support: business } = await linkSender(
    db,
    businessId,
    () => new RequestProblem("conflict", "This business has no host name, so no link to the request can be made."),
  );
  return { found, db, branding, business };
}

/**
 * Locks a request that is to be emailed (sent or reminded of), refusing one that can no longer be
 * paid; `refusal` ends the conflict's message ("it can no longer be sent.").
 */
async function lockPayable(tx: Db, businessId: string, requestId: string, now: Date, refusal: string) {
  const row = await lockForChange(tx, businessId, requestId);
  const state = paymentRequestState(row, now);
  if (state === "paid" && row.status !== "paid") {
    throw new RequestProblem(
      "conflict",
      `Nothing is owing on this request any more (its invoices have been paid): ${refusal}`,
    );
  }
  if (!isPayableState(state)) {
    throw new RequestProblem("conflict", `The request is ${state}: ${refusal}`);
  }
  return row;
}

/** A request's recipients, by email, and whether each is still an enabled contact of its account. */
async function recipientsOf(tx: Db, businessId: string, requestId: string) {
  return tx
    .selectFrom("payment_request_recipients as r")
    .innerJoin("payment_requests as pr", "pr.id", "r.request_id")
    .innerJoin("contacts as c", "c.id", "r.contact_id")
    .leftJoin("account_contacts as ac", (join) =>
      join
        .onRef("ac.contact_id", "=", "r.contact_id")
        .onRef("ac.account_id", "=", "pr.account_id")
        .onRef("ac.business_id", "=", "r.business_id"),
    )
    .select([
      "r.contact_id as contactId",
      "r.last_reminded_at as lastRemindedAt",
      "c.email",
      "c.first_name as firstName",
      "c.disabled_at as disabledAt",
      "ac.contact_id as linked",
    ])
    .where("r.business_id", "=", businessId)
    .where("r.request_id", "=", requestId)
    .orderBy("c.email")
    .execute();
}

/**
 * Locks a request for send or cancel (FOR UPDATE) and reads what its state needs, owing
 * included. No invoice is locked: a payment's claim locks the request before its invoices, and
 * this only reads them.
 */
async function lockForChange(tx: Db, businessId: string, requestId: string) {
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
