import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";
import { render } from "@react-email/render";
import type { CSSProperties, ReactElement, ReactNode } from "react";
import type { PreferenceTopic } from "~/lib/communication";
import { endSentence } from "~/lib/sentence";
import type { ThemeName } from "~/themes/names";
import { themeTokens, type ThemeTokens } from "~/themes/tokens";

/**
 * The frame of every branded email (payment requests, ad-hoc links, receipts), built with
 * React Email (decision 032): tables with role="presentation", inline styles, a light colour
 * scheme, and the host's published brand: a custom colour's derived roles (the same tokens the
 * brand's stylesheet sets on the pages, so the text on the button and banner is the one chosen
 * there for contrast), else the theme's colours read from the same tokens the pages are themed
 * from (app/themes/tokens.ts is plain data; the vanilla-extract theme files are not imported here).
 * Decision 081.
 * Only the colour pairs the themes are checked for (app/themes/contrast.ts, WCAG AA) are used:
 * banner text on banner, button text on button, body and muted text and links on the page.
 *
 * Server-only: React Email and its renderer never reach the browser bundle.
 */
export type EmailBrand = {
  businessName: string;
  theme: ThemeName;
  /**
   * The published brand's custom colour roles (derived from the admin's colour, every pair checked
   * for WCAG AA, decision 081), else null: the theme's own tokens.
   */
  tokens: ThemeTokens | null;
  /**
   * The logo as a PNG (many mail clients show no SVG), an absolute URL on the host's public base,
   * and the size it is shown at in CSS pixels (the PNG has twice as many).
   */
  logo: { url: string; width: number; height: number };
};

export type EmailContact = { supportEmail: string | null; supportPhone: string | null };

/**
 * The signed links at the foot of every email to a contact (decision 039): their preferences, and
 * for a message that is their choice, one-click unsubscribe from its topic.
 */
export type EmailPreferenceLinks = {
  preferences: string;
  unsubscribe: string | null;
  topic: PreferenceTopic | null;
};

/** The topics as an email's footer names them ("Unsubscribe from payment reminders"). */
const TOPIC_WORDS: Record<PreferenceTopic, string> = {
  statements: "statements by email",
  invoices: "invoices by email",
  reminders: "payment reminders",
  marketing: "news and offers",
};

/** The footer's lines for a plain-text part: the same links as the HTML's footer. */
export function preferenceTextLines(businessName: string, links: EmailPreferenceLinks | null | undefined): string[] {
  if (!links) return [];
  return [
    "",
    `Choose which emails you get from ${businessName}: ${links.preferences}`,
    ...(links.unsubscribe && links.topic ? [`Unsubscribe from ${TOPIC_WORDS[links.topic]}: ${links.unsubscribe}`] : []),
  ];
}

/**
 * "Questions? Contact …": a colon before the business's email and phone, or a full stop when it
 * has neither (one stop, however its name ends: "Kiwi Freight Co.").
 */
export function questionsLine(businessName: string, contact: EmailContact): string {
  const line = `Questions? Contact ${businessName}`;
  return contact.supportEmail || contact.supportPhone ? `${line}:` : endSentence(line);
}

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** The colours of a brand's emails: its custom roles where it has them, else its theme's. */
export function emailColors(brand: Pick<EmailBrand, "theme" | "tokens">) {
  const tokens = brand.tokens ?? themeTokens[brand.theme] ?? themeTokens.base;
  return { ...tokens.colors, ...tokens.surface };
}

export function BrandedEmail(props: {
  brand: EmailBrand;
  /** The inbox's preview line. */
  preview: string;
  contact: EmailContact;
  /** Mail to a contact: links to their preferences (and to unsubscribe from a message they chose). */
  preferences?: EmailPreferenceLinks | null;
  children: ReactNode;
}) {
  const c = emailColors(props.brand);
  const links = props.preferences ?? null;
  const { supportEmail, supportPhone } = props.contact;
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{props.preview}</Preview>
      <Body style={{ backgroundColor: c.surface, margin: 0, padding: "16px 8px", fontFamily: FONT, color: c.text }}>
        <Container
          style={{
            maxWidth: "560px",
            backgroundColor: c.page,
            border: `1px solid ${c.border}`,
            borderTop: `4px solid ${c.primary}`,
            borderRadius: "6px",
          }}
        >
          <Section style={{ backgroundColor: c.bannerBackground, padding: "12px 20px" }}>
            <Row>
              <Column style={{ width: `${props.brand.logo.width + 12}px`, verticalAlign: "middle" }}>
                {/* Decorative next to the business name written beside it, as in the portal's shell. */}
                <Img
                  src={props.brand.logo.url}
                  alt=""
                  width={String(props.brand.logo.width)}
                  height={String(props.brand.logo.height)}
                  style={{ display: "block", border: 0 }}
                />
              </Column>
              <Column style={{ verticalAlign: "middle" }}>
                <Text style={{ margin: 0, fontSize: "18px", lineHeight: "24px", fontWeight: 700, color: c.bannerText }}>
                  {props.brand.businessName}
                </Text>
              </Column>
            </Row>
          </Section>
          <Section style={{ padding: "8px 20px 20px" }}>{props.children}</Section>
          <Hr style={{ borderColor: c.border, margin: 0 }} />
          <Section style={{ padding: "12px 20px 16px" }}>
            <Text style={{ ...small(c.mutedText), margin: "0 0 4px" }}>
              {questionsLine(props.brand.businessName, props.contact)}
            </Text>
            {supportEmail ? (
              <Text style={{ ...small(c.mutedText), margin: 0 }}>
                Email{" "}
                <Link href={`mailto:${supportEmail}`} style={{ color: c.link, textDecoration: "underline" }}>
                  {supportEmail}
                </Link>
              </Text>
            ) : null}
            {supportPhone ? (
              <Text style={{ ...small(c.mutedText), margin: 0 }}>
                Phone{" "}
                <Link
                  href={`tel:${supportPhone.replace(/[^\d+]/g, "")}`}
                  style={{ color: c.link, textDecoration: "underline" }}
                >
                  {supportPhone}
                </Link>
              </Text>
            ) : null}
            {links ? (
              <Text style={{ ...small(c.mutedText), margin: "12px 0 0" }}>
                <Link href={links.preferences} style={{ color: c.link, textDecoration: "underline" }}>
                  Choose which emails you get
                </Link>
                {links.unsubscribe && links.topic ? (
                  <>
                    {" · "}
                    <Link href={links.unsubscribe} style={{ color: c.link, textDecoration: "underline" }}>
                      Unsubscribe from {TOPIC_WORDS[links.topic]}
                    </Link>
                  </>
                ) : null}
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

const small = (color: string): CSSProperties => ({ fontSize: "13px", lineHeight: "20px", color });

/** The one big action of an email: the theme's button colours, at least 44 px high. */
export function EmailButton(props: { brand: EmailBrand; href: string; children: ReactNode }) {
  const c = emailColors(props.brand);
  return (
    <Button
      href={props.href}
      style={{
        backgroundColor: c.button,
        color: c.buttonText,
        fontSize: "17px",
        fontWeight: 700,
        lineHeight: "20px",
        padding: "14px 28px",
        borderRadius: "6px",
        textDecoration: "none",
        display: "inline-block",
      }}
    >
      {props.children}
    </Button>
  );
}

/** Label/value lines (amount, due date…) as a presentation table that stays one column on a phone. */
export function EmailFacts(props: { brand: EmailBrand; facts: [label: string, value: string][] }) {
  const c = emailColors(props.brand);
  return (
    <Section style={{ margin: "8px 0" }}>
      {props.facts.map(([label, value]) => (
        <Row key={label}>
          <Column style={{ padding: "4px 12px 4px 0", width: "45%", verticalAlign: "top" }}>
            <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: c.mutedText }}>{label}</Text>
          </Column>
          <Column style={{ padding: "4px 0", verticalAlign: "top" }}>
            <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: c.text, fontWeight: 600 }}>
              {value}
            </Text>
          </Column>
        </Row>
      ))}
    </Section>
  );
}

export const emailText = (brand: Pick<EmailBrand, "theme" | "tokens">, extra: CSSProperties = {}): CSSProperties => ({
  fontSize: "15px",
  lineHeight: "22px",
  color: emailColors(brand).text,
  margin: "12px 0",
  ...extra,
});

/** The HTML of an email element (React Email's renderer; the text part is written by hand). */
export function renderEmailHtml(element: ReactElement): Promise<string> {
  return render(element);
}
