import { sql } from "kysely";
import { UUID } from "~/lib/ids";
import { scheduleView, SCHEDULE_STATUSES, type ScheduleStatus } from "~/lib/schedule-states";
import { isScheduleReference } from "~/lib/schedule-paths";
import { visibleAccounts } from "../accounts/accounts.server";
import { now } from "../platform/clock.server";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { clip, findAccount } from "../requests/lookups.server";
import { invalid } from "../platform/problems.server";
import { selectSchedules, toView, type ScheduleView } from "./schedule-rows.server";

/**
 * Reading payment schedules (issue 15; decision 034): one schedule by id or reference, the
 * business's list a page at a time, the customer-style home's few, a schedule's instalments as
 * the runner reads them, and the accounts rule on any connection. Nothing here writes.
 */
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../links/list-limits.server";
export const SCHEDULE_STATES = [...SCHEDULE_STATUSES, "expired"] as const;

/**
 * One schedule of the business by its id or its reference (PS-…), or null: another business's
 * schedule, a malformed id and no schedule at all are the same "not found".
 */
export async function getSchedule(businessId: string, idOrReference: unknown): Promise<ScheduleView | null> {
  if (typeof idOrReference !== "string") return null;
  const byId = UUID.test(idOrReference);
  const reference = idOrReference.toUpperCase();
  if (!byId && !isScheduleReference(reference)) return null;
  const db = await getDb();
  const row = await selectSchedules(db, businessId)
    .where(byId ? "ps.id" : "ps.reference", "=", byId ? idOrReference.toLowerCase() : reference)
    .executeTakeFirst();
  return row ? toView(row) : null;
}

/**
 * A schedule's instalments in order, as stored: what the runner (decision 035) reads to know what
 * is due. `db` may be a transaction.
 */
export async function scheduleInstalments(db: Db, businessId: string, scheduleId: string) {
  if (!UUID.test(scheduleId)) return [];
  return db
    .selectFrom("schedule_instalments")
    .select([
      "id",
      "seq",
      "due_date as dueDate",
      "amount_cents as amountCents",
      "status",
      "next_attempt_on as nextAttemptOn",
      "attempts",
      "last_failure as lastFailure",
      "payment_id as paymentId",
      "paid_at as paidAt",
    ])
    .where("business_id", "=", businessId)
    .where("schedule_id", "=", scheduleId)
    .orderBy("seq")
    .execute();
}

// ---------------------------------------------------------------------------------------------
// List

export type ScheduleListQuery = {
  state?: string | null;
  /** The account's number or id. */
  account?: string | null;
  /** The account's id (for callers that hold one). */
  accountId?: string | null;
  /** Only schedules on accounts this contact may see (a signed-in contact's own list). */
  visibleTo?: string | null;
  limit?: number | null;
  cursor?: string | null;
};

/**
 * The business's schedules, newest first, a page at a time (a keyset on created_at and id along
 * payment_schedules_business_idx / _account_idx).
 * One statement a page, whatever its size (their instalments, invoices and tries come with each
 * row). `nextCursor` is null on the last page.
 */
export async function listSchedules(
  businessId: string,
  query: ScheduleListQuery = {},
): Promise<{ items: ScheduleView[]; nextCursor: string | null }> {
  const fields: Record<string, string> = {};
  const state = query.state || null;
  if (state !== null && !(SCHEDULE_STATES as readonly string[]).includes(state)) {
    fields.state = `Use one of ${SCHEDULE_STATES.join(", ")}.`;
  }
  const { limit, cursor } = listPage(query, fields);
  if (query.accountId && !UUID.test(query.accountId)) fields.accountId = "Not an account id.";
  if (query.visibleTo && !UUID.test(query.visibleTo)) fields.visibleTo = "Not a contact id.";
  if (Object.keys(fields).length) throw invalid(fields);

  const db = await getDb();
  let accountId = query.accountId ?? null;
  if (!accountId && query.account) {
    const account = await findAccount(db, businessId, query.account);
    if (!account) throw invalid({ account: `No account "${clip(query.account)}" at this business.` });
    accountId = account.id;
  }
  let select = selectSchedules(db, businessId);
  if (accountId) select = select.where("ps.account_id", "=", accountId);
  if (query.visibleTo) {
    const contactId = query.visibleTo;
    // The accounts rule (`requireAccountAccess`), on the joined account.
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom("accounts")
          .select("accounts.id")
          .whereRef("accounts.id", "=", "ps.account_id")
          .where(visibleAccounts({ businessId, contactId })),
      ),
    );
  }
  if (state) {
    const at = now();
    if (state === "expired") select = select.where("ps.status", "=", "proposed").where("ps.expires_at", "<=", at);
    else if (state === "proposed") select = select.where("ps.status", "=", "proposed").where("ps.expires_at", ">", at);
    else select = select.where("ps.status", "=", state as ScheduleStatus);
  }
  if (cursor) {
    select = select.where(beforeCursor("ps.created_at", "ps.id", cursor));
  }
  const rows = await select
    .orderBy("ps.created_at", "desc")
    .orderBy("ps.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    items: page.map(toView),
    nextCursor,
  };
}

export const HOME_SCHEDULES = 5;

/**
 * The customer-style home's few schedules (decision 033's home): the newest on accounts the
 * contact may see, leaving out proposals withdrawn or expired (nothing to do there), with each
 * one's next instalment — one statement.
 */
export async function listSchedulesForHome(businessId: string, contactId: string, limit = HOME_SCHEDULES) {
  if (!UUID.test(contactId)) return [];
  const db = await getDb();
  const at = now();
  const next = (column: "si.due_date" | "si.amount_cents") =>
    sql<string | number | null>`(select ${sql.ref(column)} from schedule_instalments as si
      where si.schedule_id = ps.id and si.status in ('scheduled', 'failed', 'processing') order by si.seq limit 1)`;
  const rows = await db
    .selectFrom("payment_schedules as ps")
    .innerJoin("accounts", (join) =>
      join.onRef("accounts.id", "=", "ps.account_id").onRef("accounts.business_id", "=", "ps.business_id"),
    )
    .select([
      "ps.reference",
      "ps.description",
      "ps.status",
      "ps.expires_at as expiresAt",
      "ps.currency",
      "ps.total_cents as totalCents",
      "ps.paid_cents as paidCents",
      "accounts.name as accountName",
      "accounts.number as accountNumber",
      next("si.due_date").as("nextDue"),
      next("si.amount_cents").as("nextCents"),
    ])
    .where("ps.business_id", "=", businessId)
    .where("ps.status", "!=", "withdrawn")
    .where((eb) => eb.or([eb("ps.status", "!=", "proposed"), eb("ps.expires_at", ">", at)]))
    .where(visibleAccounts({ businessId, contactId }))
    .orderBy("ps.created_at", "desc")
    .orderBy("ps.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    reference: row.reference,
    description: row.description,
    state: scheduleView({ status: row.status, expiresAt: new Date(row.expiresAt) }, at),
    account: { name: row.accountName, number: row.accountNumber },
    currency: row.currency,
    totalCents: Number(row.totalCents),
    remainingCents: Math.max(0, Number(row.totalCents) - Number(row.paidCents)),
    next: row.nextDue ? { dueDate: String(row.nextDue), amountCents: Number(row.nextCents) } : null,
  }));
}

/**
 * The accounts rule (`contactMayActFor`, decision 031) on any connection, a transaction
 * included: a contact of this business who is not disabled, joined to the account or to its
 * parent where the business shows child accounts.
 */
export async function mayActFor(db: Db, businessId: string, contactId: string, accountId: string) {
  if (!UUID.test(contactId) || !UUID.test(accountId)) return false;
  const row = await db
    .selectFrom("accounts")
    .select("accounts.id")
    .where("accounts.id", "=", accountId)
    .where(visibleAccounts({ businessId, contactId }))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("contacts")
          .select("contacts.id")
          .where("contacts.id", "=", contactId)
          .where("contacts.business_id", "=", businessId)
          .where("contacts.disabled_at", "is", null),
      ),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The schedule a brand preview shows (decision 082): the newest proposed one, else the newest of
 * any state; null when the business has none. Reads only.
 */
export async function previewSchedule(businessId: string): Promise<ScheduleView | null> {
  const db = await getDb();
  const latest = await db
    .selectFrom("payment_schedules")
    .select("id")
    .where("business_id", "=", businessId)
    .orderBy(sql`status <> 'proposed'`)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return latest ? getSchedule(businessId, latest.id) : null;
}
