import { isOptionalCategory, type ContactMailCategory } from "~/lib/communication";
import { publicLink, type HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { EmailPreferenceLinks } from "../platform/email-layout.server";
import { logger } from "../platform/logger.server";
import { sendMail, type SentMail } from "../platform/mail.server";
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

/**
 * Sends one message to one contact of the business. A message the contact has opted out of is
 * not rendered or sent (`{ sent: false, skipped: "opted-out" }`, logged); anything else is sent,
 * and a mail server's refusal is thrown, as `sendMail` does.
 */
export async function sendContactMail(input: {
  branding: HostBranding;
  contact: { id: string; email: string };
  category: ContactMailCategory;
  replyTo?: string | null;
  render: (links: ContactMailLinks) => Promise<RenderedMail> | RenderedMail;
  /** A transaction or connection to read the preference with (the database's own by default). */
  db?: Db;
}): Promise<ContactMailResult> {
  const { branding, contact, category } = input;
  const optional = isOptionalCategory(category);
  if (optional && !(await emailWanted(input.db ?? (await getDb()), branding.businessId, contact.id, category))) {
    logger.info("mail not sent: the contact opted out", { to: contact.email, category });
    return { sent: false, skipped: "opted-out" };
  }
  const links = contactMailLinks(branding, contact.id, category);
  const rendered = await input.render(links);
  const sent = await sendMail({
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
  });
  return { sent: true, messageId: sent.messageId, transport: sent.transport };
}
