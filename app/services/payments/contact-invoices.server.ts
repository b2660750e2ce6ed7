import { sql } from "kysely";
import { isUuid } from "~/lib/ids";
import { visibleAccounts } from "../accounts/accounts.server";
import { getDb } from "../platform/database.server";
import { PAYABLE_STATUSES } from "./payment-records.server";

/**
 * The invoices a contact may pay, across every account they may see (issue 31; decision 073):
 * the customer-style home lists them, each with its Pay. Payable is the pay page's rule
 * (`PAYABLE_STATUSES` with money owing), so every row listed is one the pay page accepts.
 * Oldest due first, a bounded page; accounts by the single accounts rule, so another contact's
 * account (of this business or another) never contributes a row.
 */
export const HOME_INVOICES = 10;

export type ContactInvoice = {
  id: string;
  number: string;
  description: string;
  accountId: string;
  accountName: string;
  accountNumber: string;
  dueDate: string;
  balanceCents: number;
};

export async function listPayableInvoicesForContact(
  businessId: string,
  contactId: string,
  limit = HOME_INVOICES,
): Promise<{ items: ContactInvoice[]; more: boolean }> {
  const db = await getDb();
  const rows = await db
    .selectFrom("invoices")
    .innerJoin("accounts", (join) =>
      join.onRef("accounts.id", "=", "invoices.account_id").onRef("accounts.business_id", "=", "invoices.business_id"),
    )
    .select([
      "invoices.id",
      "invoices.number",
      "invoices.description",
      "invoices.account_id as accountId",
      "accounts.name as accountName",
      "accounts.number as accountNumber",
      // A calendar date: read as text, never shifted through a time zone.
      sql<string>`to_char(invoices.due_date, 'YYYY-MM-DD')`.as("dueDate"),
      "invoices.balance_cents as balanceCents",
    ])
    .where("invoices.business_id", "=", businessId)
    .where("invoices.status", "in", [...PAYABLE_STATUSES])
    .where("invoices.balance_cents", ">", 0)
    .where(visibleAccounts({ businessId, contactId }))
    .orderBy("invoices.due_date", "asc")
    .orderBy("invoices.id", "asc")
    .limit(limit + 1)
    .execute();
  return {
    items: rows.slice(0, limit).map((row) => ({ ...row, balanceCents: Number(row.balanceCents) })),
    more: rows.length > limit,
  };
}

/**
 * The account of an invoice the contact may pay, or null: another contact's or business's
 * invoice, a paid or disputed one, or a malformed id all answer null. The home's Pay makes that
 * account the selected one before the pay page opens, since the pay page pays the selected account's.
 */
export async function payableInvoiceAccount(
  businessId: string,
  contactId: string,
  invoiceId: string,
): Promise<string | null> {
  if (!isUuid(invoiceId)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("invoices")
    .innerJoin("accounts", (join) =>
      join.onRef("accounts.id", "=", "invoices.account_id").onRef("accounts.business_id", "=", "invoices.business_id"),
    )
    .select("invoices.account_id as accountId")
    .where("invoices.business_id", "=", businessId)
    .where("invoices.id", "=", invoiceId)
    .where("invoices.status", "in", [...PAYABLE_STATUSES])
    .where("invoices.balance_cents", ">", 0)
    .where(visibleAccounts({ businessId, contactId }))
    .executeTakeFirst();
  return row?.accountId ?? null;
}
