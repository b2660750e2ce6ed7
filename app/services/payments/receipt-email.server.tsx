import { Heading, Text } from "@react-email/components";
import { emailBrandOf, type HostBranding } from "../host/host.server";
import {
  BrandedEmail,
  EmailButton,
  emailColors,
  emailText,
  renderEmailHtml,
  type EmailContact,
  type EmailPreferenceLinks,
} from "../platform/email-layout.server";

/**
 * The HTML part of a receipt: the receipt's own text lines (the plain-text part, unchanged), in
 * the host's branded frame, with the receipt link as a button. Blank lines separate paragraphs.
 */
export async function renderReceiptHtml(input: {
  branding: HostBranding;
  support: EmailContact;
  title: string;
  lines: string[];
  link: string;
  preferences?: EmailPreferenceLinks | null;
}): Promise<string> {
  const brand = emailBrandOf(input.branding);
  const paragraphs = input.lines
    .join("\n")
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean);
  return renderEmailHtml(
    <BrandedEmail
      brand={brand}
      preview={paragraphs[1] ?? input.title}
      contact={input.support}
      preferences={input.preferences}
    >
      <Heading
        as="h1"
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand.theme).text }}
      >
        {input.title}
      </Heading>
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={emailText(brand.theme, { whiteSpace: "pre-line" })}>
          {paragraph}
        </Text>
      ))}
      <EmailButton brand={brand} href={input.link}>
        See this receipt
      </EmailButton>
    </BrandedEmail>,
  );
}
