import { addDaysTo } from "~/lib/dates";
import type { EmailPreview } from "~/lib/email-previews";
import { formatDate, formatMoney } from "~/lib/format";
import { endSentence } from "~/lib/sentence";
import { KIND_LABELS, type AgreementOfferView } from "../agreements/agreement-views.server";
import { renderAgreementOfferEmail } from "../agreements/agreement-email.server";
import { publicLink, type HostBranding } from "../host/host.server";
import { renderReceiptHtml } from "../payments/receipt-email.server";
import { businessToday, now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { EmailContact, EmailPreferenceLinks } from "../platform/email-layout.server";
import type { PaymentRequestView } from "../requests/payment-request-view.server";
import { renderPaymentRequestEmail } from "../requests/request-email.server";
import { renderScheduleProposalEmail } from "../schedules/schedule-email.server";

/**
 * The emails a contact gets, rendered for a host admin's brand preview (issue 32, decision 081):
 * with the brand of `branding` (the admin's session's draft, when it previews one; the page's
 * guard resolved it) and demo data of that business alone — its first customer account (by
 * number) that has an invoice, that account's first contact and an invoice of it, its first
 * agreement — or, when the business has no invoice, a specimen plainly named so ("Specimen
 * customer"), with the business's own name. Every query
 * names the business. Nothing is written: no link token, no outbox row, no job; the links in a
 * preview lead to the host's home page.
 */
export type EmailPreviewHtml = { subject: string; html: string; specimen: boolean };

type Demo = {
  specimen: boolean;
  support: EmailContact;
  recipientName: string;
  account: { id: string; number: string; name: string };
  invoice: { id: string; number: string; amountCents: number; balanceCents: number };
  agreement: { kind: AgreementOfferView["document"]["kind"]; title: string; version: number; publishedAt: Date };
};

const SPECIMEN_ACCOUNT = { id: "specimen", number: "SPECIMEN-1", name: "Specimen customer" };
const SPECIMEN_INVOICE = { id: "specimen", number: "SPECIMEN-INV-1", amountCents: 250_00, balanceCents: 250_00 };

async function demoData(db: Db, businessId: string): Promise<Demo> {
  const business = await db
    .selectFrom("businesses")
    .select(["support_email", "support_phone"])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  const support = { supportEmail: business.support_email, supportPhone: business.support_phone };
  // The first account (by number) with an invoice, and its invoice with something owing first
  // (what a request asks for), then by number.
  const invoice = await db
    .selectFrom("invoices")
    .innerJoin("accounts", "accounts.id", "invoices.account_id")
    .select([
      "accounts.id as accountId",
      "accounts.number as accountNumber",
      "accounts.name as accountName",
      "invoices.id",
      "invoices.number",
      "invoices.amount_cents",
      "invoices.balance_cents",
    ])
    .where("invoices.business_id", "=", businessId)
    .where("accounts.business_id", "=", businessId)
    .orderBy("accounts.number")
    .orderBy((eb) => eb("invoices.balance_cents", ">", 0), "desc")
    .orderBy("invoices.number")
    .limit(1)
    .executeTakeFirst();
  const account = invoice ? { id: invoice.accountId, number: invoice.accountNumber, name: invoice.accountName } : null;
  const contact = account
    ? await db
        .selectFrom("account_contacts")
        .innerJoin("contacts", "contacts.id", "account_contacts.contact_id")
        .select("contacts.first_name")
        .where("account_contacts.business_id", "=", businessId)
        .where("contacts.business_id", "=", businessId)
        .where("account_contacts.account_id", "=", account.id)
        .orderBy("contacts.email")
        .limit(1)
        .executeTakeFirst()
    : undefined;
  const agreement = await db
    .selectFrom("agreement_documents")
    .innerJoin("agreement_versions", "agreement_versions.document_id", "agreement_documents.id")
    .select([
      "agreement_documents.kind",
      "agreement_documents.title",
      "agreement_versions.version",
      "agreement_versions.published_at",
    ])
    .where("agreement_documents.business_id", "=", businessId)
    .where("agreement_versions.business_id", "=", businessId)
    .orderBy("agreement_documents.created_at")
    .orderBy("agreement_versions.version", "desc")
    .limit(1)
    .executeTakeFirst();
  const invoiceView = invoice
    ? {
        id: invoice.id,
        number: invoice.number,
        amountCents: Number(invoice.amount_cents),
        // A paid invoice still makes a readable request: its amount.
        balanceCents: Number(invoice.balance_cents) > 0 ? Number(invoice.balance_cents) : Number(invoice.amount_cents),
      }
    : null;
  return {
    specimen: !account || !invoiceView,
    support,
    recipientName: contact?.first_name ?? "",
    account: account && invoiceView ? account : SPECIMEN_ACCOUNT,
    invoice: account && invoiceView ? invoiceView : SPECIMEN_INVOICE,
    agreement: agreement
      ? {
          kind: agreement.kind,
          title: agreement.title,
          version: agreement.version,
          publishedAt: new Date(agreement.published_at as unknown as string),
        }
      : { kind: "terms-of-trade", title: "Specimen terms of trade", version: 1, publishedAt: now() },
  };
}

/** The HTML (and subject) of one email as `branding`'s contacts would get it, from demo data. */
export async function renderEmailPreview(branding: HostBranding, kind: EmailPreview): Promise<EmailPreviewHtml> {
  const db = await getDb();
  const demo = await demoData(db, branding.businessId);
  const at = now();
  const today = businessToday(branding.timeZone, at);
  const link = publicLink(branding, "/");
  const preferences: EmailPreferenceLinks = {
    preferences: publicLink(branding, "/communication"),
    unsubscribe: kind === "reminder" ? publicLink(branding, "/communication") : null,
    topic: kind === "reminder" ? "reminders" : null,
  };
  const inTwoWeeks = new Date(at.getTime() + 14 * 86_400_000).toISOString();
  const { account, invoice } = demo;
  const base = { branding, support: demo.support, recipientName: demo.recipientName, link, preferences };

  if (kind === "request" || kind === "reminder") {
    const request: PaymentRequestView = {
      id: "preview",
      reference: "PR-PREVIEW",
      account,
      kind: "invoices",
      description: "",
      amountCents: invoice.balanceCents,
      paidCents: 0,
      remainingCents: invoice.balanceCents,
      currency: branding.currency,
      dueDate: addDaysTo(today, 14),
      expiresAt: inTwoWeeks,
      allowPartPayment: false,
      minPartPaymentCents: null,
      state: "sent",
      invoices: [invoice],
      recipients: [],
      createdAt: at.toISOString(),
      sentAt: at.toISOString(),
      openedAt: null,
      paidAt: null,
      cancelledAt: null,
    };
    const mail = await renderPaymentRequestEmail({
      ...base,
      request,
      ...(kind === "reminder" ? { reminder: { now: at } } : {}),
    });
    return { subject: mail.subject, html: mail.html, specimen: demo.specimen };
  }

  if (kind === "receipt") {
    const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
    const lines = [
      `Hello ${demo.recipientName || "there"},`,
      "",
      endSentence(`Thank you for your payment of ${money(invoice.balanceCents)} to ${branding.businessName}`),
      "",
      "Reference: P-PREVIEW",
      `Date: ${formatDate(at, { timeZone: branding.timeZone })}`,
      "Paid with: Visa ending 4242",
      "",
      `  ${invoice.number}: ${money(invoice.balanceCents)}`,
      "",
      `Invoices: ${money(invoice.balanceCents)}`,
      `Total charged: ${money(invoice.balanceCents)}`,
    ];
    const html = await renderReceiptHtml({
      branding,
      support: demo.support,
      title: "Receipt",
      lines,
      link,
      linkExpires: formatDate(inTwoWeeks, { timeZone: branding.timeZone }),
      preferences,
    });
    return {
      subject: `Receipt for your payment to ${branding.businessName} (P-PREVIEW)`,
      html,
      specimen: demo.specimen,
    };
  }

  if (kind === "schedule") {
    // The invoice's balance in three monthly instalments, the last taking the cents left over.
    const part = Math.floor(invoice.balanceCents / 3);
    const amounts = [part, part, invoice.balanceCents - 2 * part];
    const mail = await renderScheduleProposalEmail({
      ...base,
      schedule: {
        reference: "PS-PREVIEW",
        description: "",
        currency: branding.currency,
        totalCents: invoice.balanceCents,
        expiresAt: inTwoWeeks,
        account,
        invoices: [invoice],
        instalments: amounts.map((amountCents, index) => ({
          id: `preview-${index + 1}`,
          seq: index + 1,
          dueDate: addDaysTo(today, 14 + 30 * index),
          amountCents,
        })),
      },
    });
    return { subject: mail.subject, html: mail.html, specimen: demo.specimen };
  }

  const offer: AgreementOfferView = {
    id: "preview",
    reference: "AG-PREVIEW",
    state: "offered",
    document: { id: "preview", kind: demo.agreement.kind, title: demo.agreement.title },
    account,
    contact: { id: "preview", email: "" },
    expiresAt: inTwoWeeks,
    createdAt: at.toISOString(),
    sentAt: at.toISOString(),
    sendCount: 1,
    openedAt: null,
    withdrawnAt: null,
    decision: null,
  };
  const mail = await renderAgreementOfferEmail({
    ...base,
    offer,
    version: { number: demo.agreement.version, publishedAt: demo.agreement.publishedAt },
    kindLabel: KIND_LABELS[demo.agreement.kind],
  });
  return { subject: mail.subject, html: mail.html, specimen: demo.specimen };
}
