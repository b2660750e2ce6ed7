import { Column, Heading, Row, Section, Text } from "@react-email/components";
import { formatDate, formatMoney } from "~/lib/format";
import { surchargeRates, surchargeSentence } from "~/lib/surcharges";
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
  type EmailBrand,
  type EmailContact,
  type EmailPreferenceLinks,
} from "../platform/email-layout.server";
import { FallbackLink } from "../links/fallback-link.server";
import { businessToday, now } from "../platform/clock.server";
import type { PaymentRequestView } from "./payment-request-view.server";

/**
 * The payment-request and ad-hoc link emails (issue 14): branded like the host, the amount and
 * the "Pay now" button first (a phone's first screen), then what the request covers, then the
 * business's contact details. The plain-text part carries the same facts and the link. The
 * link is the only copy of its token: these functions return it inside the message and nowhere
 * else, and callers log the reference and the recipient only.
 */
export type RenderedEmail = { subject: string; html: string; text: string };

type Support = EmailContact;

export async function renderPaymentRequestEmail(input: {
  branding: HostBranding;
  support: Support;
  recipientName: string;
  request: PaymentRequestView;
  link: string;
  /** The contact's preference links for the footer (decision 039). */
  preferences?: EmailPreferenceLinks | null;
  /**
   * A reminder of a request sent before (`POST …/remind`): the same facts and a new link, said as
   * a reminder, with "overdue" once the due date has passed (in the business's time zone).
   */
  reminder?: { now: Date };
  /**
   * The account's PayID when the business offers PayID (decision 075): a transfer to it carries
   * no card surcharge, so the email says so beside the surcharge it names.
   */
  payId?: string | null;
}): Promise<RenderedEmail> {
  const { branding, request, link } = input;
  const brand = emailBrandOf(branding);
  const money = (cents: number) => formatMoney(cents, { currency: request.currency });
  const date = (value: string) => formatDate(value, { timeZone: branding.timeZone });
  // What is owing now: a request of invoices counts whatever paid them (decision 032), so
  // "paid so far" is what is no longer owing, not only what the request's own payments paid.
  const toPay = request.remainingCents;
  const paidSoFar = request.amountCents - toPay;
  const due = request.dueDate ? date(request.dueDate) : null;
  const expires = date(request.expiresAt);
  // Past its due date on the business's calendar (decision 078), a request never asks to be paid
  // "by" that date, on its first email as on a reminder.
  const overdue =
    request.dueDate !== null && request.dueDate < businessToday(branding.timeZone, input.reminder?.now ?? now());
  const facts: [string, string][] = [
    ["Amount", money(request.amountCents)],
    ...(paidSoFar > 0
      ? ([
          ["Paid so far", money(paidSoFar)],
          ["Still to pay", money(toPay)],
        ] as [string, string][])
      : []),
    ...(due ? ([[overdue ? "Was due" : "Due", due]] as [string, string][]) : []),
    ["Account", `${request.account.name} (${request.account.number})`],
    ["Reference", request.reference],
    ...(request.allowPartPayment
      ? ([
          [
            "Part payments",
            request.minPartPaymentCents
              ? `Accepted, from ${money(request.minPartPaymentCents)}`
              : "Accepted, any amount",
          ],
        ] as [string, string][])
      : []),
    ["Link works until", expires],
  ];
  const greeting = `Hello ${input.recipientName.trim() || "there"},`;
  const ask = !input.reminder
    ? overdue
      ? `${branding.businessName} asks you to pay ${money(toPay)}, which was due on ${due}.`
      : `${branding.businessName} asks you to pay ${money(toPay)}${due ? ` by ${due}` : ""}.`
    : overdue
      ? `This is a reminder that ${money(toPay)} to ${branding.businessName} was due on ${due}.`
      : `This is a reminder that ${branding.businessName} asks you to pay ${money(toPay)}${due ? ` by ${due}` : ""}.`;
  const subject = !input.reminder
    ? `Payment request from ${branding.businessName}: ${money(toPay)}${due ? ` ${overdue ? "was due" : "due"} ${due}` : ""} (${request.reference})`
    : overdue
      ? `Overdue: ${money(toPay)} to ${branding.businessName}, due ${due} (${request.reference})`
      : `Reminder: ${money(toPay)} to ${branding.businessName}${due ? ` due ${due}` : ""} (${request.reference})`;
  const title = !input.reminder ? "Payment request" : overdue ? "Payment overdue" : "Payment reminder";
  const paidAlready = "If you have paid already, thank you: there is nothing more to do.";
  const fees = surchargeNote(branding, input.payId ?? null, request.reference);

  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={ask} contact={input.support} preferences={input.preferences}>
      <Heading
        as="h1"
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand).text }}
      >
        {title}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{ask}</Text>
      <Text style={emailText(brand, { fontSize: "30px", lineHeight: "36px", fontWeight: 700, margin: "8px 0 16px" })}>
        {money(toPay)}
      </Text>
      <EmailButton brand={brand} href={link}>
        Pay now
      </EmailButton>
      {fees ? <Text style={emailText(brand, { fontSize: "14px", lineHeight: "20px" })}>{fees}</Text> : null}
      {request.description ? (
        <Text style={emailText(brand, { whiteSpace: "pre-line" })}>{request.description}</Text>
      ) : null}
      <EmailFacts brand={brand} facts={facts} />
      {request.invoices.length ? <InvoiceList brand={brand} request={request} money={money} /> : null}
      {input.reminder ? <Text style={emailText(brand)}>{paidAlready}</Text> : null}
      <FallbackLink brand={brand} link={link} expires={expires} />
    </BrandedEmail>,
  );

  const text = [
    greeting,
    "",
    ask,
    "",
    ...(input.reminder ? [paidAlready, ""] : []),
    ...(request.description ? [request.description, ""] : []),
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(request.invoices.length
      ? ["", "Invoices:", ...request.invoices.map((invoice) => `  ${invoice.number}: ${money(invoice.amountCents)}`)]
      : []),
    "",
    "Pay now:",
    link,
    "",
    ...(fees ? [fees, ""] : []),
    `This link is for you: please do not forward it. It works until ${expires}.`,
    "",
    ...contactLines(branding.businessName, input.support),
    ...preferenceTextLines(branding.businessName, input.preferences),
  ].join("\n");
  return { subject, html, text };
}

/**
 * What a card adds, said before the payer opens the page (decision 075), and how to pay without
 * it: "Paying by card adds 1.2% for Visa. A bank transfer to PayID … adds nothing: …". Null when
 * cards carry no surcharge.
 */
function surchargeNote(branding: HostBranding, payId: string | null, reference: string): string | null {
  const surcharge = surchargeSentence(surchargeRates(branding.feeRules, branding.currency), ENGLISH_SURCHARGE);
  if (!surcharge) return null;
  if (!payId) return surcharge;
  return `${surcharge} A bank transfer to PayID ${payId} adds nothing: in your banking app choose Pay someone → PayID, and put ${reference} in the description.`;
}

/** The request emails are in English (as every email is today): the surcharge sentence's words. */
const ENGLISH_SURCHARGE = {
  all: (rate: string) => `Paying by card adds ${rate}.`,
  some: (rates: string) => `Paying by card adds ${rates}.`,
  rate: (rate: string, cards: string) => `${rate} for ${cards}`,
  others: "other cards",
  and: " and ",
};

export async function renderAdhocLinkEmail(input: {
  branding: HostBranding;
  support: Support;
  recipientName: string;
  account: { number: string; name: string };
  minCents: number;
  maxCents: number;
  expiresAt: Date;
  link: string;
  preferences?: EmailPreferenceLinks | null;
  /** The account's PayID, when offered: the transfer that adds no surcharge. */
  payId?: string | null;
}): Promise<RenderedEmail> {
  const { branding, link } = input;
  const brand = emailBrandOf(branding);
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const expires = formatDate(input.expiresAt, { timeZone: branding.timeZone });
  const greeting = `Hello ${input.recipientName.trim() || "there"},`;
  const ask = `You can pay ${branding.businessName} any amount from ${money(input.minCents)} to ${money(input.maxCents)} towards account ${input.account.name} (${input.account.number}).`;
  const subject = `Pay ${branding.businessName} any amount`;
  const facts: [string, string][] = [
    ["Account", `${input.account.name} (${input.account.number})`],
    ["Amount", `${money(input.minCents)} to ${money(input.maxCents)}`],
    ["Link works until", expires],
  ];
  const fees = surchargeNote(branding, input.payId ?? null, input.account.number);
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={ask} contact={input.support} preferences={input.preferences}>
      <Heading
        as="h1"
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand).text }}
      >
        Pay {branding.businessName} any amount
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{ask}</Text>
      <EmailButton brand={brand} href={link}>
        Make a payment
      </EmailButton>
      {fees ? <Text style={emailText(brand, { fontSize: "14px", lineHeight: "20px" })}>{fees}</Text> : null}
      <EmailFacts brand={brand} facts={facts} />
      <FallbackLink brand={brand} link={link} expires={expires} />
    </BrandedEmail>,
  );
  const text = [
    greeting,
    "",
    ask,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    "Make a payment:",
    link,
    "",
    ...(fees ? [fees, ""] : []),
    `This link is for you: please do not forward it. It works until ${expires}.`,
    "",
    ...contactLines(branding.businessName, input.support),
    ...preferenceTextLines(branding.businessName, input.preferences),
  ].join("\n");
  return { subject, html, text };
}

/** What a single-invoice link email says of its invoice (`requests/invoice-links.server.ts`). */
export type InvoiceLinkEmailInvoice = {
  number: string;
  amountCents: number;
  balanceCents: number;
  /** YYYY-MM-DD, the business's calendar date. */
  dueDate: string;
  account: { number: string; name: string };
};

/**
 * A link to pay one invoice (issue 31; decision 074): the business, the invoice's number, what is
 * owing on it and its due date lead (subject, heading, first lines), then the "Pay now" button, the
 * facts, and the link written out. An invoice past its due date (in the business's time zone, at
 * `now`) is said to be overdue.
 */
export async function renderInvoiceLinkEmail(input: {
  branding: HostBranding;
  support: Support;
  recipientName: string;
  invoice: InvoiceLinkEmailInvoice;
  expiresAt: Date;
  link: string;
  now: Date;
  preferences?: EmailPreferenceLinks | null;
  /** The account's PayID, when offered: the transfer that adds no surcharge. */
  payId?: string | null;
}): Promise<RenderedEmail> {
  const { branding, invoice, link } = input;
  const brand = emailBrandOf(branding);
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const due = formatDate(invoice.dueDate, { timeZone: branding.timeZone });
  const expires = formatDate(input.expiresAt, { timeZone: branding.timeZone });
  const owing = money(invoice.balanceCents);
  const overdue = invoice.dueDate < businessToday(branding.timeZone, input.now);
  const greeting = `Hello ${input.recipientName.trim() || "there"},`;
  const ask = overdue
    ? `Invoice ${invoice.number} from ${branding.businessName} was due on ${due}: ${owing} is still to pay.`
    : `${branding.businessName} asks you to pay invoice ${invoice.number}: ${owing} by ${due}.`;
  const subject = overdue
    ? `Overdue: invoice ${invoice.number} from ${branding.businessName}, ${owing} due ${due}`
    : `Invoice ${invoice.number} from ${branding.businessName}: ${owing} due ${due}`;
  const facts: [string, string][] = [
    ["Invoice", invoice.number],
    ["To pay", owing],
    ...(invoice.balanceCents !== invoice.amountCents
      ? ([["Invoice total", money(invoice.amountCents)]] as [string, string][])
      : []),
    [overdue ? "Was due" : "Due", due],
    ["Account", `${invoice.account.name} (${invoice.account.number})`],
    ["Link works until", expires],
  ];
  const fees = surchargeNote(branding, input.payId ?? null, invoice.number);
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={ask} contact={input.support} preferences={input.preferences}>
      <Heading
        as="h1"
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand).text }}
      >
        {overdue ? `Invoice ${invoice.number} is overdue` : `Invoice ${invoice.number}`}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{ask}</Text>
      <Text style={emailText(brand, { fontSize: "30px", lineHeight: "36px", fontWeight: 700, margin: "8px 0 16px" })}>
        {owing}
      </Text>
      <EmailButton brand={brand} href={link}>
        Pay now
      </EmailButton>
      {fees ? <Text style={emailText(brand, { fontSize: "14px", lineHeight: "20px" })}>{fees}</Text> : null}
      <EmailFacts brand={brand} facts={facts} />
      <FallbackLink brand={brand} link={link} expires={expires} />
    </BrandedEmail>,
  );
  const text = [
    greeting,
    "",
    ask,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    "Pay now:",
    link,
    "",
    ...(fees ? [fees, ""] : []),
    `This link is for you: please do not forward it. It works until ${expires}.`,
    "",
    ...contactLines(branding.businessName, input.support),
    ...preferenceTextLines(branding.businessName, input.preferences),
  ].join("\n");
  return { subject, html, text };
}

function InvoiceList(props: { brand: EmailBrand; request: PaymentRequestView; money: (cents: number) => string }) {
  const c = emailColors(props.brand);
  return (
    <Section style={{ margin: "8px 0 4px" }}>
      <Heading as="h2" style={{ fontSize: "16px", lineHeight: "22px", margin: "12px 0 4px", color: c.text }}>
        {props.request.invoices.length === 1 ? "Invoice" : `Invoices (${props.request.invoices.length})`}
      </Heading>
      {props.request.invoices.map((invoice) => (
        <Row key={invoice.id} style={{ borderBottom: `1px solid ${c.border}` }}>
          <Column style={{ padding: "6px 0" }}>
            <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: c.text }}>{invoice.number}</Text>
          </Column>
          <Column style={{ padding: "6px 0", textAlign: "right" }}>
            <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: c.text, fontWeight: 600 }}>
              {props.money(invoice.amountCents)}
            </Text>
          </Column>
        </Row>
      ))}
    </Section>
  );
}

function contactLines(businessName: string, support: Support) {
  return [
    questionsLine(businessName, support),
    ...(support.supportEmail ? [`Email: ${support.supportEmail}`] : []),
    ...(support.supportPhone ? [`Phone: ${support.supportPhone}`] : []),
  ];
}
