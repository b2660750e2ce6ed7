import { sql } from "kysely";
import { isPayableState, paymentRequestState } from "~/lib/payment-request-state";
import { sendContactMail } from "../communication/contact-mail.server";
import { contactsWantingEmail } from "../communication/preferences.server";
import { publicLink } from "../host/host.server";
import {
  deliverLinkEmail,
  linkSender,
  reissueLink,
  type Delivery,
  payIdForEmail,
} from "../links/link-lifecycle.server";
import { createLinkToken, revokeLinkTokens } from "../links/link-tokens.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { RequestProblem } from "../platform/problems.server";
import type { PaymentRequestView } from "./payment-request-view.server";
import { getPaymentRequest } from "./queries.server";
import { renderPaymentRequestEmail } from "./request-email.server";
import { lockForChange, type BeforeCommit } from "./request-rows.server";

/**
 * Emailing a payment request (issue 14, decisions 032 and 039): send, resend and remind. Every
 * email carries a link token of its own (purpose `payment-request`, subject the request, bound to
 * the recipient): sending again revokes the recipient's earlier links, so a forwarded or leaked
 * old email stops working; a reminder adds a link and revokes none.
 */

export type { Delivery } from "../links/link-lifecycle.server";
export type SendResult = { request: PaymentRequestView; deliveries: Delivery[] };

/**
 * Emails the request to each recipient with a new link, revoking that recipient's earlier links
 * to it. `send` takes a request that was never sent; `resend` one that was (its old links stop
 * working: that is the point of a resend). Paid, expired and cancelled requests are refused.
 * The links and counts are committed before any mail leaves; a mail failure is reported per
 * recipient in `deliveries`, never thrown.
 */
export async function sendPaymentRequest(
  businessId: string,
  idOrReference: string,
  options: {
    resend?: boolean;
    now?: Date;
    beforeCommit?: BeforeCommit;
    /** The CLI's --print-link (demos only): the link is otherwise in the email alone. */
    onLink?: (email: string, link: string) => void;
  } = {},
): Promise<SendResult> {
  const now = options.now ?? clockNow();
  const { found, db, branding, business } = await openForSending(businessId, idOrReference, now);

  const links = await db.transaction().execute(async (tx) => {
    const row = await lockPayable(tx, businessId, found.id, now, "it can no longer be sent.");
    if (options.resend && row.status === "created") {
      throw new RequestProblem("conflict", "The request has not been sent yet: send it first.");
    }
    if (!options.resend && row.status !== "created") {
      throw new RequestProblem("conflict", "The request has been sent already: resend it to send new links.");
    }
    // Only people who are still contacts of the account (and not disabled) get a link.
    const recipients = await recipientsOf(tx, businessId, row.id);
    const out: { contactId: string; email: string; firstName: string; token: string | null }[] = [];
    for (const recipient of recipients) {
      const subject = { businessId, purpose: "payment-request" as const, subjectId: row.id };
      if (recipient.disabledAt || !recipient.linked) {
        // No longer a contact of the account: their earlier links stop working, and no new one.
        await revokeLinkTokens(tx, { ...subject, contactId: recipient.contactId });
        out.push({
          contactId: recipient.contactId,
          email: recipient.email,
          firstName: recipient.firstName,
          token: null,
        });
        continue;
      }
      const link = await reissueLink(tx, {
        ...subject,
        contactId: recipient.contactId,
        expiresAt: new Date(row.expiresAt),
      });
      out.push({
        contactId: recipient.contactId,
        email: recipient.email,
        firstName: recipient.firstName,
        token: link.token,
      });
    }
    const sentTo = recipients.filter((r) => !r.disabledAt && r.linked).map((r) => r.contactId);
    if (sentTo.length) {
      await tx
        .updateTable("payment_request_recipients")
        .set({ send_count: sql`send_count + 1`, last_sent_at: now })
        .where("business_id", "=", businessId)
        .where("request_id", "=", row.id)
        .where("contact_id", "in", sentTo)
        .execute();
    }
    await tx
      .updateTable("payment_requests")
      .set({ status: "sent", sent_at: sql`coalesce(sent_at, ${now})` })
      .where("business_id", "=", businessId)
      .where("id", "=", row.id)
      .execute();
    await options.beforeCommit?.(tx, row.id);
    return out;
  });

  const request = (await getPaymentRequest(businessId, found.id, { now }))!;
  const payId = await requestPayId(branding, request);
  const deliveries: Delivery[] = [];
  for (const link of links) {
    if (!link.token) {
      deliveries.push({ email: link.email, sent: false, error: "No longer a contact of the account: not sent." });
      continue;
    }
    const url = publicLink(branding, `/customer/payment-request/${link.token}`);
    options.onLink?.(link.email, url);
    deliveries.push(
      await deliverLinkEmail(
        "payment request",
        link.email,
        { reference: request.reference, to: link.email, resend: !!options.resend },
        // Transactional: sent whatever the contact's preferences, with a link to them (decision 039).
        () =>
          sendContactMail({
            branding,
            contact: { id: link.contactId, email: link.email },
            category: "payment-requests",
            replyTo: business.supportEmail,
            render: (preferences) =>
              renderPaymentRequestEmail({
                branding,
                support: business,
                recipientName: link.firstName,
                request,
                link: url,
                preferences,
                payId,
              }),
          }),
      ),
    );
  }
  return { request, deliveries };
}

export type RemindSkip = { email: string; reason: "opted-out" | "not-a-contact" | "reminded-recently" };
export type RemindResult = {
  request: PaymentRequestView;
  /** Recipients the reminder was emailed to. */
  sent: { email: string }[];
  /**
   * Recipients who got none: they opted out of payment reminders, left the account, or were
   * reminded less than REMINDER_SPACING_MS ago (while another recipient was due one).
   */
  skipped: RemindSkip[];
  /** Recipients whose reminder the mail server did not take (a later reminder may try again). */
  failed: { email: string; error: string }[];
};

/**
 * At most one reminder a day to each recipient: an integration calling remind in a loop must not
 * fill a contact's inbox. A retry after a failure uses the same Idempotency-Key instead.
 */
export const REMINDER_SPACING_MS = 24 * 60 * 60 * 1000;

/**
 * Reminds the recipients of an open request that was sent before (issue 17; decision 039). A
 * reminder is the contact's choice, unlike the request itself: a recipient who opted out of
 * payment reminders is skipped. Every other recipient still a contact of the account, and not
 * reminded in the last 24 hours, gets an additional link with the request's expiry — a reminder
 * never revokes: the request email they already have keeps working whatever becomes of this one
 * (revoking is resend's job). When nobody is due one because each wanting recipient was reminded
 * within 24 hours, the reminder is refused (409) and nothing is sent. Paid, expired, cancelled and
 * never-sent requests are refused. A recipient is counted (`remind_count`, `last_reminded_at`)
 * only once their message has left, after sending: a failed send or an opt-out found at sending
 * counts nothing. The answer says who was sent, who was skipped and why, and whose mail failed.
 */
export async function remindPaymentRequest(
  businessId: string,
  idOrReference: string,
  options: {
    now?: Date;
    beforeCommit?: BeforeCommit;
    /** Called before each message leaves, and awaited (the CLI's --print-link). */
    onLink?: (email: string, link: string) => void | Promise<void>;
  } = {},
): Promise<RemindResult> {
  const now = options.now ?? clockNow();
  const { found, db, branding, business } = await openForSending(businessId, idOrReference, now);

  const planned = await db.transaction().execute(async (tx) => {
    const row = await lockPayable(tx, businessId, found.id, now, "there is nothing to remind about.");
    if (row.status === "created") {
      throw new RequestProblem("conflict", "The request has not been sent yet: send it first.");
    }
    const recipients = await recipientsOf(tx, businessId, row.id);
    const reachable = recipients.filter((r) => !r.disabledAt && r.linked);
    const wanting = await contactsWantingEmail(
      tx,
      businessId,
      reachable.map((r) => r.contactId),
      "reminders",
    );
    const skipped: RemindSkip[] = [];
    const recent: Date[] = [];
    const remind: { contactId: string; email: string; firstName: string; token: string }[] = [];
    for (const recipient of recipients) {
      const last = recipient.lastRemindedAt ? new Date(recipient.lastRemindedAt) : null;
      if (recipient.disabledAt || !recipient.linked) {
        skipped.push({ email: recipient.email, reason: "not-a-contact" });
      } else if (!wanting.has(recipient.contactId)) {
        skipped.push({ email: recipient.email, reason: "opted-out" });
      } else if (last && now.getTime() - last.getTime() < REMINDER_SPACING_MS) {
        skipped.push({ email: recipient.email, reason: "reminded-recently" });
        recent.push(last);
      } else {
        // An additional link: the ones the recipient already has keep working.
        const link = await createLinkToken(tx, {
          businessId,
          purpose: "payment-request",
          subjectId: row.id,
          contactId: recipient.contactId,
          expiresAt: new Date(row.expiresAt),
        });
        remind.push({
          contactId: recipient.contactId,
          email: recipient.email,
          firstName: recipient.firstName,
          token: link.token,
        });
      }
    }
    if (!remind.length && recent.length) {
      const latest = new Date(Math.max(...recent.map((d) => d.getTime())));
      const next = new Date(latest.getTime() + REMINDER_SPACING_MS);
      throw new RequestProblem(
        "conflict",
        `A reminder was sent less than 24 hours ago (at ${latest.toISOString()}): the next one can be sent from ${next.toISOString()}. Nothing was sent.`,
      );
    }
    await options.beforeCommit?.(tx, row.id);
    return { remind, skipped };
  });

  // The request as it is now (a payment may have landed meanwhile), for the emails.
  const current = (await getPaymentRequest(businessId, found.id, { now }))!;
  const payId = await requestPayId(branding, current);
  const sentTo: string[] = [];
  const sent: RemindResult["sent"] = [];
  const skipped = [...planned.skipped];
  const failed: RemindResult["failed"] = [];
  for (const recipient of planned.remind) {
    const url = publicLink(branding, `/customer/payment-request/${recipient.token}`);
    await options.onLink?.(recipient.email, url);
    try {
      const outcome = await sendContactMail({
        branding,
        contact: { id: recipient.contactId, email: recipient.email },
        category: "reminders",
        replyTo: business.supportEmail,
        render: (preferences) =>
          renderPaymentRequestEmail({
            branding,
            support: business,
            recipientName: recipient.firstName,
            request: current,
            link: url,
            preferences,
            reminder: { now },
            payId,
          }),
      });
      if (outcome.sent) {
        sentTo.push(recipient.contactId);
        sent.push({ email: recipient.email });
        logger.info("payment reminder emailed", { reference: current.reference, to: recipient.email });
      } else {
        // Opted out between the plan and the send: the one check at sending has the last word.
        skipped.push({ email: recipient.email, reason: "opted-out" });
      }
    } catch (error) {
      logger.warn("payment reminder email failed", { reference: current.reference, to: recipient.email, error });
      failed.push({ email: recipient.email, error: "The mail server did not take the message." });
    }
  }
  // Counted once sent, and only those: the count and the spacing are of mail that left.
  if (sentTo.length) {
    await db
      .updateTable("payment_request_recipients")
      .set({ remind_count: sql`remind_count + 1`, last_reminded_at: now })
      .where("business_id", "=", businessId)
      .where("request_id", "=", found.id)
      .where("contact_id", "in", sentTo)
      .execute();
  }
  skipped.sort((a, b) => a.email.localeCompare(b.email));
  const request = (await getPaymentRequest(businessId, found.id, { now }))!;
  return { request, sent, skipped, failed };
}

/**
 * What send and remind start from: the request, and who sends its links (a business without a
 * host name can make none).
 */
async function openForSending(businessId: string, idOrReference: string, now: Date) {
  const found = await getPaymentRequest(businessId, idOrReference, { now });
  if (!found) throw new RequestProblem("not-found", "No such payment request.");
  const db = await getDb();
  const { branding, support: business } = await linkSender(
    db,
    businessId,
    () => new RequestProblem("conflict", "This business has no host name, so no link to the request can be made."),
  );
  return { found, db, branding, business };
}

/**
 * Locks a request that is to be emailed (sent or reminded of), refusing one that can no longer be
 * paid; `refusal` ends the conflict's message ("it can no longer be sent.").
 */
async function lockPayable(tx: Db, businessId: string, requestId: string, now: Date, refusal: string) {
  const row = await lockForChange(tx, businessId, requestId);
  const state = paymentRequestState(row, now);
  if (state === "paid" && row.status !== "paid") {
    throw new RequestProblem(
      "conflict",
      `Nothing is owing on this request any more (its invoices have been paid): ${refusal}`,
    );
  }
  if (!isPayableState(state)) {
    throw new RequestProblem("conflict", `The request is ${state}: ${refusal}`);
  }
  return row;
}

/** A request's recipients, by email, and whether each is still an enabled contact of its account. */
async function recipientsOf(tx: Db, businessId: string, requestId: string) {
  return tx
    .selectFrom("payment_request_recipients as r")
    .innerJoin("payment_requests as pr", "pr.id", "r.request_id")
    .innerJoin("contacts as c", "c.id", "r.contact_id")
    .leftJoin("account_contacts as ac", (join) =>
      join
        .onRef("ac.contact_id", "=", "r.contact_id")
        .onRef("ac.account_id", "=", "pr.account_id")
        .onRef("ac.business_id", "=", "r.business_id"),
    )
    .select([
      "r.contact_id as contactId",
      "r.last_reminded_at as lastRemindedAt",
      "c.email",
      "c.first_name as firstName",
      "c.disabled_at as disabledAt",
      "ac.contact_id as linked",
    ])
    .where("r.business_id", "=", businessId)
    .where("r.request_id", "=", requestId)
    .orderBy("c.email")
    .execute();
}

/** The request's account's PayID, named in its email as the transfer that adds no surcharge (decision 075). */
function requestPayId(branding: { businessId: string; hostname: string }, request: PaymentRequestView) {
  return payIdForEmail({
    businessId: branding.businessId,
    hostname: branding.hostname,
    accountId: request.account.id,
    accountNumber: request.account.number,
  });
}
