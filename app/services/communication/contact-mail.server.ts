import { randomUUID } from "node:crypto";
import { isOptionalCategory, type ContactMailCategory } from "~/lib/communication";
import { publicLink, type HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { EmailPreferenceLinks } from "../platform/email-layout.server";
import { logger } from "../platform/logger.server";
import type { OutgoingMail, SentMail } from "../platform/mail.server";
import { queueMail, sendThroughOutbox, type QueuedMail } from "../platform/mail-outbox.server";
import { preferencesLinkPath, signLink, unsubscribeLinkPath } from "./preference-links.server";
import { emailWanted } from "./preferences.server";

/**
 * Every email the portal sends to a contact of a business leaves here (issue 17; decision 039).
 *
 * - A message that is the contact's choice (statements, invoices, reminders, marketing) is sent
 *   only if the contact wants it by email — the one check, `emailWanted`, made here just before
 *   sending — and carries RFC 2369 `List-Unsubscribe` with RFC 8058 `List-Unsubscribe-Post`: the
 *   signed one-click link for that topic, which mail programs offer as their own Unsubscribe
 *   button.
 * - A transactional message (receipts, payment requests, schedules, agreements, the contact's
 *   login) is always sent, and carries no List-Unsubscribe: a mail program's Unsubscribe button
 *   would promise what a receipt cannot do.
 * - Both carry a signed link to the contact's preferences, for the message's footer
 *   (`links.preferences`: the contact's preference page, `/communication/<token>`), and a choice
 *   also its unsubscribe page (`links.unsubscribe`, with `links.topic`; null for transactional mail).
 *
 * `render` gets the links and returns the message: the links are in its HTML and text parts.
 * Every message goes through the mail outbox (decision 044): written in a transaction, sent once.
 */
export type ContactMailLinks = EmailPreferenceLinks;

export type RenderedMail = { subject: string; text: string; html?: string };

export type ContactMailResult =
  { sent: true; messageId: string; transport: SentMail["transport"] } | { sent: false; skipped: "opted-out" };

/** The signed links for one contact's message about `category` (minted, never stored). */
export function contactMailLinks(
  branding: Pick<HostBranding, "businessId" | "hostname" | "publicBaseUrl">,
  contactId: string,
  category: ContactMailCategory,
): ContactMailLinks {
  const preferences = publicLink(
    branding,
    preferencesLinkPath(signLink(branding.businessId, contactId, { kind: "preferences" })),
  );
  if (!isOptionalCategory(category)) return { preferences, unsubscribe: null, topic: null };
  const unsubscribe = publicLink(
    branding,
    unsubscribeLinkPath(signLink(branding.businessId, contactId, { kind: "unsubscribe", topic: category })),
  );
  return { preferences, unsubscribe, topic: category };
}

type ContactMailInput = {
  branding: HostBranding;
  contact: { id: string; email: string };
  category: ContactMailCategory;
  replyTo?: string | null;
  render: (links: ContactMailLinks) => Promise<RenderedMail> | RenderedMail;
};

/**
 * The message to one contact of the business, or null when the contact has opted out of it (the
 * one preference check, made on `db`: the caller's transaction when it is in one).
 */
export async function composeContactMail(db: Db, input: ContactMailInput): Promise<OutgoingMail | null> {
  const { branding, contact, category } = input;
  const optional = isOptionalCategory(category);
  if (optional && !(await emailWanted(db, branding.businessId, contact.id, category))) {
    logger.info("mail not sent: the contact opted out", { to: contact.email, category });
    return null;
  }
  const links = contactMailLinks(branding, contact.id, category);
  const rendered = await input.render(links);
  return {
    to: contact.email,
    fromName: branding.businessName,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    subject: rendered.subject,
    text: rendered.text,
    ...(rendered.html !== undefined ? { html: rendered.html } : {}),
    category,
    ...(optional
      ? {
          preferenceChecked: true,
          headers: {
            "List-Unsubscribe": `<${links.unsubscribe}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        }
      : {}),
  };
}

/**
 * Writes one message to one contact into the mail outbox in `tx`, the transaction of its cause
 * (decision 044); the caller kicks it (`kickMail`) after commit. Null when the contact opted out.
 */
export async function queueContactMail(tx: Db, input: ContactMailInput & { key: string }): Promise<QueuedMail | null> {
  const mail = await composeContactMail(tx, input);
  if (!mail) return null;
  return queueMail(tx, { key: input.key, businessId: input.branding.businessId, mail });
}

/**
 * Sends one message to one contact of the business, through the mail outbox in a transaction of
 * its own (decision 044), delivered at once. A message the contact has opted out of is not
 * rendered or sent (`{ sent: false, skipped: "opted-out" }`, logged); anything else is sent, and
 * a mail server's refusal is thrown — the message then stays in the outbox, whose job tries again.
 *
 * `key` names the cause (the same key never makes a second message); without one, each call is
 * a cause of its own.
 */
export async function sendContactMail(
  input: ContactMailInput & {
    key?: string;
    /** A transaction or connection to read the preference with (the database's own by default). */
    db?: Db;
  },
): Promise<ContactMailResult> {
  const mail = await composeContactMail(input.db ?? (await getDb()), input);
  if (!mail) return { sent: false, skipped: "opted-out" };
  const sent = await sendThroughOutbox(mail, {
    key: input.key ?? `contact-mail:${randomUUID()}`,
    businessId: input.branding.businessId,
  });
  return { sent: true, messageId: sent.messageId, transport: sent.transport };
}
