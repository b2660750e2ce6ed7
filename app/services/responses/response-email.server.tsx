import { Heading, Section, Text } from "@react-email/components";
import type { CSSProperties } from "react";
import { formatDateTime } from "~/lib/format";
import { formatDate, formatMoney } from "~/lib/format";
import { addressLines, type ResponseChoice } from "~/lib/responses";
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
import type { ResponseRequestView } from "./response-view.server";

/**
 * The emails of a response request (issue 17; decision 040), in the frame every branded email
 * shares (decision 032). To the contact: the question and its button first (a phone's first
 * screen), then the facts, the business's message, the link written out and the business's
 * contact details; the plain-text part carries the same facts and the link, which is the only
 * copy of its token. To the business, once answered: what was answered, by whom, when and from
 * where — no link (the answer is read through the back-office API).
 */
/**
 * What an email says of a request: to the contact (`title`, `ask`, `facts` in the second person),
 * and what the business's copy calls it (`asked`, `theirs`: the same facts in the third person).
 * `more`: longer texts with their labels (a note with a credit, a written position).
 */
type Words = {
  title: string;
  asked: string;
  ask: string;
  button: string;
  subject: string;
  facts: [string, string][];
  theirs: [string, string][];
  more: { label: string; text: string }[];
};

function wordsOf(branding: HostBranding, request: ResponseRequestView): Words {
  const business = branding.businessName;
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const day = (value: string) => formatDate(value, { timeZone: branding.timeZone });
  const account = `${request.account.name} (${request.account.number})`;
  const common: [string, string][] = [
    ["Account", account],
    ["Reference", request.reference],
    ["Answer by", day(request.expiresAt)],
  ];
  if (request.address) {
    const facts: [string, string][] = [["Delivery address", addressLines(request.address).join(", ")], ...common];
    return {
      title: "Please confirm your delivery address",
      asked: "Confirm the delivery address",
      ask: `${business} has this delivery address for account ${account}. Is it right?`,
      button: "Confirm or correct the address",
      subject: `Please confirm your delivery address with ${business} (${request.reference})`,
      facts,
      theirs: facts,
      more: [],
    };
  }
  if (request.statement) {
    const { periodStart, periodEnd, closingBalanceCents } = request.statement;
    const balance =
      closingBalanceCents < 0 ? `${money(-closingBalanceCents)} in credit` : `${money(closingBalanceCents)} owing`;
    const facts: [string, string][] = [
      ["Statement date", day(periodEnd)],
      ...(periodStart ? ([["Period", `${day(periodStart)} to ${day(periodEnd)}`]] as [string, string][]) : []),
      ["Closing balance", balance],
      ...common,
    ];
    return {
      title: "Please acknowledge your statement",
      asked: `Acknowledge the statement of ${day(periodEnd)}`,
      ask: `${business} asks you to acknowledge the statement for account ${account} dated ${day(periodEnd)}, with a closing balance of ${balance}.`,
      button: "Review the statement",
      subject: `Please acknowledge your statement of ${day(periodEnd)} from ${business} (${request.reference})`,
      facts,
      theirs: facts,
      more: [],
    };
  }
  const dispute = request.dispute!;
  const { invoice, resolution } = dispute;
  const credit = resolution.type === "credit";
  const disputeFacts = (whose: string): [string, string][] => [
    ["Proposal", credit ? `A credit of ${money(resolution.amountCents)}` : "The position below"],
    ["Invoice", `${invoice.number}, issued ${day(invoice.issueDate)}`],
    ["Invoice amount", money(invoice.amountCents)],
    ...(invoice.disputeReason ? ([[whose, invoice.disputeReason]] as [string, string][]) : []),
    ...common,
  ];
  return {
    title: `About your dispute of invoice ${invoice.number}`,
    asked: `Respond to the proposal on the disputed invoice ${invoice.number}`,
    ask: credit
      ? `${business} proposes a credit of ${money(resolution.amountCents)} on invoice ${invoice.number} to settle your dispute. Do you accept?`
      : `${business} has replied to your dispute of invoice ${invoice.number}. Do you accept its position?`,
    button: "Respond to the proposal",
    subject: `Your dispute of invoice ${invoice.number}: ${business} proposes a resolution (${request.reference})`,
    facts: disputeFacts("Your dispute"),
    theirs: disputeFacts("Their dispute"),
    more: credit
      ? resolution.note
        ? [{ label: "Why:", text: resolution.note }]
        : []
      : [{ label: `Position of ${business}:`, text: resolution.text }],
  };
}

/** Paragraphs of a text that may have lines, for the HTML part (each line kept, as text). */
function Paragraphs({ text, style }: { text: string; style: CSSProperties }) {
  return (
    <>
      {text.split(/\n{2,}/).map((paragraph, index) => (
        <Text key={index} style={{ ...style, whiteSpace: "pre-line" }}>
          {paragraph}
        </Text>
      ))}
    </>
  );
}

export async function renderResponseRequestEmail(input: {
  branding: HostBranding;
  support: EmailContact;
  recipientName: string;
  request: ResponseRequestView;
  link: string;
  /** The contact's preference links for the footer (decision 039). */
  preferences?: EmailPreferenceLinks | null;
}): Promise<{ subject: string; html: string; text: string }> {
  const { branding, request, link } = input;
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const words = wordsOf(branding, request);
  const expires = formatDate(request.expiresAt, { timeZone: branding.timeZone });
  const greeting = `Hello ${input.recipientName.trim() || "there"},`;
  const how = `Open the link, check what ${branding.businessName} has, and answer: your answer is recorded once, with the time, and sent to them.`;
  const note = request.message ? `A note from ${branding.businessName}:` : null;

  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={words.ask} contact={input.support} preferences={input.preferences}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        {words.title}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{words.ask}</Text>
      <EmailButton brand={brand} href={link}>
        {words.button}
      </EmailButton>
      <EmailFacts brand={brand} facts={words.facts} />
      {words.more.map((more, index) => (
        <Section key={index}>
          <Text style={emailText(brand, { fontWeight: 600, margin: "12px 0 4px" })}>{more.label}</Text>
          <Paragraphs text={more.text} style={emailText(brand, { margin: "4px 0" })} />
        </Section>
      ))}
      {note ? (
        <>
          <Text style={emailText(brand, { fontWeight: 600, margin: "16px 0 4px" })}>{note}</Text>
          <Paragraphs text={request.message} style={emailText(brand, { margin: "4px 0" })} />
        </>
      ) : null}
      <Text style={emailText(brand)}>{how}</Text>
      <FallbackLink brand={brand} link={link} expires={expires} />
    </BrandedEmail>,
  );

  const text = [
    greeting,
    "",
    words.ask,
    "",
    ...words.facts.map(([label, value]) => `${label}: ${value}`),
    ...words.more.flatMap((more) => ["", more.label, more.text]),
    ...(note ? ["", note, request.message] : []),
    "",
    how,
    "",
    `${words.button}:`,
    link,
    "",
    `This link is for you: please do not forward it. It works until ${expires}.`,
    "",
    questionsLine(branding.businessName, input.support),
    ...(input.support.supportEmail ? [`Email: ${input.support.supportEmail}`] : []),
    ...(input.support.supportPhone ? [`Phone: ${input.support.supportPhone}`] : []),
    ...preferenceTextLines(branding.businessName, input.preferences),
  ].join("\n");
  return { subject: words.subject, html, text };
}

const CHOICE_WORDS: Record<ResponseChoice, string> = {
  confirmed: "confirmed the delivery address",
  corrected: "gave a different delivery address",
  acknowledged: "acknowledged the statement",
  disputed: "said something is wrong with the statement",
  accepted: "accepted the proposed resolution",
  rejected: "rejected the proposed resolution",
};

/** The business's copy of an answer: what, by whom, when, from where, with what came with it. */
export async function renderAnswerNotification(input: {
  branding: HostBranding;
  support: EmailContact;
  request: ResponseRequestView;
}): Promise<{ subject: string; html: string; text: string }> {
  const { branding, request } = input;
  const answer = request.answer!;
  const brand = emailBrandOf(branding);
  const c = emailColors(brand);
  const words = wordsOf(branding, request);
  const account = `${request.account.name} (${request.account.number})`;
  const summary = `${answer.contact.email} ${CHOICE_WORDS[answer.choice]} for account ${account}.`;
  const subject = `${request.reference} answered: ${account} ${CHOICE_WORDS[answer.choice]}`;
  const facts: [string, string][] = [
    ["Question", words.asked],
    ...words.theirs.filter(([label]) => label !== "Answer by"),
    ["Answer", CHOICE_WORDS[answer.choice]],
    ...(answer.address
      ? ([["New delivery address", addressLines(answer.address).join(", ")]] as [string, string][])
      : []),
    ...(answer.typedName ? ([["Name typed", answer.typedName]] as [string, string][]) : []),
    ["Answered by", answer.contact.email],
    ["Answered at", formatDateTime(answer.answeredAt, { timeZone: branding.timeZone })],
    ["From address", answer.clientAddress],
    ["Browser", answer.userAgent || "not given"],
  ];
  const said = answer.note ?? answer.reason ?? null;
  const saidLabel = answer.note ? "What they say is wrong:" : "Their reason:";

  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={summary} contact={input.support}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        {request.reference} answered
      </Heading>
      <Text style={emailText(brand)}>{summary}</Text>
      <EmailFacts brand={brand} facts={facts} />
      {words.more.map((more, index) => (
        <Section key={index}>
          <Text style={emailText(brand, { fontWeight: 600, margin: "12px 0 4px" })}>{more.label}</Text>
          <Paragraphs text={more.text} style={emailText(brand, { margin: "4px 0" })} />
        </Section>
      ))}
      {said ? (
        <>
          <Text style={emailText(brand, { fontWeight: 600, margin: "16px 0 4px" })}>{saidLabel}</Text>
          <Paragraphs text={said} style={emailText(brand, { margin: "4px 0" })} />
        </>
      ) : null}
      <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "16px 0 0" }}>
        The answer is kept as recorded and never changes. Read it through the back-office API: GET
        /api/back-office/response-requests/{request.reference}.
      </Text>
    </BrandedEmail>,
  );
  const text = [
    summary,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...words.more.flatMap((more) => ["", more.label, more.text]),
    ...(said ? ["", saidLabel, said] : []),
    "",
    `The answer is kept as recorded and never changes. Read it through the back-office API: GET /api/back-office/response-requests/${request.reference}.`,
  ].join("\n");
  return { subject, html, text };
}
