import { formatDate, formatMoney } from "~/lib/format";
import { publicLink, type HostBranding } from "../../host/host.server";
import { preferenceTextLines, type EmailPreferenceLinks } from "../../platform/email-layout.server";
import { renderReceiptHtml } from "../receipt-email.server";

/** What a PayID receipt says: the money received, where it went, and what was kept as credit. */
export type PayIdReceiptFacts = {
  reference: string;
  amountCents: number;
  payid: string;
  completedAt: Date;
  /** The invoices the money paid, oldest due first. */
  invoices: { number: string; amountCents: number }[];
  /** What was not applied to an invoice and is kept on the account. */
  creditCents: number;
};

/**
 * The receipt for money received at a PayID (rendered, not sent), to one of the account's
 * contacts: the text part, and the same lines in the host's branded frame (decision 081), with
 * the statement as the button — the payment was made at the payer's bank, so there is no receipt
 * page of its own to link to.
 */
export async function renderPayIdReceipt(input: {
  branding: HostBranding;
  firstName: string | null;
  facts: PayIdReceiptFacts;
  preferences: EmailPreferenceLinks;
}): Promise<{ subject: string; html: string; text: string }> {
  const { branding, facts, preferences } = input;
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const statement = publicLink(branding, "/statements");
  const lines = [
    input.firstName?.trim() ? `Hello ${input.firstName.trim()},` : "Hello,",
    "",
    `${branding.businessName} has received ${money(facts.amountCents)} paid to your PayID ${facts.payid}. Thank you.`,
    "",
    `Reference: ${facts.reference}`,
    `Date: ${formatDate(facts.completedAt, { timeZone: branding.timeZone })}`,
    ...(facts.invoices.length > 0
      ? ["", "Applied to:", ...facts.invoices.map((invoice) => `  ${invoice.number}: ${money(invoice.amountCents)}`)]
      : []),
    ...(facts.creditCents > 0 ? ["", `Kept on your account as credit: ${money(facts.creditCents)}`] : []),
  ];
  const html = await renderReceiptHtml({
    branding,
    support: { supportEmail: branding.supportEmail ?? null, supportPhone: branding.supportPhone ?? null },
    title: "Payment received",
    lines,
    link: statement,
    linkLabel: "See your statement",
    linkExpires: null,
    preferences,
  });
  const text = [
    ...lines,
    "",
    `See your statement in the portal: ${statement}`,
    ...preferenceTextLines(branding.businessName, preferences),
  ].join("\n");
  return { subject: `Payment received by ${branding.businessName} (${facts.reference})`, html, text };
}
