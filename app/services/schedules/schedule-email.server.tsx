import { Column, Heading, Row, Section, Text } from "@react-email/components";
import { formatDate, formatMoney } from "~/lib/format";
import { emailBrandOf, type HostBranding } from "../host/host.server";
import {
  BrandedEmail,
  EmailButton,
  emailColors,
  EmailFacts,
  emailText,
  renderEmailHtml,
  type EmailBrand,
  type EmailContact,
  type EmailPreferenceLinks,
  preferenceTextLines,
  questionsLine,
} from "../platform/email-layout.server";
import { FallbackLink } from "../links/fallback-link.server";

/**
 * The proposal email of a payment schedule (issue 15; decision 034): branded like the host, the
 * total and "Review and accept" first (a phone's first screen), then every instalment's day and
 * amount, then the business's contact details. The plain-text part carries the same facts and
 * the link. The link is the only copy of its token: it is in the message and nowhere else.
 */
export type RenderedEmail = { subject: string; html: string; text: string };

/**
 * What the proposal reads of a schedule: a `ScheduleView` (schedule-rows.server.ts) has all of it.
 * Said here, not imported, so that the email and the service that sends it do not import each other.
 */
export type ScheduleProposalView = {
  reference: string;
  description: string;
  currency: string;
  totalCents: number;
  expiresAt: string;
  account: { number: string; name: string };
  invoices: { number: string }[];
  instalments: { id: string; seq: number; dueDate: string; amountCents: number }[];
};

export async function renderScheduleProposalEmail(input: {
  branding: HostBranding;
  support: EmailContact;
  recipientName: string;
  schedule: ScheduleProposalView;
  link: string;
  /** The contact's preference links for the footer (decision 039). */
  preferences?: EmailPreferenceLinks | null;
}): Promise<RenderedEmail> {
  const { branding, schedule, link } = input;
  const brand = emailBrandOf(branding);
  const money = (cents: number) => formatMoney(cents, { currency: schedule.currency });
  const day = (value: string) => formatDate(value, { timeZone: branding.timeZone });
  const count = schedule.instalments.length;
  const first = schedule.instalments[0]!;
  const last = schedule.instalments[count - 1]!;
  // A proposal open until midnight is open all of the day before: that is the day to name.
  const expires = day(new Date(Date.parse(schedule.expiresAt) - 1).toISOString());
  const greeting = `Hello ${input.recipientName.trim() || "there"},`;
  const ask =
    count === 1
      ? `${branding.businessName} proposes that you pay ${money(schedule.totalCents)} on ${day(first.dueDate)}.`
      : `${branding.businessName} proposes that you pay ${money(schedule.totalCents)} in ${count} instalments, the first of ${money(first.amountCents)} on ${day(first.dueDate)}.`;
  const subject = `Payment schedule from ${branding.businessName}: ${money(schedule.totalCents)} in ${count} instalment${count === 1 ? "" : "s"} (${schedule.reference})`;
  const facts: [string, string][] = [
    ["Total", money(schedule.totalCents)],
    ["Instalments", String(count)],
    ["First", `${money(first.amountCents)} on ${day(first.dueDate)}`],
    ...(count > 1 ? ([["Last", `${money(last.amountCents)} on ${day(last.dueDate)}`]] as [string, string][]) : []),
    ["Account", `${schedule.account.name} (${schedule.account.number})`],
    ["Reference", schedule.reference],
    ...(schedule.invoices.length
      ? ([["Invoices", schedule.invoices.map((invoice) => invoice.number).join(", ")]] as [string, string][])
      : []),
    ["Review and accept by", expires],
  ];
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={ask} contact={input.support} preferences={input.preferences}>
      <Heading
        as="h1"
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand).text }}
      >
        Payment schedule to review
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{ask}</Text>
      <Text style={emailText(brand, { fontSize: "30px", lineHeight: "36px", fontWeight: 700, margin: "8px 0 16px" })}>
        {money(schedule.totalCents)}
      </Text>
      <EmailButton brand={brand} href={link}>
        Review and accept
      </EmailButton>
      {schedule.description ? (
        <Text style={emailText(brand, { whiteSpace: "pre-line" })}>{schedule.description}</Text>
      ) : null}
      <EmailFacts brand={brand} facts={facts} />
      <InstalmentList brand={brand} schedule={schedule} money={money} day={day} />
      <FallbackLink brand={brand} link={link} expires={expires} />
    </BrandedEmail>,
  );
  const text = [
    greeting,
    "",
    ask,
    "",
    ...(schedule.description ? [schedule.description, ""] : []),
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    "Instalments:",
    ...schedule.instalments.map((i) => `  ${i.seq}. ${day(i.dueDate)}: ${money(i.amountCents)}`),
    "",
    "Review and accept (you will be asked to sign in and choose a saved card or PayTo agreement):",
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

function InstalmentList(props: {
  brand: EmailBrand;
  schedule: ScheduleProposalView;
  money: (cents: number) => string;
  day: (value: string) => string;
}) {
  const c = emailColors(props.brand);
  return (
    <Section style={{ margin: "8px 0 4px" }}>
      <Heading as="h2" style={{ fontSize: "16px", lineHeight: "22px", margin: "12px 0 4px", color: c.text }}>
        Instalments ({props.schedule.instalments.length})
      </Heading>
      {props.schedule.instalments.map((instalment) => (
        <Row key={instalment.id} style={{ borderBottom: `1px solid ${c.border}` }}>
          <Column style={{ padding: "6px 0" }}>
            <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: c.text }}>
              {instalment.seq}. {props.day(instalment.dueDate)}
            </Text>
          </Column>
          <Column style={{ padding: "6px 0", textAlign: "right" }}>
            <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: c.text, fontWeight: 600 }}>
              {props.money(instalment.amountCents)}
            </Text>
          </Column>
        </Row>
      ))}
    </Section>
  );
}
