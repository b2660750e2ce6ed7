import { sql } from "kysely";
import { z } from "zod";
import { sendContactMail } from "../communication/contact-mail.server";
import { publicLink } from "../host/host.server";
import { findInvoiceToLink, type LinkableInvoice } from "../links/invoice-links.server";
import {
  deliverLinkEmail,
  linkSender,
  reissueLink,
  type Delivery,
  payIdForEmail,
} from "../links/link-lifecycle.server";
import { revokeLinkTokens } from "../links/link-tokens.server";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import { clip, findContact, resolveRecipients } from "./lookups.server";
import { renderInvoiceLinkEmail } from "./request-email.server";
import { DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS, MAX_RECIPIENTS_PER_REQUEST } from "./request-input.server";

/**
 * Single-invoice links, the business's side (issue 31; decision 074): email one or more contacts of an
 * invoice's account each a link of their own to `/customer/invoices-and-payments/<token>` (purpose
 * `invoice`, subject the invoice), revoke them, and list them. The token rules are the payment
 * request's (decisions 031 and 032), through the same steps in `links/`: a send revokes that contact's
 * earlier live links to the invoice and mints a new one (`reissueLink`), so only the newest email
 * works; links are committed before any mail leaves, and a mail failure is reported per recipient
 * (`deliverLinkEmail`), never thrown. There is no record of its own: the links are the record.
 */
const DAY_MS = 86_400_000;
const PATH = "/customer/invoices-and-payments/";

const invoiceField = z
  .string({ required_error: "Give the invoice's id or number.", invalid_type_error: "Give the invoice as text." })
  .trim()
  .min(1, "Give the invoice's id or number.")
  .max(100, "That is not an invoice.");

const contactField = (what: string) =>
  z
    .string({ required_error: `Give the ${what}'s id or email.`, invalid_type_error: `Give the ${what} as text.` })
    .trim()
    .min(1, `Give the ${what}'s id or email.`)
    .max(254, "That is not a contact.");

const SendSchema = z
  .object({
    invoice: invoiceField,
    recipients: z
      .array(contactField("recipient"), {
        required_error: "Name at least one recipient.",
        invalid_type_error: "Give a list of contacts.",
      })
      .min(1, "Name at least one recipient.")
      .max(MAX_RECIPIENTS_PER_REQUEST, `At most ${MAX_RECIPIENTS_PER_REQUEST} recipients at once.`),
    expiresInDays: z
      .number({ invalid_type_error: "Give a whole number of days." })
      .int("Give a whole number of days.")
      .min(1, "At least 1 day.")
      .max(MAX_EXPIRY_DAYS, `At most ${MAX_EXPIRY_DAYS} days.`)
      .nullish(),
  })
  .strict();

const RevokeSchema = z.object({ invoice: invoiceField, contact: contactField("contact").nullish() }).strict();

type BeforeCommit = (tx: Db, invoiceId: string) => Promise<void>;

/** The invoice as the answers name it. */
export type InvoiceLinkInvoice = {
  id: string;
  number: string;
  account: { id: string; number: string; name: string };
  amountCents: number;
  balanceCents: number;
  currency: string;
  dueDate: string;
};

export type InvoiceLinkSendResult = {
  invoice: InvoiceLinkInvoice;
  /** Each recipient's new link: until when, and how many of their earlier links to the invoice it replaced. */
  links: { contact: { id: string; email: string }; expiresAt: string; replaced: number }[];
  deliveries: Delivery[];
};

/**
 * Emails each recipient (contacts of the invoice's account, by id or email) a link of their own to pay
 * one invoice. 404 for an invoice that is not the business's; 409 for one that cannot be paid online
 * (paid, closed, archived, on hold, disputed) or a business with no host name; 400 for bad input and for
 * anyone who is not an enabled contact of that account.
 */
export async function sendInvoiceLinks(
  businessId: string,
  input: unknown,
  options: {
    now?: Date;
    beforeCommit?: BeforeCommit;
    /** The CLI's --print-link (demos only): the link is otherwise in the email alone. */
    onLink?: (email: string, link: string) => void;
  } = {},
): Promise<InvoiceLinkSendResult> {
  const parsed = SendSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const now = options.now ?? clockNow();
  const db = await getDb();
  const invoice = await requireInvoice(db, businessId, parsed.data.invoice);
  if (!invoice.payable) {
    throw new RequestProblem(
      "conflict",
      `Invoice ${invoice.number} cannot be paid online (it is paid, closed, on hold or disputed): no link was sent.`,
    );
  }
  const { branding, support } = await linkSender(
    db,
    businessId,
    () => new RequestProblem("conflict", "This business has no host name, so no link to the invoice can be made."),
  );
  const recipients = await resolveRecipients(db, businessId, invoice.account, parsed.data.recipients);
  const expiresAt = new Date(now.getTime() + (parsed.data.expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS);

  const minted = await db.transaction().execute(async (tx) => {
    const out: { contactId: string; email: string; firstName: string; token: string; replaced: number }[] = [];
    for (const recipient of recipients) {
      // Only the newest email works: the contact's earlier links to this invoice stop here.
      const link = await reissueLink(tx, {
        businessId,
        purpose: "invoice",
        subjectId: invoice.id,
        contactId: recipient.id,
        expiresAt,
      });
      out.push({
        contactId: recipient.id,
        email: recipient.email,
        firstName: recipient.firstName,
        token: link.token,
        replaced: link.replaced,
      });
    }
    await options.beforeCommit?.(tx, invoice.id);
    return out;
  });

  // The transfer that adds no card surcharge, named beside it in the email (decision 075).
  const payId = await payIdForEmail({
    businessId,
    hostname: branding.hostname,
    accountId: invoice.account.id,
    accountNumber: invoice.account.number,
  });
  const deliveries: Delivery[] = [];
  for (const link of minted) {
    const url = publicLink(branding, `${PATH}${link.token}`);
    options.onLink?.(link.email, url);
    deliveries.push(
      await deliverLinkEmail(
        "invoice link",
        link.email,
        { invoice: invoice.number, to: link.email },
        // Transactional, as a payment request is: the business asked this contact to pay (decision 039).
        () =>
          sendContactMail({
            branding,
            contact: { id: link.contactId, email: link.email },
            category: "payment-requests",
            replyTo: support.supportEmail,
            render: (preferences) =>
              renderInvoiceLinkEmail({
                branding,
                support,
                recipientName: link.firstName,
                invoice,
                expiresAt,
                link: url,
                now,
                preferences,
                payId,
              }),
          }),
      ),
    );
  }
  return {
    invoice: invoiceView(invoice, branding.currency),
    links: minted.map((link) => ({
      contact: { id: link.contactId, email: link.email },
      expiresAt: expiresAt.toISOString(),
      replaced: link.replaced,
    })),
    deliveries,
  };
}

export type InvoiceLinkRevokeResult = {
  invoice: { id: string; number: string };
  /** The contact whose links were revoked; null when every contact's were. */
  contact: { id: string; email: string } | null;
  revoked: number;
};

/**
 * Revokes the live links to one invoice: every contact's, or one contact's (any contact of the business:
 * one who has left the account is who this is for). A revoked link's holder is told only that it was
 * replaced or withdrawn (decision 031). Idempotent: again, `revoked: 0`. Works whatever the invoice's state.
 */
export async function revokeInvoiceLinks(
  businessId: string,
  input: unknown,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<InvoiceLinkRevokeResult> {
  const parsed = RevokeSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const db = await getDb();
  const invoice = await requireInvoice(db, businessId, parsed.data.invoice);
  const wanted = parsed.data.contact;
  const contact = wanted ? await findContact(db, businessId, wanted) : null;
  if (wanted && !contact) throw invalid({ contact: `No contact "${clip(wanted)}" at this business.` });
  const revoked = await db.transaction().execute(async (tx) => {
    const count = await revokeLinkTokens(tx, {
      businessId,
      purpose: "invoice",
      subjectId: invoice.id,
      ...(contact ? { contactId: contact.id } : {}),
    });
    await options.beforeCommit?.(tx, invoice.id);
    return count;
  });
  logger.info("invoice links revoked", { invoice: invoice.number, contact: contact?.email ?? "all", revoked });
  return {
    invoice: { id: invoice.id, number: invoice.number },
    contact: contact ? { id: contact.id, email: contact.email } : null,
    revoked,
  };
}

export const INVOICE_LINK_STATES = ["live", "expired", "revoked"] as const;
export type InvoiceLinkState = (typeof INVOICE_LINK_STATES)[number];

export type InvoiceLinkView = {
  id: string;
  invoice: { id: string; number: string };
  contact: { id: string; email: string };
  state: InvoiceLinkState;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  firstOpenedAt: string | null;
  lastOpenedAt: string | null;
  openCount: number;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The business's single-invoice links, newest first, a page at a time: by invoice, contact and state
 * (`live`, `expired`, `revoked`), never the token. An unknown invoice or contact in a filter is a 400, as
 * the other lists' filters are.
 */
export async function listInvoiceLinks(
  businessId: string,
  query: {
    invoice?: string | null;
    contact?: string | null;
    state?: string | null;
    limit?: number | null;
    cursor?: string | null;
  },
  options: { now?: Date } = {},
): Promise<{ items: InvoiceLinkView[]; nextCursor: string | null }> {
  const fields: Record<string, string> = {};
  const state = query.state ?? null;
  if (state !== null && !(INVOICE_LINK_STATES as readonly string[]).includes(state)) {
    fields.state = `Use one of ${INVOICE_LINK_STATES.join(", ")}.`;
  }
  const tooLong = (value: string | null | undefined) => value !== null && value !== undefined && value.length > 254;
  if (tooLong(query.invoice)) fields.invoice = "That is not an invoice.";
  if (tooLong(query.contact)) fields.contact = "That is not a contact.";
  const { limit, cursor } = listPage(query, fields);
  if (Object.keys(fields).length) throw invalid(fields);
  const now = options.now ?? clockNow();
  const db = await getDb();
  let select = db
    .selectFrom("link_tokens as l")
    .innerJoin("invoices as i", (join) =>
      join.onRef("i.id", "=", "l.subject_id").onRef("i.business_id", "=", "l.business_id"),
    )
    .innerJoin("contacts as c", "c.id", "l.contact_id")
    .select([
      "l.id",
      "i.id as invoiceId",
      "i.number as invoiceNumber",
      "c.id as contactId",
      "c.email",
      "l.created_at as createdAt",
      "l.expires_at as expiresAt",
      "l.revoked_at as revokedAt",
      "l.first_opened_at as firstOpenedAt",
      "l.last_opened_at as lastOpenedAt",
      "l.open_count as openCount",
      sql<string>`to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
    ])
    .where("l.business_id", "=", businessId)
    .where("l.purpose", "=", "invoice");
  if (query.invoice) {
    const invoice = await findInvoiceToLink(db, businessId, query.invoice.trim());
    if (!invoice) throw invalid({ invoice: `No invoice "${clip(query.invoice)}" at this business.` });
    select = select.where("l.subject_id", "=", invoice.id);
  }
  if (query.contact) {
    const contact = await findContact(db, businessId, query.contact.trim());
    if (!contact) throw invalid({ contact: `No contact "${clip(query.contact)}" at this business.` });
    select = select.where("l.contact_id", "=", contact.id);
  }
  if (state === "revoked") select = select.where("l.revoked_at", "is not", null);
  else if (state === "expired") select = select.where("l.revoked_at", "is", null).where("l.expires_at", "<=", now);
  else if (state === "live") select = select.where("l.revoked_at", "is", null).where("l.expires_at", ">", now);
  if (cursor) select = select.where(beforeCursor("l.created_at", "l.id", cursor));
  const rows = await select
    .orderBy("l.created_at", "desc")
    .orderBy("l.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    items: page.map((row) => ({
      id: row.id,
      invoice: { id: row.invoiceId, number: row.invoiceNumber },
      contact: { id: row.contactId, email: row.email },
      state: row.revokedAt ? "revoked" : new Date(row.expiresAt) <= now ? "expired" : "live",
      createdAt: iso(row.createdAt)!,
      expiresAt: iso(row.expiresAt)!,
      revokedAt: iso(row.revokedAt),
      firstOpenedAt: iso(row.firstOpenedAt),
      lastOpenedAt: iso(row.lastOpenedAt),
      openCount: row.openCount,
    })),
    nextCursor,
  };
}

/** The invoice named, or a 404: another business's invoice is not found, exactly like one that does not exist. */
async function requireInvoice(db: Db, businessId: string, idOrNumber: string): Promise<LinkableInvoice> {
  const invoice = await findInvoiceToLink(db, businessId, idOrNumber);
  if (!invoice) throw new RequestProblem("not-found", "No such invoice.");
  return invoice;
}

function invoiceView(invoice: LinkableInvoice, currency: string): InvoiceLinkInvoice {
  return {
    id: invoice.id,
    number: invoice.number,
    account: invoice.account,
    amountCents: invoice.amountCents,
    balanceCents: invoice.balanceCents,
    currency,
    dueDate: invoice.dueDate,
  };
}
