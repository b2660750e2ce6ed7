import { sql, type ExpressionBuilder } from "kysely";
import { UUID } from "~/lib/ids";
import { PAYMENT_REQUEST_STATES, type PaymentRequestState } from "~/lib/payment-request-state";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { DB } from "../platform/db-schema.server";
import { invalid } from "../platform/problems.server";
import { clip, findAccount } from "./lookups.server";
import type { PaymentRequestView } from "./payment-request-view.server";
import { selectRequests, toViews, type RequestRow } from "./request-rows.server";

export type { PaymentRequestView } from "./payment-request-view.server";

/**
 * Reading payment requests (issue 14; decision 032): one request by id or reference, and the
 * business's list a page at a time, filtered by state, account and recipient. Nothing here writes.
 */
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../links/list-limits.server";
const REFERENCE = /^PR-[0-9A-Z]{6,12}$/;

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
