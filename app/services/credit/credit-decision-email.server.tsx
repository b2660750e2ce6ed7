import { Heading, Text } from "@react-email/components";
import { endSentence } from "~/lib/sentence";
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
} from "../platform/email-layout.server";
import type { CreditApplicationDetail } from "./credit-application-views.server";

/**
 * The applicant's email of the business's decision on their credit application (issue 17;
 * decision 041), branded like the host's other emails: the outcome first (a phone's first
 * screen), then the facts — the reference, the limit granted, the date — and the business's note
 * or reason as the business wrote it (React Email escapes it: markup in a note is text). No link:
 * the applicant has no portal login, and nothing here needs one. The plain-text part carries the
 * same facts.
 */
export async function renderCreditDecisionEmail(input: {
  branding: HostBranding;
  support: EmailContact;
  application: CreditApplicationDetail;
}): Promise<{ subject: string; html: string; text: string }> {
  const { branding, application } = input;
  const decision = application.decision;
  if (!decision) throw new Error("renderCreditDecisionEmail: the application is not decided");
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const business = branding.businessName;
  const money = (cents: number) => formatMoney(cents, { currency: application.currency });
  const decidedOn = formatDate(decision.decidedAt, { timeZone: branding.timeZone });
  const accepted = decision.decision === "accepted";
  const title = accepted ? "Your trade account is approved" : "About your trade account application";
  const outcome = accepted
    ? endSentence(`${business} has approved the trade account application from ${application.legalName}`)
    : `${business} has decided not to open a trade account for ${application.legalName} at this time.`;
  const subject = accepted
    ? `Trade account approved: ${application.legalName} (${application.reference}) · ${business}`
    : `Your trade account application ${application.reference} · ${business}`;
  const facts: [string, string][] = [
    ["Applicant", application.legalName],
    ["Application", application.reference],
    ...(accepted && decision.approvedLimitCents !== null
      ? ([["Approved credit limit", money(decision.approvedLimitCents)]] as [string, string][])
      : []),
    ...(application.requestedLimitCents !== null
      ? ([["Limit you asked for", money(application.requestedLimitCents)]] as [string, string][])
      : []),
    ["Decided on", decidedOn],
  ];
  const words = accepted ? decision.note : decision.reason;
  const wordsLabel = accepted ? `A note from ${business}:` : "The reason given:";

  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={outcome} contact={input.support}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        {title}
      </Heading>
      <Text style={emailText(brand)}>Hello,</Text>
      <Text style={emailText(brand)}>{outcome}</Text>
      <EmailFacts brand={brand} facts={facts} />
      {words ? (
        <>
          <Text style={emailText(brand, { fontWeight: 600, margin: "16px 0 4px" })}>{wordsLabel}</Text>
          <Text style={emailText(brand, { whiteSpace: "pre-wrap", margin: "0 0 12px" })}>{words}</Text>
        </>
      ) : null}
      <Text style={emailText(brand)}>
        {accepted
          ? `Please quote ${application.reference} when you contact ${business} about your account.`
          : `If you have questions about this decision, contact ${business} and quote ${application.reference}.`}
      </Text>
    </BrandedEmail>,
  );

  const text = [
    "Hello,",
    "",
    outcome,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(words ? ["", wordsLabel, words] : []),
    "",
    accepted
      ? `Please quote ${application.reference} when you contact ${business} about your account.`
      : `If you have questions about this decision, contact ${business} and quote ${application.reference}.`,
    "",
    questionsLine(business, input.support),
    ...(input.support.supportEmail ? [`Email: ${input.support.supportEmail}`] : []),
    ...(input.support.supportPhone ? [`Phone: ${input.support.supportPhone}`] : []),
  ].join("\n");
  return { subject, html, text };
}
