import { Heading, Link, Text } from "@react-email/components";
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
 * A part payment paid signed in also gets a link to pay the rest (decision 076).
 */
export async function renderReceiptHtml(input: {
  branding: HostBranding;
  support: EmailContact;
  title: string;
  lines: string[];
  link: string;
  /** The button's words: "See this receipt" unless told (a PayID receipt links to the statement). */
  linkLabel?: string;
  /** When the receipt link stops working (its date, as the payer reads dates); null: a portal page, no end. */
  linkExpires: string | null;
  /** Where the rest of a part payment is paid, for a payer who paid signed in. */
  payRest?: string | null;
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
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand).text }}
      >
        {input.title}
      </Heading>
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={emailText(brand, { whiteSpace: "pre-line" })}>
          {paragraph}
        </Text>
      ))}
      {input.payRest ? (
        <Text style={emailText(brand)}>
          <Link href={input.payRest} style={{ color: emailColors(brand).link, textDecoration: "underline" }}>
            Pay the rest
          </Link>
        </Text>
      ) : null}
      <EmailButton brand={brand} href={input.link}>
        {input.linkLabel ?? "See this receipt"}
      </EmailButton>
      {input.linkExpires ? (
        <Text style={emailText(brand, { fontSize: "13px", color: emailColors(brand).mutedText })}>
          The button opens this receipt only, without signing in, until {input.linkExpires}.
        </Text>
      ) : null}
    </BrandedEmail>,
  );
}
