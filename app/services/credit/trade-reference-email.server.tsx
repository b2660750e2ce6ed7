import { Heading, Text } from "@react-email/components";
import { formatDate } from "~/lib/format";
import { emailBrandOf, type HostBranding } from "../host/host.server";
import {
  BrandedEmail,
  EmailButton,
  emailColors,
  EmailFacts,
  emailText,
  questionsLine,
  renderEmailHtml,
  type EmailContact,
} from "../platform/email-layout.server";
import { FallbackLink } from "../links/fallback-link.server";

/**
 * The email that asks a trade referee for a reference (issue 17; decision 041), branded like
 * the host's other emails: who asks about whom and the "Give a reference" button first (a
 * phone's first screen), then the facts, the link written out and the business's contact
 * details. The plain-text part carries the same facts and the link, which is the only copy of
 * its token. A resent email says that the earlier link no longer works.
 */
export type TradeReferenceRequestMail = {
  branding: HostBranding;
  support: EmailContact;
  refereeName: string;
  refereeBusiness: string;
  applicantName: string;
  applicationReference: string;
  link: string;
  expiresAt: Date;
  resend: boolean;
};

export async function renderTradeReferenceRequestEmail(
  input: TradeReferenceRequestMail,
): Promise<{ subject: string; html: string; text: string }> {
  const { branding, link } = input;
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const expires = formatDate(input.expiresAt, { timeZone: branding.timeZone });
  const business = branding.businessName;
  const greeting = `Hello ${input.refereeName.trim() || "there"},`;
  const ask = `${input.applicantName} has applied for a trade account with ${business} and named ${input.refereeBusiness} as a trade referee.`;
  const how =
    "Please tell us how long you have traded with them, the terms and limit you give, and how they pay. It takes about two minutes, and your answers go to " +
    `${business} only.`;
  const again = input.resend
    ? "This email replaces our earlier one: the link in the earlier email no longer works."
    : null;
  const subject = `Trade reference for ${input.applicantName} (${input.applicationReference}) · ${business}`;
  const facts: [string, string][] = [
    ["Applicant", input.applicantName],
    ["Application", input.applicationReference],
    ["Asked of", `${input.refereeName} at ${input.refereeBusiness}`],
    ["Link works until", expires],
  ];

  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={ask} contact={input.support}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        Trade reference for {input.applicantName}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{ask}</Text>
      <EmailButton brand={brand} href={link}>
        Give a reference
      </EmailButton>
      <Text style={emailText(brand)}>{how}</Text>
      {again ? <Text style={emailText(brand)}>{again}</Text> : null}
      <EmailFacts brand={brand} facts={facts} />
      <FallbackLink brand={brand} link={link} expires={expires} once />
    </BrandedEmail>,
  );

  const text = [
    greeting,
    "",
    ask,
    "",
    how,
    ...(again ? ["", again] : []),
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    "Give a reference:",
    link,
    "",
    `This link is for you: please do not forward it. You can answer once, until ${expires}.`,
    "",
    questionsLine(business, input.support),
    ...(input.support.supportEmail ? [`Email: ${input.support.supportEmail}`] : []),
    ...(input.support.supportPhone ? [`Phone: ${input.support.supportPhone}`] : []),
  ].join("\n");
  return { subject, html, text };
}
