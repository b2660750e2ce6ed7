import { contactMayActFor } from "../accounts/accounts.server";
import { PAYABLE_STATUSES } from "../payments/payment-records.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { createLinkToken } from "./link-tokens.server";
import { UUID } from "~/lib/ids";

/**
 * Links to one invoice (spec §2 public `/customer/invoices-and-payments/[...slug]`; decision
 * 031): purpose `invoice`, subject the invoice's id, bound to the contact it is sent to.
 */

export class InvoiceLinkError extends Error {
  constructor(public readonly code: "not-found" | "contact" | "expiry") {
    super(code);
    this.name = "InvoiceLinkError";
  }
}

/**
 * A new link to one invoice of this business for a contact who may act for its account (the
 * rule the link is checked by each time it is used: `checkLinkAccess`), expiring at `expiresAt`
 * (in the future, at most a year away). The token is returned once: it lives only in what the
 * business sends.
 */
export async function createInvoiceLink(businessId: string, invoiceId: string, contactId: string, expiresAt: Date) {
  if (!UUID.test(invoiceId) || !UUID.test(contactId)) throw new InvoiceLinkError("not-found");
  // eslint-disable-next-line no-restricted-syntax -- A link token's lifetime is a credential's: it keeps the system's time (decision 068).
  const now = Date.now();
  if (!(expiresAt.getTime() > now) || expiresAt.getTime() > now + 366 * 86_400_000) {
    throw new InvoiceLinkError("expiry");
  }
  const db = await getDb();
  const invoice = await db
    .selectFrom("invoices")
    .select(["id", "account_id as accountId"])
    .where("business_id", "=", businessId)
    .where("id", "=", invoiceId)
    .executeTakeFirst();
  if (!invoice) throw new InvoiceLinkError("not-found");
  if (!(await contactMayActFor(businessId, contactId, invoice.accountId))) throw new InvoiceLinkError("contact");
  return createLinkToken(db, { businessId, purpose: "invoice", subjectId: invoice.id, contactId, expiresAt });
}

/** An invoice a business names to link to: its facts, its account, and whether it can be paid online. */
export type LinkableInvoice = {
  id: string;
  number: string;
  amountCents: number;
  balanceCents: number;
  dueDate: string;
  status: number;
  account: { id: string; number: string; name: string };
  /** Open, Overdue, Promise or Broken Promise with a balance: what the link's pay page can take. */
  payable: boolean;
};

/**
 * One invoice of the business by its id or number (another business's is not found), for the
 * business's side of single-invoice links (`requests/invoice-links.server.ts`). `payable` is the
 * rule the pay page and payment requests apply (`PAYABLE_STATUSES`, and something owing).
 */
export async function findInvoiceToLink(
  db: Db,
  businessId: string,
  idOrNumber: string,
): Promise<LinkableInvoice | null> {
  const row = await db
    .selectFrom("invoices")
    .innerJoin("accounts", "accounts.id", "invoices.account_id")
    .select([
      "invoices.id",
      "invoices.number",
      "invoices.amount_cents as amountCents",
      "invoices.balance_cents as balanceCents",
      "invoices.due_date as dueDate",
      "invoices.status",
      "accounts.id as accountId",
      "accounts.number as accountNumber",
      "accounts.name as accountName",
    ])
    .where("invoices.business_id", "=", businessId)
    .where("accounts.business_id", "=", businessId)
    .where((eb) =>
      UUID.test(idOrNumber)
        ? eb.or([eb("invoices.id", "=", idOrNumber.toLowerCase()), eb("invoices.number", "=", idOrNumber)])
        : eb("invoices.number", "=", idOrNumber),
    )
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    number: row.number,
    amountCents: row.amountCents,
    balanceCents: row.balanceCents,
    dueDate: row.dueDate,
    status: row.status,
    account: { id: row.accountId, number: row.accountNumber, name: row.accountName },
    payable: (PAYABLE_STATUSES as readonly number[]).includes(row.status) && row.balanceCents > 0,
  };
}

/**
 * The invoice a link opens — its number, and its account's name, number and address — or null
 * (another business's, gone). The route shows the account only while the link is live.
 */
export async function findLinkedInvoice(businessId: string, invoiceId: string) {
  if (!UUID.test(invoiceId)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("invoices")
    .innerJoin("accounts", "accounts.id", "invoices.account_id")
    .select([
      "invoices.id",
      "invoices.number",
      "invoices.account_id as accountId",
      "accounts.number as accountNumber",
      "accounts.name as accountName",
      "accounts.address as accountAddress",
    ])
    .where("invoices.business_id", "=", businessId)
    .where("accounts.business_id", "=", businessId)
    .where("invoices.id", "=", invoiceId)
    .executeTakeFirst();
  return row ?? null;
}
