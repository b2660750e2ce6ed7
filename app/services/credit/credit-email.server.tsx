import { Heading, Text } from "@react-email/components";
import { endSentence } from "~/lib/sentence";
import type { ReactNode } from "react";
import { formatBusinessNumber } from "~/lib/business-numbers";
import type { CreditAnswers } from "~/lib/credit-steps";
import { formatDate, formatMoney } from "~/lib/format";
import { emailBrandOf, type HostBranding } from "../host/host.server";
import {
  BrandedEmail,
  emailColors,
  EmailFacts,
  emailText,
  questionsLine,
  renderEmailHtml,
  type EmailContact,
  type EmailBrand,
} from "../platform/email-layout.server";

/**
 * The three emails a submitted credit application sends (issue 17; decision 038), in the frame
 * every branded email shares: to the applicant, the reference and what happens next; to the
 * business, what was applied for; to each trade referee, the request with their own link to
 * `/credit-trade-reference/<token>` (the referee's page is decision 041's). Everything the
 * applicant typed is text: React escapes it in the HTML part, and the plain-text part carries it
 * as typed. No bank account number is in any of them.
 */
export type SubmittedApplication = {
  reference: string;
  submittedAt: Date;
  answers: CreditAnswers;
  documentCount: number;
};

type Mail = { subject: string; html: string; text: string };

const facts = (rows: [string, string | null | undefined][]): [string, string][] =>
  rows.filter((row): row is [string, string] => typeof row[1] === "string" && row[1] !== "");

function money(branding: HostBranding, cents: number | undefined) {
  return cents === undefined ? "" : formatMoney(cents, { currency: branding.currency });
}

function businessNumbers(answers: CreditAnswers): [string, string | null][] {
  const business = answers.business;
  return [
    ["ABN", business?.abn ? formatBusinessNumber("abn", business.abn) : null],
    ["ACN", business?.acn ? formatBusinessNumber("acn", business.acn) : null],
    ["NZBN", business?.nzbn ?? null],
  ];
}

function SmallText({ brand, children }: { brand: EmailBrand; children: ReactNode }) {
  const c = emailColors(brand);
  return (
    <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "12px 0 0" }}>{children}</Text>
  );
}

function contactLines(branding: HostBranding, support: EmailContact) {
  return [
    questionsLine(branding.businessName, support),
    ...(support.supportEmail ? [`Email: ${support.supportEmail}`] : []),
    ...(support.supportPhone ? [`Phone: ${support.supportPhone}`] : []),
  ];
}

/** To the person who applied: the reference, what was sent, and what happens next. */
export async function renderApplicantEmail(input: {
  branding: HostBranding;
  support: EmailContact;
  application: SubmittedApplication;
}): Promise<Mail> {
  const { branding, application } = input;
  const { answers } = application;
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const name = answers.contacts?.applicant.name ?? "";
  const greeting = `Hello ${name.trim() || "there"},`;
  const lead = `${endSentence(`Thank you for applying for a trade account with ${branding.businessName}`)} Your application's reference is ${application.reference}.`;
  const refereeCount = answers.references?.referees.length ?? 0;
  const next = [
    `We have asked your ${refereeCount} trade referees for a reference.`,
    `${branding.businessName} will review your application and let you know its decision by email.`,
    "Quote your reference if you contact us about it.",
  ];
  const subject = `Your credit application to ${branding.businessName} (${application.reference})`;
  const rows = facts([
    ["Reference", application.reference],
    ["Business", answers.business?.legalName],
    ...businessNumbers(answers),
    ["Credit limit asked for", money(branding, answers.credit?.limitCents)],
    ["Sent", formatDate(application.submittedAt, { timeZone: branding.timeZone })],
    ["Documents", String(application.documentCount)],
  ]);
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={lead} contact={input.support}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        Application received
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{lead}</Text>
      <EmailFacts brand={brand} facts={rows} />
      <Heading as="h2" style={{ fontSize: "17px", lineHeight: "24px", margin: "16px 0 4px", color: c.text }}>
        What happens next
      </Heading>
      {next.map((sentence) => (
        <Text key={sentence} style={emailText(brand, { margin: "6px 0" })}>
          {sentence}
        </Text>
      ))}
      <SmallText brand={brand}>You received this because this address was given as the applicant's.</SmallText>
    </BrandedEmail>,
  );
  const text = [
    greeting,
    "",
    lead,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    "What happens next",
    ...next,
    "",
    "You received this because this address was given as the applicant's.",
    "",
    ...contactLines(branding, input.support),
  ].join("\n");
  return { subject, html, text };
}

/** To the business: who applied and for what (the full answers are in the back office). */
export async function renderBusinessEmail(input: {
  branding: HostBranding;
  support: EmailContact;
  application: SubmittedApplication;
}): Promise<Mail> {
  const { branding, application } = input;
  const { answers } = application;
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const legalName = answers.business?.legalName ?? "";
  const subject = `New credit application: ${legalName} (${application.reference})`;
  const lead = `${legalName} applied for a trade account on ${formatDate(application.submittedAt, { timeZone: branding.timeZone })}.`;
  const applicant = answers.contacts?.applicant;
  const rows = facts([
    ["Reference", application.reference],
    ["Legal name", legalName],
    ["Trading name", answers.business?.tradingName],
    ...businessNumbers(answers),
    ["Credit limit asked for", money(branding, answers.credit?.limitCents)],
    ["Expected monthly purchases", money(branding, answers.credit?.monthlyCents)],
    ["Applicant", applicant ? `${applicant.name}, ${applicant.position}` : null],
    ["Applicant's email", applicant?.email],
    ["Applicant's phone", applicant?.phone],
    ["Trade referees", String(answers.references?.referees.length ?? 0)],
    ["Direct debit", answers.bank?.directDebit ? "Bank account given" : "Not asked for"],
    ["Documents", String(application.documentCount)],
  ]);
  const how =
    "The referees have each been emailed a link to give their reference. Read the whole application, its documents and the references through the back-office API, where you can accept or decline it.";
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={lead} contact={input.support}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        New credit application
      </Heading>
      <Text style={emailText(brand)}>{lead}</Text>
      <EmailFacts brand={brand} facts={rows} />
      <Text style={emailText(brand)}>{how}</Text>
    </BrandedEmail>,
  );
  const text = [lead, "", ...rows.map(([label, value]) => `${label}: ${value}`), "", how].join("\n");
  return { subject, html, text };
}
