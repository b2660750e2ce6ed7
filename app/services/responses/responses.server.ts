import { sql } from "kysely";
import { recordedUserAgent } from "~/lib/agreements";
import { todayIn } from "~/lib/dates";
import {
  RESPONSE_KINDS,
  RESPONSE_REFERENCE,
  RESPONSE_STATES,
  responseState,
  type Address,
  type AnswerDetails,
  type DisputeFacts,
  type ResponseChoice,
  type ResponseKind,
  type ResponseState,
  type StatementFacts,
  type StoredResponseStatus,
} from "~/lib/responses";
import { contactMayActFor } from "../accounts/accounts.server";
import { findBusinessBranding, publicLink } from "../host/host.server";
import {
  deliverLinkEmail,
  endRecord,
  insertSentRecord,
  resendToContact,
  type Delivery,
} from "../links/link-lifecycle.server";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { sendThroughOutbox } from "../platform/mail-outbox.server";
import { clip, findAccount, findContact, findContactOf } from "../requests/lookups.server";
import { UUID } from "~/lib/ids";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import {
  addressFromApi,
  CREDIT_NOTE_MAX,
  CreateSchema,
  DEFAULT_EXPIRY_DAYS,
  MESSAGE_MAX,
  NOTE_MAX,
  noteFromApi,
} from "./response-input.server";
import { renderAnswerNotification, renderResponseRequestEmail } from "./response-email.server";
import type { ResponseRequestView } from "./response-view.server";

export type { ResponseAnswerView, ResponseRequestView } from "./response-view.server";

/**
 * Response requests (issue 17; decision 040): a business asks one contact of one of its accounts
 * to answer a question by emailed link — confirm a delivery address, acknowledge a statement,
 * respond to its proposal on a disputed invoice — and the contact answers once.
 *
 * The back-office API calls create, list, get, resend and withdraw; the link pages call
 * `loadResponseRequest` and `answerResponseRequest`. Problems are `RequestProblem`s
 * (validation → 400, not-found → 404, conflict → 409), as for payment requests and agreements.
 */
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../links/list-limits.server";
const DAY_MS = 86_400_000;

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
type BeforeCommit = (tx: Db, resourceId: string) => Promise<void>;

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

type StoredDetails = { address?: Address; statement?: StatementFacts; dispute?: DisputeFacts };

function selectRequests(db: Db, businessId: string) {
  return db
    .selectFrom("response_requests as r")
    .innerJoin("accounts as a", (join) =>
      join.onRef("a.id", "=", "r.account_id").onRef("a.business_id", "=", "r.business_id"),
    )
    .innerJoin("contacts as c", "c.id", "r.contact_id")
    .leftJoin("response_answers as ans", "ans.request_id", "r.id")
    .leftJoin("contacts as ac", "ac.id", "ans.contact_id")
    .select((eb) => [
      "r.id",
      "r.reference",
      "r.kind",
      "r.status",
      "r.details",
      "r.invoice_id as invoiceId",
      "r.message",
      "r.expires_at as expiresAt",
      "r.created_at as createdAt",
      "r.sent_at as sentAt",
      "r.send_count as sendCount",
      "r.answered_at as answeredAt",
      "r.withdrawn_at as withdrawnAt",
      sql<string>`to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
      "a.id as accountId",
      "a.number as accountNumber",
      "a.name as accountName",
      "c.id as contactId",
      "c.email as contactEmail",
      "ans.choice",
      "ans.details as answerDetails",
      "ans.typed_name as typedName",
      "ans.ip_address as clientAddress",
      "ans.user_agent as userAgent",
      "ans.answered_at as answerTime",
      "ac.id as answererId",
      "ac.email as answererEmail",
      eb
        .selectFrom("link_tokens as lt")
        .select((inner) => inner.fn.min("lt.first_opened_at").as("openedAt"))
        .where("lt.business_id", "=", businessId)
        .where("lt.purpose", "=", "response")
        .whereRef("lt.subject_id", "=", "r.id")
        .as("openedAt"),
    ])
    .where("r.business_id", "=", businessId);
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof selectRequests>["executeTakeFirstOrThrow"]>>;

function toView(row: RequestRow, now: Date): ResponseRequestView {
  const details = row.details as StoredDetails;
  const answerDetails = (row.answerDetails ?? {}) as AnswerDetails;
  return {
    id: row.id,
    reference: row.reference,
    kind: row.kind,
    state: responseState({ status: row.status, expiresAt: row.expiresAt }, now),
    account: { id: row.accountId, number: row.accountNumber, name: row.accountName },
    contact: { id: row.contactId, email: row.contactEmail },
    message: row.message,
    ...(details.address ? { address: details.address } : {}),
    ...(details.statement ? { statement: details.statement } : {}),
    ...(details.dispute ? { dispute: { ...details.dispute, invoiceId: row.invoiceId! } } : {}),
    expiresAt: iso(row.expiresAt)!,
    createdAt: iso(row.createdAt)!,
    sentAt: iso(row.sentAt),
    sendCount: row.sendCount,
    openedAt: iso(row.openedAt as Date | null),
    answeredAt: iso(row.answeredAt),
    withdrawnAt: iso(row.withdrawnAt),
    answer:
      row.choice && row.answerTime
        ? {
            choice: row.choice,
            ...answerDetails,
            typedName: row.typedName ?? null,
            contact: { id: row.answererId!, email: row.answererEmail! },
            clientAddress: row.clientAddress!,
            userAgent: row.userAgent ?? "",
            answeredAt: iso(row.answerTime)!,
          }
        : null,
  };
}

/**
 * One request of the business by its id or its reference (RR-…), or null: another business's
 * request, a malformed id and no request at all are the same "not found". One statement.
 */
export async function getResponseRequest(
  businessId: string,
  idOrReference: unknown,
): Promise<ResponseRequestView | null> {
  if (typeof idOrReference !== "string") return null;
  const byId = UUID.test(idOrReference);
  const reference = idOrReference.toUpperCase();
  if (!byId && !RESPONSE_REFERENCE.test(reference)) return null;
  const db = await getDb();
  const row = await selectRequests(db, businessId)
    .where(byId ? "r.id" : "r.reference", "=", byId ? idOrReference.toLowerCase() : reference)
    .executeTakeFirst();
  return row ? toView(row, clockNow()) : null;
}

/**
 * The business's requests, newest first, a page at a time (keyset on created_at and id, along
 * response_requests_business_idx, or _account_idx when one account is named), filtered by state,
 * kind, account (id or number) and contact (id or email).
 */
export async function listResponseRequests(
  businessId: string,
  query: {
    status?: string | null;
    kind?: string | null;
    account?: string | null;
    contact?: string | null;
    limit?: number | null;
    cursor?: string | null;
  } = {},
): Promise<{ items: ResponseRequestView[]; nextCursor: string | null }> {
  const fields: Record<string, string> = {};
  const status = query.status || null;
  if (status !== null && !(RESPONSE_STATES as readonly string[]).includes(status)) {
    fields.status = `Use one of ${RESPONSE_STATES.join(", ")}.`;
  }
  const kind = query.kind || null;
  if (kind !== null && !(RESPONSE_KINDS as readonly string[]).includes(kind)) {
    fields.kind = `Use one of ${RESPONSE_KINDS.join(", ")}.`;
  }
  const { limit, cursor } = listPage(query, fields);
  if (Object.keys(fields).length) throw invalid(fields);
  const db = await getDb();
  const now = clockNow();
  let select = selectRequests(db, businessId);
  if (query.account) {
    const account = await findAccount(db, businessId, query.account);
    if (!account) throw invalid({ account: `No account "${clip(query.account)}" at this business.` });
    select = select.where("r.account_id", "=", account.id);
  }
  if (query.contact) {
    const contact = await findContact(db, businessId, query.contact);
    if (!contact) throw invalid({ contact: `No contact "${clip(query.contact)}" at this business.` });
    select = select.where("r.contact_id", "=", contact.id);
  }
  if (kind) select = select.where("r.kind", "=", kind as ResponseKind);
  if (status) {
    const s = status as ResponseState;
    if (s === "open") select = select.where("r.status", "=", "open").where("r.expires_at", ">", now);
    else if (s === "expired") select = select.where("r.status", "=", "open").where("r.expires_at", "<=", now);
    else select = select.where("r.status", "=", s);
  }
  if (cursor) {
    select = select.where(beforeCursor("r.created_at", "r.id", cursor));
  }
  const rows = await select
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    items: page.map((row) => toView(row, now)),
    nextCursor,
  };
}

// ---------------------------------------------------------------------------------------------
// Make, send again, withdraw

export type ResponseDelivery = Delivery;
export type ResponseResult = { request: ResponseRequestView; delivery: ResponseDelivery };

/**
 * Asks one contact of one account a question of one kind and emails them the link, whose token
 * lives only in that email (purpose `response`, subject the request, 14 days unless told, at
 * most 90). The contact must be one who may act for the account (the accounts rule); a dispute's
 * invoice must be of that very account (any other — another account's, another business's, none —
 * is "no such invoice on this account"). A second open request asking the same thing — the same
 * contact's address for the same account, the same statement date, the same invoice — is refused:
 * resend or withdraw the first. The request and its link are committed before the mail leaves; a
 * mail failure is reported in `delivery` (a resend fixes it), never thrown.
 */
export async function createResponseRequest(
  businessId: string,
  input: unknown,
  options: {
    apiKeyId?: string | null;
    beforeCommit?: BeforeCommit;
    onLink?: (email: string, link: string) => void;
  } = {},
): Promise<ResponseResult> {
  const parsed = CreateSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const data = parsed.data;
  const now = clockNow();
  const db = await getDb();
  const branding = await findBusinessBranding(db, businessId);
  if (!branding) throw new RequestProblem("conflict", "This business has no host name, so no link can be made.");
  const fields: Record<string, string> = {};
  const message = noteFromApi(data.message, "message", MESSAGE_MAX, false);
  if (!message.ok) Object.assign(fields, message.fields);
  const account = await findAccount(db, businessId, data.account);
  if (!account) fields.account = `No account "${clip(data.account)}" at this business.`;
  const contact = await findContactOf(db, businessId, data.contact);
  if (!contact) fields.contact = `No contact "${clip(data.contact)}" at this business.`;
  else if (account && !(await contactMayActFor(businessId, contact.id, account.id))) {
    fields.contact = contact.disabledAt
      ? `${contact.email} can no longer be reached through the portal.`
      : `${contact.email} may not act for account ${account.number}.`;
  }

  let details: StoredDetails = {};
  let invoiceId: string | null = null;
  let subject = "";
  if (data.kind === "delivery-address") {
    const address = addressFromApi(data.address);
    if (!address.ok) Object.assign(fields, address.fields);
    else details = { address: address.value };
    subject = "address";
  } else if (data.kind === "statement") {
    const { periodStart, periodEnd, closingBalanceCents } = data.statement;
    if (periodStart && periodStart > periodEnd) {
      fields["statement.periodStart"] = "The period starts on or before the statement date.";
    }
    if (periodEnd > todayIn(branding.timeZone, now)) {
      fields["statement.periodEnd"] = "A statement date is today or earlier (the business's time zone).";
    }
    details = { statement: { periodStart: periodStart ?? null, periodEnd, closingBalanceCents } };
    subject = `statement|${periodEnd}`;
  } else {
    const { resolution } = data.dispute;
    const invoice = account
      ? await db
          .selectFrom("invoices")
          .select([
            "id",
            "number",
            "issue_date as issueDate",
            "due_date as dueDate",
            "amount_cents as amountCents",
            "dispute_reason as disputeReason",
          ])
          .where("business_id", "=", businessId)
          .where("account_id", "=", account.id)
          .where((eb) =>
            UUID.test(data.dispute.invoice)
              ? eb.or([eb("id", "=", data.dispute.invoice.toLowerCase()), eb("number", "=", data.dispute.invoice)])
              : eb("number", "=", data.dispute.invoice),
          )
          .executeTakeFirst()
      : undefined;
    if (account && !invoice) {
      fields["dispute.invoice"] = `No invoice "${clip(data.dispute.invoice)}" on account ${account.number}.`;
    }
    let stated: DisputeFacts["resolution"] | null = null;
    if (resolution.type === "credit") {
      const note = noteFromApi(resolution.note, "dispute.resolution.note", CREDIT_NOTE_MAX, false);
      if (!note.ok) Object.assign(fields, note.fields);
      if (invoice && resolution.amountCents > Number(invoice.amountCents)) {
        fields["dispute.resolution.amountCents"] =
          `A credit is at most the invoice's amount (${Number(invoice.amountCents)} cents).`;
      }
      stated = { type: "credit", amountCents: resolution.amountCents, note: note.ok ? note.value : "" };
    } else {
      const position = noteFromApi(resolution.text, "dispute.resolution.text", NOTE_MAX, true);
      if (!position.ok) Object.assign(fields, position.fields);
      stated = { type: "position", text: position.ok ? position.value : "" };
    }
    if (invoice) {
      invoiceId = invoice.id;
      details = {
        dispute: {
          invoice: {
            number: invoice.number,
            issueDate: String(invoice.issueDate),
            dueDate: String(invoice.dueDate),
            amountCents: Number(invoice.amountCents),
            disputeReason: invoice.disputeReason,
          },
          resolution: stated,
        },
      };
    }
    subject = `dispute|${invoice?.id ?? ""}`;
  }
  if (Object.keys(fields).length || !account || !contact || !message.ok) throw invalid(fields);
  const expiresAt = new Date(now.getTime() + (data.expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS);

  const { requestId, token } = await db.transaction().execute(async (tx) => {
    // Two requests made at once (two calls with different idempotency keys) would each find no
    // open one: this lock on what is asked makes the second wait for the first, then find it.
    const key = `response-request|${businessId}|${account.id}|${data.kind === "dispute" ? "" : contact.id}|${subject}`;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx);
    let open = tx
      .selectFrom("response_requests")
      .select("reference")
      .where("business_id", "=", businessId)
      .where("kind", "=", data.kind)
      .where("status", "=", "open")
      .where("expires_at", ">", now);
    if (data.kind === "dispute") open = open.where("invoice_id", "=", invoiceId);
    else open = open.where("account_id", "=", account.id).where("contact_id", "=", contact.id);
    if (data.kind === "statement") {
      open = open.where(sql<boolean>`details->'statement'->>'periodEnd' = ${data.statement.periodEnd}`);
    }
    const waiting = await open.executeTakeFirst();
    if (waiting) {
      throw new RequestProblem(
        "conflict",
        `${waiting.reference} already asks this and is waiting for an answer: resend or withdraw it.`,
      );
    }
    const values = {
      business_id: businessId,
      account_id: account.id,
      contact_id: contact.id,
      kind: data.kind,
      details: JSON.stringify(details),
      invoice_id: invoiceId,
      message: message.value,
      email: contact.email,
      expires_at: expiresAt,
      sent_at: now,
      send_count: 1,
      created_by_api_key: options.apiKeyId ?? null,
      created_at: now,
    };
    const sent = await insertSentRecord(tx, "response_requests", "RR", values, "createResponseRequest", {
      businessId,
      purpose: "response",
      contactId: contact.id,
      expiresAt,
      beforeCommit: options.beforeCommit,
    });
    return { requestId: sent.id, token: sent.token };
  });
  const request = (await getResponseRequest(businessId, requestId))!;
  await audit({
    businessId,
    contactId: contact.id,
    action: "response.requested",
    details: { reference: request.reference, kind: request.kind, accountId: account.id },
  });
  const delivery = await emailRequest(businessId, request, contact.firstName, token, { resend: false, ...options });
  return { request, delivery };
}

/**
 * Emails an open request again with a new link; the contact's earlier links to it stop working
 * (they answer "replaced by a newer link"). An answered, withdrawn or expired request is refused,
 * and so is a contact who may no longer act for the account.
 */
export async function resendResponseRequest(
  businessId: string,
  idOrReference: string,
  options: { beforeCommit?: BeforeCommit; onLink?: (email: string, link: string) => void } = {},
): Promise<ResponseResult> {
  const found = await getResponseRequest(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such response request.");
  const now = clockNow();
  const contact = (await findContactOf(await getDb(), businessId, found.contact.id))!;
  const record = { businessId, purpose: "response" as const, accountId: found.account.id, contactId: found.contact.id };
  const token = await resendToContact("response_requests", record, {
    now,
    lock: (tx) => lockRequest(tx, businessId, found.id),
    refusal: (row) => {
      const state = responseState(row, now);
      return state !== "open" ? `The request is ${state}: it can no longer be sent.` : null;
    },
    mayNotAct: `${contact.email} may no longer act for account ${found.account.number}: withdraw this request, or make a new one to someone who may.`,
    beforeCommit: options.beforeCommit,
  });
  const request = (await getResponseRequest(businessId, found.id))!;
  const delivery = await emailRequest(businessId, request, contact.firstName, token, { resend: true, ...options });
  return { request, delivery };
}

/**
 * Withdraws an open (or expired) request: its links stop working and it can no longer be
 * answered. Withdrawing it again changes nothing; an answered request cannot be withdrawn (an
 * answer is never undone — the business asks again with a new request).
 */
export async function withdrawResponseRequest(
  businessId: string,
  idOrReference: string,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<ResponseRequestView> {
  const found = await getResponseRequest(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such response request.");
  const now = clockNow();
  const changed = await endRecord(
    "response_requests",
    { businessId, purpose: "response" },
    {
      lock: (tx) => lockRequest(tx, businessId, found.id),
      check: (row) => {
        if (row.status === "answered") {
          throw new RequestProblem("conflict", "The request was answered: an answer is never undone.");
        }
        return row.status === "open";
      },
      change: () => ({ set: { status: "withdrawn", withdrawn_at: now } }),
      beforeCommit: options.beforeCommit,
    },
  );
  if (changed) {
    await audit({ businessId, action: "response.withdrawn", details: { reference: found.reference } });
  }
  return (await getResponseRequest(businessId, found.id))!;
}

async function lockRequest(tx: Db, businessId: string, requestId: string) {
  return tx
    .selectFrom("response_requests")
    .select(["id", "status", "expires_at as expiresAt", "account_id as accountId", "contact_id as contactId"])
    .where("business_id", "=", businessId)
    .where("id", "=", requestId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

async function emailRequest(
  businessId: string,
  request: ResponseRequestView,
  firstName: string,
  token: string,
  options: { resend: boolean; onLink?: (email: string, link: string) => void },
): Promise<ResponseDelivery> {
  const db = await getDb();
  const branding = (await findBusinessBranding(db, businessId))!;
  const support = await supportOf(db, businessId);
  const url = publicLink(branding, `/response/${token}`);
  options.onLink?.(request.contact.email, url);
  // Something the contact is asked to do: transactional, always sent, with the preferences link (decision 039).
  return deliverLinkEmail(
    "response request",
    request.contact.email,
    { reference: request.reference, to: request.contact.email, resend: options.resend },
    () =>
      sendContactMail({
        branding,
        contact: request.contact,
        category: "responses",
        replyTo: support.supportEmail,
        render: (preferences) =>
          renderResponseRequestEmail({ branding, support, recipientName: firstName, request, link: url, preferences }),
      }),
  );
}

async function supportOf(db: Db, businessId: string) {
  return db
    .selectFrom("businesses")
    .select([
      "support_email as supportEmail",
      "support_phone as supportPhone",
      "notification_email as notificationEmail",
    ])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------------------------------------
// The contact's side: the page and the answer

/** A request as its page shows it: what is asked, and the answer once given. */
export type ResponsePageRequest = {
  id: string;
  reference: string;
  kind: ResponseKind;
  status: StoredResponseStatus;
  state: ResponseState;
  expiresAt: Date;
  accountId: string;
  accountName: string;
  accountNumber: string;
  contactId: string;
  currency: string;
  message: string;
  details: StoredDetails;
  answer: {
    choice: ResponseChoice;
    details: AnswerDetails;
    typedName: string | null;
    contactId: string;
    linkTokenId: string | null;
    clientAddress: string;
    answeredAt: Date;
  } | null;
};

/** The request of this business by id (a link's subject), with its answer, or null. One statement. */
export async function loadResponseRequest(businessId: string, id: string): Promise<ResponsePageRequest | null> {
  if (!UUID.test(id)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("response_requests as r")
    .innerJoin("accounts as a", (join) =>
      join.onRef("a.id", "=", "r.account_id").onRef("a.business_id", "=", "r.business_id"),
    )
    .innerJoin("businesses as b", "b.id", "r.business_id")
    .leftJoin("response_answers as ans", "ans.request_id", "r.id")
    .select([
      "r.id",
      "r.reference",
      "r.kind",
      "r.status",
      "r.expires_at as expiresAt",
      "r.account_id as accountId",
      "a.name as accountName",
      "a.number as accountNumber",
      "r.contact_id as contactId",
      "b.currency",
      "r.message",
      "r.details",
      "ans.choice",
      "ans.details as answerDetails",
      "ans.typed_name as typedName",
      "ans.contact_id as answererId",
      "ans.link_token_id as linkTokenId",
      "ans.ip_address as clientAddress",
      "ans.answered_at as answeredAt",
    ])
    .where("r.business_id", "=", businessId)
    .where("r.id", "=", id.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    reference: row.reference,
    kind: row.kind,
    status: row.status,
    state: responseState({ status: row.status, expiresAt: row.expiresAt }, clockNow()),
    expiresAt: new Date(row.expiresAt),
    accountId: row.accountId,
    accountName: row.accountName,
    accountNumber: row.accountNumber,
    contactId: row.contactId,
    currency: row.currency,
    message: row.message,
    details: row.details as StoredDetails,
    answer:
      row.choice && row.answeredAt
        ? {
            choice: row.choice,
            details: (row.answerDetails ?? {}) as AnswerDetails,
            typedName: row.typedName ?? null,
            contactId: row.answererId!,
            linkTokenId: row.linkTokenId ?? null,
            clientAddress: row.clientAddress!,
            answeredAt: new Date(row.answeredAt),
          }
        : null,
  };
}

export type AnswerInput = {
  businessId: string;
  requestId: string;
  /** The link's contact, who answers. */
  contactId: string;
  /** The emailed link answering: read again under the request's lock. */
  linkTokenId: string;
  choice: ResponseChoice;
  details: AnswerDetails;
  typedName: string | null;
  clientAddress: string;
  userAgent: string | null;
};

/**
 * Why an answer was refused (nothing is written): the request was answered meanwhile (another
 * tab, a double submit), withdrawn or expired, or the link was replaced or withdrawn after the
 * page checked it.
 */
export type AnswerResult = { ok: true; answeredAt: Date } | { ok: false; problem: "answered" | "closed" };

/**
 * Records the contact's answer, once: under the request's row lock (two submissions at once —
 * one answers, the other finds it answered; the unique key on the request backs it), the request
 * must still be open and unexpired and the link live (resend and withdraw revoke under the same
 * lock); then one response_answers row — the contact, the account, the link, the choice and what
 * came with it, the name typed, the client address and user agent, the time — and the request's
 * state. The business is then told by email (outside the transaction; a mail failure is logged).
 */
export async function answerResponseRequest(input: AnswerInput): Promise<AnswerResult> {
  const { businessId } = input;
  const now = clockNow();
  const db = await getDb();
  const result = await db.transaction().execute(async (tx): Promise<AnswerResult> => {
    const request = await tx
      .selectFrom("response_requests")
      .select(["id", "status", "expires_at as expiresAt", "account_id as accountId"])
      .where("business_id", "=", businessId)
      .where("id", "=", input.requestId)
      .forUpdate()
      .executeTakeFirst();
    if (!request) return { ok: false, problem: "closed" };
    const state = responseState(request, now);
    if (state === "answered") return { ok: false, problem: "answered" };
    if (state !== "open") return { ok: false, problem: "closed" };
    const link = await tx
      .selectFrom("link_tokens")
      .select("id")
      .where("business_id", "=", businessId)
      .where("id", "=", input.linkTokenId)
      .where("purpose", "=", "response")
      .where("subject_id", "=", request.id)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    if (!link) return { ok: false, problem: "closed" };
    await tx
      .insertInto("response_answers")
      .values({
        business_id: businessId,
        request_id: request.id,
        account_id: request.accountId,
        contact_id: input.contactId,
        link_token_id: link.id,
        choice: input.choice,
        details: JSON.stringify(input.details),
        typed_name: input.typedName,
        ip_address: input.clientAddress.slice(0, 64),
        user_agent: recordedUserAgent(input.userAgent),
        answered_at: now,
      })
      .execute();
    await tx
      .updateTable("response_requests")
      .set({ status: "answered", answered_at: now })
      .where("business_id", "=", businessId)
      .where("id", "=", request.id)
      .execute();
    return { ok: true, answeredAt: now };
  });
  if (result.ok) {
    await audit({
      businessId,
      contactId: input.contactId,
      action: "response.answered",
      clientIp: input.clientAddress,
      details: { requestId: input.requestId, choice: input.choice },
    });
    await notifyBusiness(businessId, input.requestId);
  }
  return result;
}

/** Tells the business of an answer: its notification address, else its support address. */
async function notifyBusiness(businessId: string, requestId: string) {
  const request = await getResponseRequest(businessId, requestId);
  if (!request?.answer) return;
  const db = await getDb();
  const branding = await findBusinessBranding(db, businessId);
  const support = await supportOf(db, businessId);
  const to = support.notificationEmail ?? support.supportEmail;
  if (!branding || !to) {
    logger.warn("response answered, but the business has no address to tell", { reference: request.reference });
    return;
  }
  try {
    const mail = await renderAnswerNotification({ branding, support, request });
    // A request is answered once: one message about it (decision 044).
    await sendThroughOutbox(
      {
        to,
        category: "business",
        fromName: branding.businessName,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      },
      { key: `response-answered:${request.id}`, businessId },
    );
    logger.info("response answer sent to the business", { reference: request.reference, to });
  } catch (error) {
    logger.warn("response answer email to the business failed", { reference: request.reference, to, error });
  }
}
