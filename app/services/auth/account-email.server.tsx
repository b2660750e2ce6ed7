import { Heading, Link, Text } from "@react-email/components";
import type { LanguageCode } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import { emailBrandOf, type HostBranding } from "../host/host.server";
import {
  BrandedEmail,
  EmailButton,
  emailColors,
  emailText,
  renderEmailHtml,
  type EmailPreferenceLinks,
} from "../platform/email-layout.server";

/**
 * The emails about a contact's own login (issue 32): choosing a new password, and confirming
 * their email address. Like every other email they carry the host's published brand (decision 081):
 * its colour, PNG logo and name, with the link as a button and written out below it for a mail
 * program that shows no buttons. The text part is the same words, unchanged.
 */
export type AccountEmailKind = "reset" | "verify";

export async function renderAccountEmail(input: {
  kind: AccountEmailKind;
  branding: HostBranding;
  language: LanguageCode;
  firstName: string | null;
  email: string;
  link: string;
  preferences: EmailPreferenceLinks;
}): Promise<{ subject: string; html: string; text: string }> {
  const { kind, branding, email, link, preferences } = input;
  const t = translator(input.language);
  const businessName = branding.businessName;
  const greeting = input.firstName?.trim() ? t("mail.hello", { name: input.firstName.trim() }) : t("mail.helloAnon");
  const subject = t(kind === "reset" ? "mail.reset.subject" : "mail.verify.subject", { businessName });
  const title = t(kind === "reset" ? "mail.reset.title" : "mail.verify.title");
  // What the email is about, what the link does, and (a reset) what to do if it was not asked for.
  const lead = kind === "reset" ? t("mail.reset.asked", { email, businessName }) : t("mail.verify.text", { email });
  const action = kind === "reset" ? t("mail.reset.choose") : null;
  const after = kind === "reset" ? t("mail.reset.ignore") : null;
  const manage = t("communication.mail.manage", { business: businessName, link: preferences.preferences });
  const text = [
    greeting,
    "",
    lead,
    ...(action ? ["", action] : []),
    link,
    ...(after ? ["", after] : []),
    "",
    manage,
  ].join("\n");

  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const support = { supportEmail: branding.supportEmail ?? null, supportPhone: branding.supportPhone ?? null };
  const small = { fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "16px 0 4px" };
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={lead} contact={support} preferences={preferences}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        {title}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{lead}</Text>
      {action ? <Text style={emailText(brand)}>{action}</Text> : null}
      <EmailButton brand={brand} href={link}>
        {t(kind === "reset" ? "mail.reset.button" : "mail.verify.button")}
      </EmailButton>
      {after ? <Text style={emailText(brand)}>{after}</Text> : null}
      <Text style={small}>{t("mail.fallback")}</Text>
      <Text style={{ fontSize: "13px", lineHeight: "20px", margin: 0, wordBreak: "break-all" }}>
        <Link href={link} style={{ color: c.link, textDecoration: "underline" }}>
          {link}
        </Link>
      </Text>
    </BrandedEmail>,
  );
  return { subject, html, text };
}
