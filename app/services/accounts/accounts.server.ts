import { sql, type ExpressionBuilder } from "kysely";
import type { DB } from "../platform/db-schema.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { perRequest } from "../platform/request-scope.server";
import { isUuid } from "~/lib/ids";

/**
 * Accounts a contact may see, and what is on them. The single rule of "may this contact
 * touch this account" lives here (ARCHITECTURE: account_contacts is the only source of
 * truth): an account joined to the contact, or a child of one, when the business shows
 * child accounts (ui setting ChildAccountTicked, spec §6). Every query filters by business.
 */
export type AccountSummary = {
  accountId: string;
  number: string;
  name: string;
  parentAccountId: string | null;
  isChild: boolean;
};

export async function childAccountsVisible(businessId: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("ui_settings")
    .select("is_visible")
    .where("business_id", "=", businessId)
    .where("item_name", "=", "ChildAccountTicked")
    .executeTakeFirst();
  return row?.is_visible === true;
}

type Scope = { businessId: string; contactId: string; parent?: boolean; children?: boolean };

/**
 * The visibility rule as a WHERE clause on `accounts`. `parent` includes the accounts joined
 * to the contact; `children` includes the children of those, and only where the business
 * shows child accounts. PostgreSQL runs the EXISTS tests as hashed sub-plans (the contact's
 * account ids, read once through account_contacts_contact_idx), so a list walks an
 * index in its sort order and stops at the page: the cost of a page does not grow with the
 * contact's thousands of accounts (issue 7). `visibleIds` is the same rule as a set, for
 * counting.
 */
export function visibleTo(scope: Scope) {
  const { businessId, contactId } = scope;
  const parent = scope.parent ?? true;
  const children = scope.children ?? true;
  return (eb: ExpressionBuilder<DB, "accounts">) => {
    const joined = (column: "accounts.id" | "accounts.parent_account_id") =>
      eb.exists(
        eb
          .selectFrom("account_contacts as ac")
          .select("ac.account_id")
          .whereRef("ac.account_id", "=", column)
          .where("ac.contact_id", "=", contactId)
          .where("ac.business_id", "=", businessId),
      );
    const childRule = eb.and([childAccountsShown(businessId), joined("accounts.parent_account_id")]);
    const rules = [];
    if (parent) rules.push(joined("accounts.id"));
    if (children) rules.push(childRule);
    if (rules.length === 0) return eb.val(false);
    return eb.and([eb("accounts.business_id", "=", businessId), eb.or(rules)]);
  };
}

/**
 * The same rule for a query that joins `accounts` (unaliased) to other tables: rows whose
 * account the contact may see (the customer-style home, decision 033).
 */
export function visibleAccounts(scope: { businessId: string; contactId: string }) {
  return visibleTo(scope);
}

/** Does the business show child accounts (ui setting ChildAccountTicked, spec §6)? As SQL. */
function childAccountsShown(businessId: string) {
  return sql<boolean>`exists (
    select 1 from ui_settings as ui
    where ui.business_id = ${businessId} and ui.item_name = 'ChildAccountTicked' and ui.is_visible)`;
}

/**
 * The ids of the accounts `visibleTo` lets through, built from the contact's side
 * (account_contacts by contact, then branches by accounts_parent_idx), so that counting
 * them reads only what the contact may see, never every account of the business.
 * account_contacts rows belong to their account's business (a foreign key on both
 * columns, migration 0004a), so the joined ids need no second look at `accounts`.
 */
function visibleIds(db: Db, scope: Scope) {
  const { businessId, contactId } = scope;
  const parent = scope.parent ?? true;
  const children = scope.children ?? true;
  const joined = db
    .selectFrom("account_contacts as ac")
    .select("ac.account_id")
    .where("ac.business_id", "=", businessId)
    .where("ac.contact_id", "=", contactId);
  const branches = db
    .selectFrom("account_contacts as pac")
    .innerJoin("accounts as child", (join) =>
      join.onRef("child.parent_account_id", "=", "pac.account_id").on("child.business_id", "=", businessId),
    )
    .select("child.id as account_id")
    .where("pac.business_id", "=", businessId)
    .where("pac.contact_id", "=", contactId)
    .where(childAccountsShown(businessId));
  if (parent && children) return joined.union(branches);
  if (parent) return joined;
  if (children) return branches;
  return null;
}

export const summaryColumns = [
  "accounts.id as accountId",
  "accounts.number",
  "accounts.name",
  "accounts.parent_account_id as parentAccountId",
] as const;

/** The contact's accounts (spec §4 step 3, `/api/sample/accounts`), parents first, by name. */
export async function listContactAccounts(
  businessId: string,
  contactId: string,
  options: { parent?: boolean; children?: boolean; limit?: number; offset?: number } = {},
): Promise<AccountSummary[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("accounts")
    .select(summaryColumns)
    .where(visibleTo({ businessId, contactId, parent: options.parent, children: options.children }))
    .orderBy(sql`accounts.parent_account_id IS NOT NULL`)
    .orderBy(sql`lower(accounts.name)`)
    .orderBy("accounts.id")
    .limit(options.limit ?? 200)
    .offset(options.offset ?? 0)
    .execute();
  return rows.map((row) => ({ ...row, isChild: row.parentAccountId !== null }));
}

/**
 * How many of a contact's first accounts (in `listContactAccounts`' order) one request reads at
 * most once: the shell's switcher (25, and one more to know there are more), the customer-style
 * home's first page of accounts to pay (20 and one) and the customer-style menu (two).
 */
export const FIRST_ACCOUNTS = 26;

/**
 * The contact's first `count` accounts (at most FIRST_ACCOUNTS), read once per request and shared
 * by its loaders (`perRequest`): the root loader's switcher or menu and the customer-style home's
 * list are one statement, not two. Without a request (a service called on its own) it is read here.
 */
export async function firstContactAccounts(
  request: Request | undefined,
  businessId: string,
  contactId: string,
  count: number,
): Promise<AccountSummary[]> {
  if (count > FIRST_ACCOUNTS) throw new Error(`firstContactAccounts reads at most ${FIRST_ACCOUNTS} accounts`);
  const read = () => listContactAccounts(businessId, contactId, { limit: FIRST_ACCOUNTS });
  const rows = await (request ? perRequest(request, `first-accounts ${businessId} ${contactId}`, read) : read());
  return rows.slice(0, count);
}

/**
 * May this contact still act for this account — the rule `requireAccountAccess` applies to a
 * session, for someone who has none (an emailed link's contact, decision 031): a contact of this
 * business who is not disabled, joined to the account (or to its parent where the business shows
 * child accounts). One statement.
 */
export async function contactMayActFor(businessId: string, contactId: string, accountId: string): Promise<boolean> {
  if (!isUuid(contactId) || !isUuid(accountId)) return false;
  const db = await getDb();
  const row = await db
    .selectFrom("accounts")
    .select("accounts.id")
    .where("accounts.id", "=", accountId)
    .where(visibleTo({ businessId, contactId }))
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

export const ACCOUNT_SORTS = ["name", "number"] as const;
export type AccountSort = { field: (typeof ACCOUNT_SORTS)[number]; dir: "asc" | "desc" };

/**
 * `accounts-search` (spec §7): text filter over name and number, sort, skip/take paging in
 * SQL, and `myAccounts` (only accounts joined to the contact, not their children).
 */
export async function searchAccounts(
  businessId: string,
  contactId: string,
  query: {
    text: string;
    sort: AccountSort;
    skip: number;
    take: number;
    myAccounts: boolean;
    parent: boolean;
    children: boolean;
  },
) {
  const db = await getDb();
  const scope = {
    businessId,
    contactId,
    parent: query.parent,
    children: query.myAccounts ? false : query.children,
  };
  let base = db.selectFrom("accounts").where(visibleTo(scope));
  const pattern = query.text ? `%${query.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  if (pattern) {
    base = base.where((eb) =>
      eb.or([eb(sql`lower(accounts.name)`, "like", pattern), eb(sql`lower(accounts.number)`, "like", pattern)]),
    );
  }
  const column = query.sort.field === "number" ? sql`lower(accounts.number)` : sql`lower(accounts.name)`;
  const ids = visibleIds(db, scope);
  // Without a text filter the total is the size of the contact's set: no account row is read.
  const total = !ids
    ? Promise.resolve({ count: 0 })
    : pattern
      ? base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow()
      : db
          .selectFrom(ids.as("visible"))
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow();
  const [rows, counted] = await Promise.all([
    base
      .select(summaryColumns)
      .orderBy(column, query.sort.dir)
      .orderBy("accounts.id", query.sort.dir)
      .offset(query.skip)
      .limit(query.take)
      .execute(),
    total,
  ]);
  return {
    total: Number(counted.count),
    items: rows.map((row) => ({ ...row, isChild: row.parentAccountId !== null })),
  };
}

/**
 * The dashboard figures for one account (`account-tiles`): what is owing, what is overdue,
 * the next due invoice and the last payment. One statement, whatever the data size: the open
 * invoices are read once, and the next due amount comes from them; the last payment is one
 * row read along its index, joined laterally to the figures (which are always one row, so an
 * account that never paid still gets them).
 */
export async function getAccountTiles(businessId: string, accountId: string, today: string) {
  const db = await getDb();
  const open = [1, 3, 5, 6, 7, 8];
  const row = await db
    .with("open", (qb) =>
      qb
        .selectFrom("invoices")
        .select(["balance_cents", "due_date"])
        .where("business_id", "=", businessId)
        .where("account_id", "=", accountId)
        .where("status", "in", open)
        .where("balance_cents", ">", 0),
    )
    .with("owing", (qb) =>
      qb
        .selectFrom("open")
        .select([
          sql<number>`coalesce(sum(balance_cents), 0)`.as("balanceCents"),
          sql<number>`coalesce(sum(balance_cents) filter (where due_date < ${today}), 0)`.as("overdueCents"),
          sql<number>`count(*) filter (where due_date < ${today})`.as("overdueCount"),
          sql<number>`count(*)`.as("openCount"),
          sql<string | null>`min(due_date) filter (where due_date >= ${today})`.as("nextDueDate"),
          sql<number>`coalesce(sum(balance_cents) filter (where due_date = (select min(due_date) from open where due_date >= ${today})), 0)`.as(
            "nextDueCents",
          ),
        ]),
    )
    .selectFrom("owing")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("statement_lines")
          .select((inner) => [
            "line_date as date",
            "credit_cents as amountCents",
            "reference",
            // A payment made through the portal has a receipt under the same reference; one the
            // business recorded itself (a bank transfer in its books) has only the statement line.
            inner
              .exists(
                inner
                  .selectFrom("payments")
                  .select("payments.id")
                  .whereRef("payments.reference", "=", "statement_lines.reference")
                  .where("payments.business_id", "=", businessId)
                  .where("payments.account_id", "=", accountId),
              )
              .as("hasReceipt"),
          ])
          .where("business_id", "=", businessId)
          .where("account_id", "=", accountId)
          .where("type", "=", "payment")
          .orderBy("line_date", "desc")
          .orderBy("id", "desc")
          .limit(1)
          .as("last"),
      (join) => join.onTrue(),
    )
    .selectAll("owing")
    .select(["last.date", "last.amountCents", "last.reference", "last.hasReceipt"])
    .executeTakeFirstOrThrow();
  return {
    balanceCents: Number(row.balanceCents),
    openInvoices: Number(row.openCount),
    overdueCents: Number(row.overdueCents),
    overdueInvoices: Number(row.overdueCount),
    nextDue: row.nextDueDate ? { date: row.nextDueDate, amountCents: Number(row.nextDueCents) } : null,
    lastPayment:
      row.date !== null && row.reference !== null
        ? {
            date: row.date,
            amountCents: Number(row.amountCents),
            reference: row.reference,
            hasReceipt: Boolean(row.hasReceipt),
          }
        : null,
  };
}

/** The people on an account (`contacts`): names, roles and emails of its contacts. */
export async function listAccountContacts(businessId: string, accountId: string) {
  const db = await getDb();
  return db
    .selectFrom("account_contacts as ac")
    .innerJoin("contacts", "contacts.id", "ac.contact_id")
    .select([
      "contacts.id as userId",
      "contacts.email",
      "contacts.first_name as firstName",
      "contacts.last_name as lastName",
      "contacts.position",
      "ac.role",
    ])
    .where("ac.business_id", "=", businessId)
    .where("ac.account_id", "=", accountId)
    .where("contacts.disabled_at", "is", null)
    .orderBy("contacts.last_name")
    .orderBy("contacts.first_name")
    .orderBy("contacts.id")
    .limit(200)
    .execute();
}

export const STATEMENT_TYPES = ["invoice", "payment", "credit", "adjustment", "fee"] as const;
export const STATEMENT_SORTS = ["date", "amount"] as const;

export type StatementQuery = {
  skip: number;
  take: number;
  sort: { field: (typeof STATEMENT_SORTS)[number]; dir: "asc" | "desc" };
  from?: string;
  to?: string;
  type?: (typeof STATEMENT_TYPES)[number];
};

/**
 * A page of statement lines (`statements`), with the total and the running figures for the
 * filter. The page is an index range scan; the figures come from the per-day totals that
 * triggers keep (migration 0005), so neither grows with the number of lines on the account.
 */
export async function listStatementLines(businessId: string, accountId: string, query: StatementQuery) {
  const db = await getDb();
  let lines = db
    .selectFrom("statement_lines")
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId);
  let days = db
    .selectFrom("statement_daily_totals")
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId);
  if (query.from) {
    lines = lines.where("line_date", ">=", query.from);
    days = days.where("line_date", ">=", query.from);
  }
  if (query.to) {
    lines = lines.where("line_date", "<=", query.to);
    days = days.where("line_date", "<=", query.to);
  }
  if (query.type) {
    lines = lines.where("type", "=", query.type);
    days = days.where("type", "=", query.type);
  }
  const amount = sql`(debit_cents - credit_cents)`;
  const order = query.sort.field === "amount" ? amount : sql`line_date`;
  const [items, totals] = await Promise.all([
    lines
      .select([
        "id",
        "line_date as date",
        "type",
        "reference",
        "description",
        "debit_cents as debitCents",
        "credit_cents as creditCents",
      ])
      .orderBy(order, query.sort.dir)
      .orderBy("id", query.sort.dir)
      .offset(query.skip)
      .limit(query.take)
      .execute(),
    days
      .select([
        sql<number>`coalesce(sum(line_count), 0)`.as("count"),
        sql<number>`coalesce(sum(debit_cents), 0)`.as("debitCents"),
        sql<number>`coalesce(sum(credit_cents), 0)`.as("creditCents"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(totals.count),
    debitCents: Number(totals.debitCents),
    creditCents: Number(totals.creditCents),
    items: items.map((item) => ({
      ...item,
      debitCents: Number(item.debitCents),
      creditCents: Number(item.creditCents),
    })),
  };
}

/** Feature toggles for an account (spec §3): the business's, overridden by the account's own. */
export async function getFeatureToggles(businessId: string, accountId: string | null) {
  const db = await getDb();
  const rows = await db
    .selectFrom("feature_toggles")
    .select(["name", "enabled", "configuration_value as configurationValue", "account_id"])
    .where("business_id", "=", businessId)
    .where((eb) =>
      accountId
        ? eb.or([eb("account_id", "is", null), eb("account_id", "=", accountId)])
        : eb("account_id", "is", null),
    )
    .orderBy("name")
    .execute();
  const byName = new Map<string, { name: string; enabled: boolean; configurationValue: unknown }>();
  for (const row of rows) {
    if (!byName.has(row.name) || row.account_id !== null) {
      byName.set(row.name, { name: row.name, enabled: row.enabled, configurationValue: row.configurationValue });
    }
  }
  return [...byName.values()];
}
