import { formatDate, formatMoney } from "~/lib/format";
import { getDb } from "../platform/database.server";
import { publicLink, type HostBranding } from "../host/host.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { preferenceTextLines } from "../platform/email-layout.server";
import { logger } from "../platform/logger.server";
import { renderReceiptHtml } from "./receipt-email.server";

/**
 * The receipt email for a finished payment or promise, to the contact who made it. A mail
 * failure is logged and never turns a taken payment into an error page: the receipt page
 * has everything the email has.
 */
export async function sendReceipt(
  branding: HostBranding,
  paymentId: string,
  /** An instalment's receipt is sent only by its outbox job (decision 035), whoever settled it. */
  options: { fromOutbox?: boolean } = {},
) {
  try {
    const db = await getDb();
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
        "contacts.id as contactId",
        "contacts.email",
        "contacts.first_name",
      ])
      .where("payments.business_id", "=", branding.businessId)
      .where("payments.id", "=", paymentId)
      .executeTakeFirst();
    if (!payment || (payment.status !== "succeeded" && payment.status !== "promised")) return;
    if (payment.purpose === "instalment" && !options.fromOutbox) return;
    // "Instalment 2 of 6" and the schedule's reference, from the instalment itself.
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
      .select(["i.number", "a.amount_cents"])
      .where("a.business_id", "=", branding.businessId)
      .where("a.payment_id", "=", paymentId)
      .orderBy("i.number")
      .execute();
    const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
    const promised = payment.status === "promised";
    const receiptLink = publicLink(branding, `/payment/complete/${encodeURIComponent(payment.reference)}`);
    const lines = [
      `Hello ${payment.first_name || "there"},`,
      "",
      promised
        ? `Thank you: we have your promise to pay ${money(payment.subtotal_cents)} on ${formatDate(payment.promise_date!, { timeZone: branding.timeZone })}.`
        : `Thank you for your payment of ${money(payment.amount_cents)} to ${branding.businessName}.`,
      ...(instalment
        ? [
            "",
            `Instalment ${instalment.seq} of ${Number(instalment.count)} of payment schedule ${instalment.reference}`,
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
              : `Paid with: ${payment.card_brand ?? "card"} ending ${payment.card_last4 ?? "????"}`,
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
      "",
      `See this receipt in the portal: ${receiptLink}`,
    ];
    // A receipt is transactional (decision 039): sent whatever the contact's preferences, with a
    // link to them. The same lines in the host's branded frame (the link becomes the button).
    await sendContactMail({
      branding,
      contact: { id: payment.contactId, email: payment.email },
      category: "receipts",
      render: async (preferences) => ({
        subject: promised
          ? `Your promise to pay ${branding.businessName} (${payment.reference})`
          : instalment
            ? `Receipt: instalment ${instalment.seq} of ${Number(instalment.count)} to ${branding.businessName} (${payment.reference})`
            : `Receipt for your payment to ${branding.businessName} (${payment.reference})`,
        text: [...lines, ...preferenceTextLines(branding.businessName, preferences)].join("\n"),
        html: await renderReceiptHtml({
          branding,
          support: { supportEmail: payment.supportEmail, supportPhone: payment.supportPhone },
          title: promised ? "Your promise to pay" : "Receipt",
          lines: lines.slice(0, -1),
          link: receiptLink,
          preferences,
        }),
      }),
    });
  } catch (error) {
    logger.error("receipt email failed", { paymentId, error });
    // The outbox's job is tried again later (pg-boss's retries); a page's caller never is.
    if (options.fromOutbox) throw error;
  }
}
