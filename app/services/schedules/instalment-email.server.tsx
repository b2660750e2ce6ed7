import { Heading, Link, Text } from "@react-email/components";
import { formatDateIn, formatMoney, ordinalIn } from "~/lib/format";
import { isMessageKey, translator } from "~/lib/i18n/catalog";
import { DEFAULT_LANGUAGE, type LanguageCode, type Translate } from "~/lib/i18n";
import { emailBrandOf, findBusinessBranding, type HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import {
  BrandedEmail,
  EmailButton,
  emailColors,
  EmailFacts,
  emailText,
  preferenceTextLines,
  renderEmailHtml,
  type EmailContact,
  type EmailPreferenceLinks,
} from "../platform/email-layout.server";
import { logger } from "../platform/logger.server";
import { sendThroughOutbox } from "../platform/mail-outbox.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { sendReceipt } from "../payments/receipts.server";
import type { InstalmentEmail } from "./instalment-outcomes.server";
import { createScheduleLink } from "./commands.server";

/**
 * The instalment runner's emails (decision 035), sent by the outbox's jobs (queue
 * `instalment-email`), which the state change wrote in its own transaction: so each is sent once
 * the change is committed, and tried again (pg-boss's retries) if the mail server is down.
 *
 * - receipt: the payment's receipt ("Instalment N of M"), receipts.server.ts;
 * - declined: to the contact, with the next try's day and a link to pay it another way (a new
 *   `/customer/payment-schedule/<token>` link, minted when the email is sent);
 * - arrears-contact / arrears-business: the last try was declined; the business is told at its
 *   notification address (else its support address);
 * - paid-twice-business: a payment settled for an instalment already paid or cancelled (a PayTo
 *   try the bank paid after we had failed it); the money is account credit, and the business is
 *   told to refund or apply it.
 *
 * An email about an instalment that has since been paid or cancelled is not sent. The portal keeps
 * no language per contact: these are in the portal's default language, from the dictionaries.
 */
/**
 * The outbox key of an instalment email: the job's own cause, so a retried job (pg-boss's, after
 * the mail server refused) finds the message it wrote and writes no second one (decision 044).
 */
function outboxKey(email: InstalmentEmail) {
  const subject = email.kind === "receipt" || email.kind === "paid-twice-business" ? email.paymentId : email.attemptId;
  return `instalment-email:${email.kind}:${subject}`;
}

export async function sendInstalmentEmail(email: InstalmentEmail, language: LanguageCode = DEFAULT_LANGUAGE) {
  const db = await getDb();
  const branding = await findBusinessBranding(db, email.businessId);
  if (!branding) {
    logger.error("instalment email not sent: the business has no host", { businessId: email.businessId });
    return "skipped" as const;
  }
  if (email.kind === "receipt") {
    await sendReceipt(branding, email.paymentId);
    return "sent" as const;
  }
  if (email.kind === "paid-twice-business") return sendPaidTwice(branding, email, translator(language), language);
  const facts = await attemptFacts(email.businessId, email.attemptId);
  if (!facts) return "skipped" as const;
  if (facts.instalmentStatus === "paid" || facts.instalmentStatus === "cancelled") return "skipped" as const;
  const t = translator(language);
  if (email.kind === "arrears-business") {
    const to = facts.notificationEmail || facts.supportEmail;
    if (!to) {
      logger.warn("arrears email to the business not sent: it has no notification or support address", {
        businessId: email.businessId,
      });
      return "skipped" as const;
    }
    const rendered = await renderBusinessArrears(branding, facts, t, language);
    await sendThroughOutbox(
      { to, fromName: branding.businessName, category: "business", ...rendered },
      { key: outboxKey(email), businessId: email.businessId },
    );
    return "sent" as const;
  }
  const link = await createScheduleLink(db, facts.scheduleId, facts.contactId);
  // About a schedule the contact agreed to: transactional, sent whatever their preferences (decision 039).
  await sendContactMail({
    branding,
    contact: { id: facts.contactId, email: facts.contactEmail },
    category: "schedules",
    replyTo: facts.supportEmail,
    key: outboxKey(email),
    render: (preferences) => renderContactEmail(email.kind, branding, facts, link, t, preferences, language),
  });
  return "sent" as const;
}

/** What an attempt's emails say, as `attemptFacts` reads it. */
export type InstalmentAttemptFacts = NonNullable<Awaited<ReturnType<typeof attemptFacts>>>;
type Facts = InstalmentAttemptFacts;

async function attemptFacts(businessId: string, attemptId: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("instalment_attempts as a")
    .innerJoin("schedule_instalments as si", "si.id", "a.instalment_id")
    .innerJoin("payment_schedules as ps", "ps.id", "si.schedule_id")
    .innerJoin("accounts as acc", "acc.id", "ps.account_id")
    .innerJoin("businesses as b", "b.id", "ps.business_id")
    .innerJoin("contacts as c", (join) =>
      join.on((eb) => eb("c.id", "=", eb.fn.coalesce("ps.accepted_by", "ps.contact_id"))),
    )
    .select((eb) => [
      "a.failure_code as failureCode",
      "si.seq",
      "si.due_date as dueDate",
      "si.amount_cents as amountCents",
      "si.status as instalmentStatus",
      "si.attempts",
      "si.next_attempt_on as nextAttemptOn",
      "ps.id as scheduleId",
      "ps.reference",
      "ps.currency",
      "ps.total_cents as totalCents",
      "ps.paid_cents as paidCents",
      "acc.number as accountNumber",
      "acc.name as accountName",
      "c.id as contactId",
      "c.email as contactEmail",
      "c.first_name as firstName",
      "b.notification_email as notificationEmail",
      "b.support_email as supportEmail",
      "b.support_phone as supportPhone",
      eb
        .selectFrom("schedule_instalments as all")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .whereRef("all.schedule_id", "=", "ps.id")
        .as("count"),
    ])
    .where("a.business_id", "=", businessId)
    .where("a.id", "=", attemptId)
    .executeTakeFirst();
  return row ? { ...row, count: Number(row.count) } : null;
}

function wordsOf(branding: HostBranding, facts: Facts, t: Translate, language: LanguageCode) {
  const money = (cents: number) => formatMoney(cents, { currency: facts.currency });
  const day = (value: string | Date) => formatDateIn(value, { timeZone: branding.timeZone, language });
  // The engine's refusals of the way to pay itself (removed card, inactive agreement, over its limit) read alike.
  const code = ["card", "agreement", "agreementInactive", "limit", "instalment"].includes(facts.failureCode ?? "")
    ? "method"
    : (facts.failureCode ?? "other");
  const reasonKey = `instalmentEmail.reason.${code}`;
  const reason = t(isMessageKey(reasonKey) ? reasonKey : "instalmentEmail.reason.other");
  const params = {
    seq: ordinalIn(facts.seq, language),
    count: facts.count,
    amount: money(Number(facts.amountCents)),
    business: branding.businessName,
    reference: facts.reference,
    reason,
  };
  return { money, day, params };
}

/** The contact's email of a declined instalment, or of a schedule in arrears (rendered, not sent). */
export async function renderContactEmail(
  kind: "declined" | "arrears-contact",
  branding: HostBranding,
  facts: Facts,
  link: { url: string | null; expiresAt: Date } | null,
  t: Translate,
  preferences: EmailPreferenceLinks,
  language: LanguageCode,
) {
  const brand = emailBrandOf(branding);
  const { money, day, params } = wordsOf(branding, facts, t, language);
  const declined = kind === "declined";
  const subject = t(declined ? "instalmentEmail.declined.subject" : "instalmentEmail.arrears.subject", params);
  const title = t(declined ? "instalmentEmail.declined.title" : "instalmentEmail.arrears.title");
  const greeting = facts.firstName.trim()
    ? t("instalmentEmail.greeting", { name: facts.firstName.trim() })
    : t("instalmentEmail.greetingAnon");
  const lead = t(declined ? "instalmentEmail.declined.lead" : "instalmentEmail.arrears.lead", params);
  const next =
    declined && facts.nextAttemptOn
      ? t("instalmentEmail.declined.retry", { day: day(facts.nextAttemptOn) })
      : t("instalmentEmail.arrears.next", params);
  const action = t("instalmentEmail.declined.action");
  const url = link?.url ?? null;
  const facts_: [string, string][] = [
    [
      t("instalmentEmail.fact.instalment"),
      t("instalmentEmail.fact.instalmentValue", {
        seq: ordinalIn(facts.seq, language),
        count: facts.count,
        day: day(facts.dueDate),
      }),
    ],
    [t("instalmentEmail.fact.amount"), money(Number(facts.amountCents))],
    ...(declined && facts.nextAttemptOn
      ? ([[t("instalmentEmail.fact.nextTry"), day(facts.nextAttemptOn)]] as [string, string][])
      : []),
    [t("instalmentEmail.fact.schedule"), facts.reference],
    [t("instalmentEmail.fact.account"), `${facts.accountName} (${facts.accountNumber})`],
    [t("instalmentEmail.fact.paidSoFar"), `${money(Number(facts.paidCents))} / ${money(Number(facts.totalCents))}`],
  ];
  const support: EmailContact = { supportEmail: facts.supportEmail, supportPhone: facts.supportPhone };
  const expires = link ? day(link.expiresAt) : "";
  const c = emailColors(brand);
  const html = await renderEmailHtml(
    <BrandedEmail brand={brand} preview={lead} contact={support} preferences={preferences}>
      <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: c.text }}>
        {title}
      </Heading>
      <Text style={emailText(brand)}>{greeting}</Text>
      <Text style={emailText(brand)}>{lead}</Text>
      <Text style={emailText(brand)}>{next}</Text>
      {url ? (
        <>
          <Text style={emailText(brand)}>{action}</Text>
          <EmailButton brand={brand} href={url}>
            {t("instalmentEmail.button")}
          </EmailButton>
        </>
      ) : null}
      <EmailFacts brand={brand} facts={facts_} />
      {url ? (
        <>
          <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "16px 0 4px" }}>
            {t("instalmentEmail.fallback")}
          </Text>
          <Text style={{ fontSize: "13px", lineHeight: "20px", margin: 0, wordBreak: "break-all" }}>
            <Link href={url} style={{ color: c.link, textDecoration: "underline" }}>
              {url}
            </Link>
          </Text>
          <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "12px 0 0" }}>
            {t("instalmentEmail.linkNote", { day: expires })}
          </Text>
        </>
      ) : null}
    </BrandedEmail>,
  );
  const text = [
    greeting,
    "",
    lead,
    "",
    next,
    "",
    ...(url ? [action, url, "", t("instalmentEmail.linkNote", { day: expires }), ""] : []),
    ...facts_.map(([label, value]) => `${label}: ${value}`),
    "",
    t("instalmentEmail.questions", { business: branding.businessName }),
    ...(facts.supportEmail ? [facts.supportEmail] : []),
    ...(facts.supportPhone ? [facts.supportPhone] : []),
    ...preferenceTextLines(branding.businessName, preferences),
  ].join("\n");
  return { subject, html, text };
}

/** The business's email of a schedule in arrears (rendered, not sent). */
export async function renderBusinessArrears(
  branding: HostBranding,
  facts: Facts,
  t: Translate,
  language: LanguageCode,
) {
  const brand = emailBrandOf(branding);
  const { money, day, params } = wordsOf(branding, facts, t, language);
  const account = `${facts.accountName} (${facts.accountNumber})`;
  const subject = t("instalmentEmail.business.subject", { reference: facts.reference, account });
  const title = t("instalmentEmail.business.title");
  const lead = t("instalmentEmail.business.lead", { ...params, tries: facts.attempts });
  const next = t("instalmentEmail.business.next");
  const facts_: [string, string][] = [
    [t("instalmentEmail.fact.schedule"), facts.reference],
    [t("instalmentEmail.fact.account"), account],
    [t("instalmentEmail.fact.contact"), facts.contactEmail],
    [
      t("instalmentEmail.fact.instalment"),
      t("instalmentEmail.fact.instalmentValue", {
        seq: ordinalIn(facts.seq, language),
        count: facts.count,
        day: day(facts.dueDate),
      }),
    ],
    [t("instalmentEmail.fact.amount"), money(Number(facts.amountCents))],
    [t("instalmentEmail.fact.paidSoFar"), `${money(Number(facts.paidCents))} / ${money(Number(facts.totalCents))}`],
  ];
  const { html, text } = await businessNotice(brand, { title, lead, next, facts: facts_ }, facts);
  return { subject, html, text };
}

/** An email to the business: a title, what happened, what to do, and the facts of it. */
async function businessNotice(
  brand: ReturnType<typeof emailBrandOf>,
  words: { title: string; lead: string; next: string; facts: [string, string][] },
  contact: { supportEmail: string | null; supportPhone: string | null },
) {
  const { title, lead, next, facts } = words;
  const html = await renderEmailHtml(
    <BrandedEmail
      brand={brand}
      preview={lead}
      contact={{ supportEmail: contact.supportEmail, supportPhone: contact.supportPhone }}
    >
      <Heading
        as="h1"
        style={{ fontSize: "22px", lineHeight: "28px", margin: "16px 0 4px", color: emailColors(brand).text }}
      >
        {title}
      </Heading>
      <Text style={emailText(brand)}>{lead}</Text>
      <Text style={emailText(brand)}>{next}</Text>
      <EmailFacts brand={brand} facts={facts} />
    </BrandedEmail>,
  );
  const text = [lead, "", next, "", ...facts.map(([label, value]) => `${label}: ${value}`)].join("\n");
  return { html, text };
}

/** The business's notice of an instalment paid twice: which payment, how much, and what to do. */
async function sendPaidTwice(
  branding: HostBranding,
  email: Extract<InstalmentEmail, { kind: "paid-twice-business" }>,
  t: Translate,
  language: LanguageCode,
) {
  const db = await getDb();
  const row = await db
    .selectFrom("payments as p")
    .innerJoin("schedule_instalments as si", "si.id", "p.schedule_instalment_id")
    .innerJoin("payment_schedules as ps", "ps.id", "si.schedule_id")
    .innerJoin("accounts as acc", "acc.id", "ps.account_id")
    .innerJoin("businesses as b", "b.id", "ps.business_id")
    .select((eb) => [
      "p.reference as paymentReference",
      "p.amount_cents as amountCents",
      "p.currency",
      "si.seq",
      "si.status as instalmentStatus",
      "ps.reference",
      "acc.number as accountNumber",
      "acc.name as accountName",
      "b.notification_email as notificationEmail",
      "b.support_email as supportEmail",
      "b.support_phone as supportPhone",
      eb
        .selectFrom("schedule_instalments as all")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .whereRef("all.schedule_id", "=", "ps.id")
        .as("count"),
    ])
    .where("p.business_id", "=", email.businessId)
    .where("p.id", "=", email.paymentId)
    .where("p.status", "=", "succeeded")
    .executeTakeFirst();
  if (!row) return "skipped" as const;
  const to = row.notificationEmail || row.supportEmail;
  if (!to) {
    logger.error("instalment paid twice, and the business has no notification or support address to tell", {
      businessId: email.businessId,
      paymentId: email.paymentId,
    });
    return "skipped" as const;
  }
  const { subject, html, text } = await renderPaidTwice(branding, row, t, language);
  await sendThroughOutbox(
    { to, fromName: branding.businessName, category: "business", subject, html, text },
    { key: outboxKey(email), businessId: email.businessId },
  );
  return "sent" as const;
}

/** What the paid-twice email says, as `sendPaidTwice` reads it. */
export type PaidTwiceFacts = {
  paymentReference: string;
  amountCents: number | string;
  currency: string;
  seq: number;
  instalmentStatus: string;
  reference: string;
  accountNumber: string;
  accountName: string;
  supportEmail: string | null;
  supportPhone: string | null;
  count: number | string | bigint | null;
};

/** The business's email of an instalment paid twice (rendered, not sent). */
export async function renderPaidTwice(
  branding: HostBranding,
  row: PaidTwiceFacts,
  t: Translate,
  language: LanguageCode,
) {
  const brand = emailBrandOf(branding);
  const account = `${row.accountName} (${row.accountNumber})`;
  const amount = formatMoney(Number(row.amountCents), { currency: row.currency });
  const params = {
    seq: ordinalIn(row.seq, language),
    count: Number(row.count),
    reference: row.reference,
    payment: row.paymentReference,
    amount,
    account,
  };
  const subject = t("instalmentEmail.paidTwice.subject", params);
  const title = t("instalmentEmail.paidTwice.title");
  const lead = t(
    row.instalmentStatus === "cancelled" ? "instalmentEmail.paidTwice.leadCancelled" : "instalmentEmail.paidTwice.lead",
    params,
  );
  const next = t("instalmentEmail.paidTwice.next", params);
  const facts: [string, string][] = [
    [t("instalmentEmail.fact.schedule"), row.reference],
    [t("instalmentEmail.fact.account"), account],
    [t("instalmentEmail.fact.payment"), row.paymentReference],
    [t("instalmentEmail.fact.amount"), amount],
  ];
  const { html, text } = await businessNotice(brand, { title, lead, next, facts }, row);
  return { subject, html, text };
}
