import { Heading, Text } from "@react-email/components";
import { formatDate } from "~/lib/format";
import { emailBrandOf, type HostBranding } from "../host/host.server";
import {
  BrandedEmail,
  EmailButton,
  emailColors,
  EmailFacts,
  emailText,
  preferenceTextLines,
  questionsLine,
  renderEmailHtml,
  type EmailContact,
  type EmailPreferenceLinks,
} from "../platform/email-layout.server";
import { FallbackLink } from "../links/fallback-link.server";
import type { AgreementOfferView } from "./agreement-views.server";

/**
 * The email that offers an agreement (issue 15; decision 036): branded like the host (the same
 * frame as payment requests), what is asked and the "Review the agreement" button first (a
 * phone's first screen), then the facts, the link written out and the business's contact
 * details. The plain-text part carries the same facts and the link. The link is the only copy
 * of its token: it is in the message and nowhere else.
 */
export async function renderAgreementOfferEmail(input: {
  branding: HostBranding;
  support: EmailContact;
  recipientName: string;
  offer: AgreementOfferView;
  version: { number: number; publishedAt: Date };
  kindLabel: string;
  link: string;
  /** The contact's preference links for the footer (decision 039). */
  preferences?: EmailPreferenceLinks | null;
}): Promise<{ subject: string; html: string; text: string }> {
  const { branding, offer, link } = input;
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const date = (value: string | Date) => formatDate(value, { timeZone: branding.timeZone });
  const expires = date(offer.expiresAt);
  const title = offer.document.title;
  const greeting = `Hello ${input.recipientName.trim() || "there"},`;
  const ask = `${branding.businessName} asks you to read and accept its ${input.kindLabel}: "${title}".`;
  const how =
    "Open the link to read the full text. To accept, type your full name and tick the box; you can also decline. Either way, your decision is recorded with the exact text you read.";
  const subject = `Please review: ${title} from ${branding.businessName} (${offer.reference})`;
  const facts: [string, string][] = [
    ["Agreement", title],
    ["Version", `${input.version.number}, published ${date(input.version.publishedAt)}`],
    ["Account", `${offer.account.name} (${offer.account.number})`],
    ["Reference", offer.reference],
    ["Link works until", expires],
  ];

  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={ask} contact={input.support} preferences={input.preferences}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        {title}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{ask}</Text>
      <EmailButton brand={brand} href={link}>
        Review the agreement
      </EmailButton>
      <Text style={emailText(brand)}>{how}</Text>
      <EmailFacts brand={brand} facts={facts} />
      <FallbackLink brand={brand} link={link} expires={expires} />
    </BrandedEmail>,
  );

  const text = [
    greeting,
    "",
    ask,
    "",
    how,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    "Review the agreement:",
    link,
    "",
    `This link is for you: please do not forward it. It works until ${expires}.`,
    "",
    questionsLine(branding.businessName, input.support),
    ...(input.support.supportEmail ? [`Email: ${input.support.supportEmail}`] : []),
    ...(input.support.supportPhone ? [`Phone: ${input.support.supportPhone}`] : []),
    ...preferenceTextLines(branding.businessName, input.preferences),
  ].join("\n");
  return { subject, html, text };
}
