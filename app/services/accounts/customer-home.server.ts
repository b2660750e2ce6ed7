import { sql } from "kysely";
import { paymentRequestState, requestOwingCents, type PaymentRequestState } from "~/lib/payment-request-state";
import { getDb } from "../platform/database.server";
import { now as clockNow } from "../platform/clock.server";
import type { HostBranding } from "../host/host.server";
import { isUuid } from "~/lib/ids";
import { SCHEDULES_LIST_PATH } from "~/lib/schedule-paths";
import {
  FIRST_ACCOUNTS,
  firstContactAccounts,
  listContactAccounts,
  visibleAccounts,
  type AccountSummary,
} from "./accounts.server";

/**
 * The home of a contact without `accessCustomerPortal` (issue 14; decision 033): what is
 * addressed to them — payment requests they are a recipient of, the accounts they may pay any
 * amount to, and the receipts of what they paid. Each list is one indexed, bounded query:
 * requests through payment_request_recipients (business_id, contact_id) and a keyset on
 * (created_at, id); accounts by the switcher's index, a page at a time; receipts through
 * payments (business_id, created_by, created_at DESC, id DESC). Only accounts the contact may
 * still see are shown (the rule of `requireAccountAccess`), so every link here opens.
 */
export const HOME_REQUESTS_PAGE = 10;
export const HOME_ACCOUNTS_PAGE = 20;
export const HOME_RECEIPTS = 5;

export type HomeRequest = {
  id: string;
  reference: string;
  description: string;
  accountName: string;
  accountNumber: string;
  currency: string;
  remainingCents: number;
  dueDate: string | null;
  state: PaymentRequestState;
};

/**
 * One page of the payment requests addressed to the contact, newest first. `after` is the id
 * of the last request of the previous page (the keyset is read from the row itself, so no
 * timestamp makes a round trip through JavaScript and loses its microseconds).
 */
export async function listRequestsForContact(
  businessId: string,
  contactId: string,
  options: { after?: string | null; limit?: number; now?: Date } = {},
): Promise<{ items: HomeRequest[]; nextAfter: string | null }> {
  const limit = options.limit ?? HOME_REQUESTS_PAGE;
  const after = isUuid(options.after) ? options.after : null;
  const db = await getDb();
  let query = db
    .selectFrom("payment_request_recipients as r")
    .innerJoin("payment_requests as pr", (join) =>
      join.onRef("pr.id", "=", "r.request_id").onRef("pr.business_id", "=", "r.business_id"),
    )
    .innerJoin("accounts", (join) =>
      join.onRef("accounts.id", "=", "pr.account_id").onRef("accounts.business_id", "=", "pr.business_id"),
    )
    .select((eb) => [
      "pr.id",
      "pr.reference",
      "pr.description",
      "pr.kind",
      "pr.currency",
      "pr.amount_cents as amountCents",
      "pr.paid_cents as paidCents",
      "pr.due_date as dueDate",
      "pr.expires_at as expiresAt",
      "pr.status",
      "pr.opened_at as openedAt",
      "accounts.name as accountName",
      "accounts.number as accountNumber",
      // What is still owing on a request of invoices: each invoice's balance, at most what was
      // asked of it, whatever paid the rest (`requestOwingCents`, decision 032). One correlated
      // sum per row of the page, in the same statement.
      eb
        .selectFrom("payment_request_invoices as ri")
        .innerJoin("invoices as i", (join) =>
          join.onRef("i.id", "=", "ri.invoice_id").onRef("i.business_id", "=", "ri.business_id"),
        )
        .select(sql<string>`coalesce(sum(greatest(0, least(ri.amount_cents, i.balance_cents))), 0)`.as("owing"))
        .whereRef("ri.request_id", "=", "pr.id")
        .as("invoicesOwingCents"),
    ])
    .where("r.business_id", "=", businessId)
    .where("r.contact_id", "=", contactId)
    .where(visibleAccounts({ businessId, contactId }));
  if (after) {
    // A row comparison over the request's own (created_at, id): the index order, no gaps, no repeats.
    query = query.where(
      sql<boolean>`(pr.created_at, pr.id) < (select c.created_at, c.id from payment_requests as c
        where c.id = ${after} and c.business_id = ${businessId})`,
    );
  }
  const rows = await query
    .orderBy("pr.created_at", "desc")
    .orderBy("pr.id", "desc")
    .limit(limit + 1)
    .execute();
  const now = options.now ?? clockNow();
  const items = rows.slice(0, limit).map((row): HomeRequest => {
    const paidCents = Number(row.paidCents);
    const amountCents = Number(row.amountCents);
    // The same figure as the back-office views and the request's page: paid once nothing is owing.
    const owingCents =
      row.kind === "invoices"
        ? Math.max(0, Number(row.invoicesOwingCents ?? 0))
        : requestOwingCents({ kind: "amount", amountCents, paidCents }, []);
    const state = paymentRequestState(
      { status: row.status, expiresAt: row.expiresAt, openedAt: row.openedAt, amountCents, paidCents, owingCents },
      now,
    );
    return {
      id: row.id,
      reference: row.reference,
      description: row.description,
      accountName: row.accountName,
      accountNumber: row.accountNumber,
      currency: row.currency,
      remainingCents: state === "paid" ? 0 : owingCents,
      dueDate: row.dueDate ? String(row.dueDate) : null,
      state,
    };
  });
  return { items, nextAfter: rows.length > limit ? items[items.length - 1]!.id : null };
}

/** Whether the business takes ad-hoc payments, and between which amounts (decision 033): read with the host. */
export type AdhocSettings = HostBranding["adhoc"];

/**
 * The accounts the contact may pay any amount to: a page of their accounts (the switcher's
 * order) when the business takes ad-hoc payments, none otherwise. Given the request, the first
 * page comes from the accounts the root loader reads for the switcher or the menu in the same
 * request (`firstContactAccounts`): one statement for both.
 */
export async function listAdhocAccounts(
  businessId: string,
  contactId: string,
  settings: AdhocSettings,
  options: { skip?: number; limit?: number; request?: Request } = {},
): Promise<{ items: AccountSummary[]; more: boolean }> {
  if (!settings.enabled) return { items: [], more: false };
  const limit = options.limit ?? HOME_ACCOUNTS_PAGE;
  const skip = options.skip ?? 0;
  const rows =
    skip === 0 && limit < FIRST_ACCOUNTS
      ? await firstContactAccounts(options.request, businessId, contactId, limit + 1)
      : await listContactAccounts(businessId, contactId, { limit: limit + 1, offset: skip });
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

export type HomeReceipt = {
  reference: string;
  date: Date;
  amountCents: number;
  currency: string;
  status: "succeeded" | "promised" | "submitted";
  purpose: "invoices" | "request" | "adhoc" | "instalment";
  payerReference: string | null;
};

/**
 * The contact's latest payments that have a receipt (paid, promised, or PayTo on its way),
 * on accounts they may still see: the receipt page lets exactly those through.
 */
export async function listRecentReceipts(
  businessId: string,
  contactId: string,
  limit = HOME_RECEIPTS,
): Promise<HomeReceipt[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("payments")
    .innerJoin("accounts", (join) =>
      join.onRef("accounts.id", "=", "payments.account_id").onRef("accounts.business_id", "=", "payments.business_id"),
    )
    .select([
      "payments.reference",
      "payments.created_at as createdAt",
      "payments.amount_cents as amountCents",
      "payments.subtotal_cents as subtotalCents",
      "payments.currency",
      "payments.status",
      "payments.purpose",
      "payments.payer_reference as payerReference",
    ])
    .where("payments.business_id", "=", businessId)
    .where("payments.created_by", "=", contactId)
    .where("payments.status", "in", ["succeeded", "promised", "submitted"])
    .where(visibleAccounts({ businessId, contactId }))
    .orderBy("payments.created_at", "desc")
    .orderBy("payments.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    reference: row.reference,
    date: new Date(row.createdAt),
    // A promise moves no money yet: what was promised is the subtotal.
    amountCents: Number(row.status === "promised" ? row.subtotalCents : row.amountCents),
    currency: row.currency,
    status: row.status as HomeReceipt["status"],
    purpose: row.purpose,
    payerReference: row.payerReference,
  }));
}

/**
 * What the customer-style menu offers (the shell, on every page of such a contact; decisions 033
 * and 073): only pages the access table lets them open that would answer with more than "Page not
 * found". Home, payment requests (the home's own list), payment schedules and agreements always
 * open with a session. Invoices and payments is the selected account's page, so it is offered only
 * to a contact with an account ("Accounts not found" otherwise); "Pay an amount" only where the
 * business takes such payments, straight to the form with one account, else to the home's list.
 * One bounded query: the contact's first accounts (`firstContactAccounts`, which the home's list of
 * accounts shares in the same request), of which the menu looks at two.
 */
export type CustomerMenu = {
  homeHref: string;
  invoicesHref: string | null;
  requestsHref: string;
  schedulesHref: string;
  agreementsHref: string;
  adhocHref: string | null;
};

export async function customerMenuFor(
  branding: HostBranding,
  contactId: string,
  request?: Request,
): Promise<CustomerMenu> {
  const accounts = await firstContactAccounts(request, branding.businessId, contactId, 2);
  const adhocHref =
    !branding.adhoc.enabled || accounts.length === 0
      ? null
      : accounts.length === 1
        ? `/payment/adhoc/${accounts[0]!.accountId}`
        : `${CUSTOMER_HOME_PATH}#adhoc`;
  return {
    homeHref: CUSTOMER_HOME_PATH,
    invoicesHref: accounts.length > 0 ? CUSTOMER_INVOICES_PATH : null,
    requestsHref: `${CUSTOMER_HOME_PATH}#home-requests`,
    schedulesHref: SCHEDULES_LIST_PATH,
    agreementsHref: AGREEMENTS_LIST_PATH,
    adhocHref,
  };
}

/** The selected account's invoices and payments (decision 016): customer-style, needs an account. */
export const CUSTOMER_INVOICES_PATH = "/customer/invoices-and-payments/invoices";
/** A contact's agreements (decision 036). */
export const AGREEMENTS_LIST_PATH = "/customer/agreement/all";

/**
 * The customer-style home's path (decision 033): on the spec's customer-style pattern
 * /payment/payment-request/[slug]; "all" can never be a request reference (PR-…).
 */
export const CUSTOMER_HOME_PATH = "/payment/payment-request/all";
