import { formatDate, formatMoney, ordinal } from "~/lib/format";
import { cardName } from "~/lib/card";
import { endSentence } from "~/lib/sentence";
import { composeContactMail } from "../communication/contact-mail.server";
import { findBusinessBranding, publicLink } from "../host/host.server";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { preferenceTextLines } from "../platform/email-layout.server";
import { logger } from "../platform/logger.server";
import {
  deliverOutboxMessage,
  kickMail,
  queueMail,
  registerMailRenderer,
  type AttachmentSpec,
  type QueuedMail,
} from "../platform/mail-outbox.server";
import type { OutgoingMail } from "../platform/mail.server";
import { renderReceiptHtml } from "./receipt-email.server";
import { RECEIPT_LINK_DAYS, receiptLinkPath, signReceiptLink } from "./receipt-links.server";
import { signedInPayHref, stillOwing } from "./receipt-owing.server";

/**
 * The receipt email for a finished payment or promise, to the contact who made it (decision 044):
 * written into the mail outbox in the transaction that records the payment's success (or the
 * promise), under the key `receipt:<paymentId>` — so a receipt exists exactly when the payment
 * does, and one payment never has two — and rendered when it is sent, from the payment as
 * stored: the outbox keeps no copy of it.
 */
export function queueReceipt(tx: Db, businessId: string, paymentId: string): Promise<QueuedMail> {
  return queueMail(tx, {
    key: `receipt:${paymentId}`,
    businessId,
    category: "receipts",
    render: { kind: "receipt", paymentId },
  });
}

/**
 * The outbox renders a stored receipt with this when it sends it. Registered when this module
 * loads: every receipt is queued through it, and the background work that sends the outbox's mail
 * (jobs/background.server.ts) loads it too, so any process that may send a receipt can render it.
 */
export function registerReceiptRenderer() {
  registerMailRenderer("receipt", async (businessId, payload) =>
    renderReceiptMail(await getDb(), businessId, payload.paymentId!),
  );
}
registerReceiptRenderer();

/** Sends a receipt queued in a transaction that has now committed; a failure is left to the outbox. */
export async function kickReceipt(queued: QueuedMail | null | undefined) {
  if (queued) await kickMail([queued.id]);
}

/**
 * A receipt outside the payment's transaction (an instalment's, from its email job; decision
 * 035): the same key, so it is the receipt the settlement wrote if there was one. A mail failure
 * is logged and left to the outbox's retries.
 */
export async function sendReceipt(branding: { businessId: string }, paymentId: string) {
  try {
    const db = await getDb();
    const queued = await db.transaction().execute((tx) => queueReceipt(tx, branding.businessId, paymentId));
    await deliverOutboxMessage(queued.id);
  } catch (error) {
    logger.error("receipt email not sent now: the outbox tries again", { paymentId, error });
  }
}

/**
 * The receipt as it is sent, from the payment as stored; null if it is no longer a receipt's. It asks
 * for the receipt's PDF as an attachment (issue 34), which documents/receipt-attachment.server.ts makes
 * when it is sent (the kind's name is that module's RECEIPT_PDF: payments cannot import documents,
 * which depend on them).
 */
export async function renderReceiptMail(
  db: Db,
  businessId: string,
  paymentId: string,
): Promise<(OutgoingMail & { attach: AttachmentSpec[] }) | null> {
  const mail = await renderReceiptMessage(db, businessId, paymentId);
  return mail && { ...mail, attach: [{ kind: "receipt-pdf", paymentId }] };
}

async function renderReceiptMessage(db: Db, businessId: string, paymentId: string): Promise<OutgoingMail | null> {
  const branding = await findBusinessBranding(db, businessId);
  if (!branding) {
    logger.error("receipt not sent: the business has no host", { businessId, paymentId });
    return null;
  }
  const payment = await db
    .selectFrom("payments")
    .innerJoin("contacts", "contacts.id", "payments.created_by")
    .innerJoin("businesses", "businesses.id", "payments.business_id")
    .select([
      "businesses.support_email as supportEmail",
      "businesses.support_phone as supportPhone",
      "payments.reference",
      "payments.status",
      "payments.amount_cents",
      "payments.subtotal_cents",
      "payments.merchant_fee_cents",
      "payments.late_fee_cents",
      "payments.discount_cents",
      "payments.method",
      "payments.card_brand",
      "payments.card_last4",
      "payments.promise_date",
      "payments.created_at",
      "payments.purpose",
      "payments.payer_reference",
      "payments.note",
      "payments.schedule_instalment_id as instalmentId",
      "payments.payment_request_id as paymentRequestId",
      "payments.link_token_id as linkTokenId",
      "contacts.id as contactId",
      "contacts.email",
      "contacts.first_name",
    ])
    .where("payments.business_id", "=", branding.businessId)
    .where("payments.id", "=", paymentId)
    .executeTakeFirst();
  if (!payment || (payment.status !== "succeeded" && payment.status !== "promised")) return null;
  // "The 2nd of 6 instalments" and the schedule's reference, from the instalment itself.
  const instalment =
    payment.purpose === "instalment" && payment.instalmentId
      ? await db
          .selectFrom("schedule_instalments as si")
          .innerJoin("payment_schedules as ps", "ps.id", "si.schedule_id")
          .select((eb) => [
            "si.seq",
            "ps.reference",
            eb
              .selectFrom("schedule_instalments as all")
              .select((inner) => inner.fn.countAll<number>().as("n"))
              .whereRef("all.schedule_id", "=", "si.schedule_id")
              .as("count"),
          ])
          .where("si.id", "=", payment.instalmentId)
          .where("si.business_id", "=", branding.businessId)
          .executeTakeFirst()
      : undefined;
  const invoices = await db
    .selectFrom("payment_allocations as a")
    .innerJoin("invoices as i", "i.id", "a.invoice_id")
    .select(["i.id", "i.number", "a.amount_cents"])
    .where("a.business_id", "=", branding.businessId)
    .where("a.payment_id", "=", paymentId)
    .orderBy("i.number")
    .execute();
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const promised = payment.status === "promised";
  // The receipt's own signed link (decision 076): it opens this receipt alone, with no sign-in.
  const issuedAt = now();
  const receiptLink = publicLink(
    branding,
    receiptLinkPath(signReceiptLink(branding.businessId, paymentId, { issuedAt })),
  );
  const linkExpires = formatDate(new Date(issuedAt.getTime() + RECEIPT_LINK_DAYS * 86_400_000), {
    timeZone: branding.timeZone,
  });
  // A part payment: what is still owing, and how the rest is paid — the portal's pay page for a
  // payer who paid signed in; the email's own link for one who paid from it (its token is kept
  // only hashed, so this email cannot carry it again).
  const owing = await stillOwing(branding.businessId, {
    status: payment.status,
    purpose: payment.purpose,
    paymentRequestId: payment.paymentRequestId,
    invoiceIds: invoices.map((invoice) => invoice.id),
  });
  const payRestLink = owing && !payment.linkTokenId ? publicLink(branding, signedInPayHref(owing)) : null;
  const owingLines = owing
    ? [
        "",
        owing.request
          ? `Still owing on payment request ${owing.request.reference}: ${money(owing.cents)}`
          : `Still owing on these invoices: ${money(owing.cents)}`,
        ...(payRestLink
          ? []
          : [
              `To pay the rest, open the link in the email you paid from again. If it no longer works, ask ${branding.businessName} for a new one.`,
            ]),
      ]
    : [];
  const lines = [
    `Hello ${payment.first_name || "there"},`,
    "",
    promised
      ? `Thank you: we have your promise to pay ${money(payment.subtotal_cents)} on ${formatDate(payment.promise_date!, { timeZone: branding.timeZone })}.`
      : endSentence(`Thank you for your payment of ${money(payment.amount_cents)} to ${branding.businessName}`),
    ...(instalment
      ? [
          "",
          `The ${ordinal(instalment.seq)} of ${Number(instalment.count)} instalments of payment schedule ${instalment.reference}`,
        ]
      : []),
    "",
    `Reference: ${payment.reference}`,
    `Date: ${formatDate(payment.created_at, { timeZone: branding.timeZone })}`,
    ...(promised
      ? []
      : [
          payment.method === "payto"
            ? "Paid with: PayTo (from your bank account)"
            : `Paid with: ${cardName(payment.card_brand, payment.card_last4 ?? "????")}`,
        ]),
    "",
    ...invoices.map((invoice) => `  ${invoice.number}: ${money(invoice.amount_cents)}`),
    "",
    ...(promised
      ? []
      : [
          payment.purpose === "invoices"
            ? `Invoices: ${money(payment.subtotal_cents)}`
            : payment.purpose === "instalment"
              ? `Instalment: ${money(payment.subtotal_cents)}`
              : `Credited to your account: ${money(payment.subtotal_cents)}${payment.payer_reference ? ` (${payment.payer_reference})` : ""}`,
          ...(payment.late_fee_cents > 0 ? [`Late fees: ${money(payment.late_fee_cents)}`] : []),
          ...(payment.discount_cents > 0 ? [`Early-payment discount: −${money(payment.discount_cents)}`] : []),
          ...(payment.merchant_fee_cents > 0 ? [`Card surcharge: ${money(payment.merchant_fee_cents)}`] : []),
          `Total charged: ${money(payment.amount_cents)}`,
        ]),
    ...owingLines,
  ];
  const linkLines = [
    ...(payRestLink ? ["", `Pay the rest: ${payRestLink}`] : []),
    "",
    `See this receipt (until ${linkExpires}, no sign-in needed): ${receiptLink}`,
  ];
  // A receipt is transactional (decision 039): sent whatever the contact's preferences, with a
  // link to them. The same lines in the host's branded frame (the link becomes the button).
  return composeContactMail(db, {
    branding,
    contact: { id: payment.contactId, email: payment.email },
    category: "receipts",
    render: async (preferences) => ({
      subject: promised
        ? `Your promise to pay ${branding.businessName} (${payment.reference})`
        : instalment
          ? `Receipt: the ${ordinal(instalment.seq)} of ${Number(instalment.count)} instalments to ${branding.businessName} (${payment.reference})`
          : `Receipt for your payment to ${branding.businessName} (${payment.reference})`,
      text: [...lines, ...linkLines, ...preferenceTextLines(branding.businessName, preferences)].join("\n"),
      html: await renderReceiptHtml({
        branding,
        support: { supportEmail: payment.supportEmail, supportPhone: payment.supportPhone },
        title: promised ? "Your promise to pay" : "Receipt",
        lines,
        link: receiptLink,
        linkExpires,
        payRest: payRestLink,
        preferences,
      }),
    }),
  });
}
