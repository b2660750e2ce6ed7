import { cardName } from "../../app/lib/card";
import { feeRulesFromRow } from "../../app/lib/payment-calc";
import { endSentence } from "../../app/lib/sentence";
import type { AgreementOfferView } from "../../app/services/agreements/agreement-views.server";
import { renderAgreementOfferEmail } from "../../app/services/agreements/agreement-email.server";
import type { CreditApplicationDetail } from "../../app/services/credit/credit-application-views.server";
import {
  renderApplicantEmail,
  renderBusinessEmail,
  type SubmittedApplication,
} from "../../app/services/credit/credit-email.server";
import { renderCreditDecisionEmail } from "../../app/services/credit/credit-decision-email.server";
import { renderTradeReferenceRequestEmail } from "../../app/services/credit/trade-reference-email.server";
import { DEFAULT_LANGUAGE } from "../../app/lib/i18n";
import { translator } from "../../app/lib/i18n/catalog";
import { renderAccountEmail } from "../../app/services/auth/account-email.server";
import { renderPayIdReceipt } from "../../app/services/payments/payto/payid-receipt-email.server";
import type { HostBranding } from "../../app/services/host/host.server";
import { renderReceiptHtml } from "../../app/services/payments/receipt-email.server";
import type { PaymentRequestView } from "../../app/services/requests/payment-request-view.server";
import {
  renderAnswerNotification,
  renderResponseRequestEmail,
} from "../../app/services/responses/response-email.server";
import type { ResponseAnswerView, ResponseRequestView } from "../../app/services/responses/response-view.server";
import {
  renderAdhocLinkEmail,
  renderInvoiceLinkEmail,
  renderPaymentRequestEmail,
} from "../../app/services/requests/request-email.server";
import { renderScheduleProposalEmail } from "../../app/services/schedules/schedule-email.server";
import {
  renderBusinessArrears,
  renderContactEmail,
  renderPaidTwice,
  type InstalmentAttemptFacts,
} from "../../app/services/schedules/instalment-email.server";
import type { ScheduleView } from "../../app/services/schedules/schedule-rows.server";

/**
 * Every email the portal sends, to a contact and to the business, rendered from fixed records for
 * both demo brands: Acme Plumbing Supplies (a name ending in "s", with a support email and phone) in
 * Australia, and Kiwi Freight Co. (a name ending in ".", with neither) in New Zealand. The words
 * check reads them all (tests/unit/email-words.test.ts); the e2e gallery shows each at 360 px and on
 * a desktop as a screenshot (tests/e2e/email-gallery.spec.ts), including the kinds the admin's
 * branding preview does not offer.
 */
export type Demo = { branding: HostBranding; support: { supportEmail: string | null; supportPhone: string | null } };

const base = {
  businessId: "b",
  businessLabel: "",
  customCss: null,
  preview: null,
  authProvider: "credentials",
  auth0Domain: null,
  auth0ClientId: null,
  payToSettings: null,
  feeRules: feeRulesFromRow(null),
  adhoc: { enabled: true, minCents: 10_00, maxCents: 5_000_00 },
} as const;

export const DEMOS: Record<string, Demo> = {
  acme: {
    branding: {
      ...base,
      hostname: "acme.example",
      theme: "navy-blue",
      logoDirectory: "/brands/acme",
      businessName: "Acme Plumbing Supplies",
      logoUrl: "/brands/acme/logo.svg",
      faviconUrl: "/brands/acme/favicon.svg",
      faviconType: "image/svg+xml",
      brandTokens: null,
      emailLogo: { url: "/brands/acme/email-logo.png", width: 48, height: 48 },
      country: "AU",
      currency: "AUD",
      timeZone: "Australia/Sydney",
      publicBaseUrl: "https://acme.example",
    },
    support: { supportEmail: "accounts@acme.example", supportPhone: "1300 226 300" },
  },
  kiwi: {
    branding: {
      ...base,
      hostname: "kiwi.example",
      theme: "english-holly",
      logoDirectory: "/brands/kiwi",
      businessName: "Kiwi Freight Co.",
      logoUrl: "/brands/kiwi/logo.svg",
      faviconUrl: "/brands/kiwi/favicon.svg",
      faviconType: "image/svg+xml",
      brandTokens: null,
      emailLogo: { url: "/brands/kiwi/email-logo.png", width: 48, height: 48 },
      country: "NZ",
      currency: "NZD",
      timeZone: "Pacific/Auckland",
      publicBaseUrl: "https://kiwi.example",
    },
    // No email or phone: the footer's "Questions? Contact Kiwi Freight Co." ends the sentence.
    support: { supportEmail: null, supportPhone: null },
  },
};

const request = (currency: string): PaymentRequestView => ({
  id: "8f2c0d1a-0000-4000-8000-000000000001",
  reference: "PR-AB12CD34",
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  kind: "invoices",
  description: "December deliveries",
  amountCents: 1_318_97,
  paidCents: 300_00,
  remainingCents: 1_018_97,
  currency,
  dueDate: "2026-12-15",
  expiresAt: "2026-12-20T12:00:00.000Z",
  allowPartPayment: true,
  minPartPaymentCents: 50_00,
  state: "part-paid",
  invoices: [{ id: "i1", number: "INV-1", amountCents: 1_318_97, balanceCents: 1_018_97 }],
  recipients: [],
  createdAt: "2026-11-20T00:00:00.000Z",
  sentAt: null,
  openedAt: null,
  paidAt: null,
  cancelledAt: null,
});

const offer: AgreementOfferView = {
  id: "o",
  reference: "AG-AB12CD34",
  state: "offered",
  document: { id: "d", kind: "terms-of-trade", title: "Terms of trade" },
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  contact: { id: "c", email: "olivia@coastal.example" },
  expiresAt: "2026-12-31T13:00:00.000Z",
  createdAt: "2026-12-01T00:00:00.000Z",
  sentAt: null,
  sendCount: 0,
  openedAt: null,
  withdrawnAt: null,
  decision: null,
} as AgreementOfferView;

const instalment = (seq: number, dueDate: string, amountCents: number) => ({
  id: `i${seq}`,
  seq,
  dueDate,
  amountCents,
  status: "scheduled" as const,
  view: "upcoming" as const,
  attempts: 0,
  nextAttemptOn: dueDate,
  lastFailure: null,
  paidAt: null,
  payment: null,
  lastAttempt: null,
});

const schedule = (currency: string): ScheduleView => ({
  id: "s",
  reference: "PS-AB12CD34",
  state: "proposed",
  status: "proposed",
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  contact: { id: "c", email: "olivia@coastal.example" },
  description: "Fit-out in two parts",
  currency,
  totalCents: 1_000_01,
  paidCents: 0,
  remainingCents: 1_000_01,
  invoices: [{ id: "v", number: "INV-7", amountCents: 1_000_01, balanceCents: 1_000_01 }],
  instalments: [instalment(1, "2026-12-14", 500_00), instalment(2, "2027-01-14", 500_01)],
  nextInstalment: null,
  wayToPay: null,
  acceptance: null,
  attempts: { total: 0, succeeded: 0, declined: 0, pending: 0, errors: 0 },
  expiresAt: "2026-12-14T13:00:00.000Z",
  createdAt: "2026-12-01T00:00:00.000Z",
  sentAt: null,
  sendCount: 0,
  withdrawnAt: null,
  cancelledAt: null,
  completedAt: null,
  arrearsAt: null,
  today: "2026-12-01",
});

/** A dispute answered with the business's position: the email names it without "'s". */
const dispute: ResponseRequestView = {
  id: "r",
  reference: "RR-AB12CD34",
  kind: "dispute",
  state: "open",
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  contact: { id: "c", email: "olivia@coastal.example" },
  message: "We have looked into the delivery charge.",
  dispute: {
    invoiceId: "v",
    invoice: {
      number: "INV-7",
      issueDate: "2026-11-02",
      dueDate: "2026-12-02",
      amountCents: 1_318_97,
      disputeReason: "Charged twice for delivery.",
    },
    resolution: { type: "position", text: "The second delivery was a separate order." },
  },
  expiresAt: "2026-12-20T12:00:00.000Z",
  createdAt: "2026-12-01T00:00:00.000Z",
  sentAt: null,
  sendCount: 0,
  openedAt: null,
  answeredAt: null,
  withdrawnAt: null,
  answer: null,
};

/** A delivery address to confirm, and a statement to acknowledge, answered: the other two kinds. */
const addressRequest: ResponseRequestView = {
  ...dispute,
  id: "r2",
  reference: "RR-CD34EF56",
  kind: "delivery-address",
  message: "Please confirm where we deliver.",
  dispute: undefined,
  address: { line1: "12 Wharf St", line2: "", locality: "Newcastle", state: "NSW", postcode: "2300", country: "AU" },
};
const statementRequest: ResponseRequestView = {
  ...dispute,
  id: "r3",
  reference: "RR-EF56GH78",
  kind: "statement",
  message: "Your November statement.",
  dispute: undefined,
  statement: { periodStart: "2026-11-01", periodEnd: "2026-11-30", closingBalanceCents: 1_318_97 },
};
const answered = (request: ResponseRequestView, answer: Partial<ResponseAnswerView>): ResponseRequestView => ({
  ...request,
  state: "answered",
  answeredAt: "2026-12-03T23:28:00.000Z",
  answer: {
    choice: "accepted",
    typedName: "Olivia Nguyen",
    contact: { id: "c", email: "olivia@coastal.example" },
    clientAddress: "203.0.113.7",
    userAgent: "Mozilla/5.0",
    answeredAt: "2026-12-03T23:28:00.000Z",
    ...answer,
  },
});

/** A credit application decided, each way; the business's words as it typed them. */
const application = (currency: string, decision: "accepted" | "declined"): CreditApplicationDetail =>
  ({
    id: "ca",
    reference: "CA-AB12CD34",
    status: decision,
    country: currency === "NZD" ? "NZ" : "AU",
    legalName: "Coastal Builders Group Pty Ltd",
    applicantEmail: "olivia@coastal.example",
    requestedLimitCents: 20_000_00,
    currency,
    submittedAt: "2026-11-28T01:00:00.000Z",
    decidedAt: "2026-12-02T02:00:00.000Z",
    referenceCount: { total: 2, answered: 2 },
    documentCount: 1,
    decision: {
      decision,
      decidedAt: "2026-12-02T02:00:00.000Z",
      approvedLimitCents: decision === "accepted" ? 15_000_00 : null,
      note: decision === "accepted" ? "Welcome aboard." : null,
      reason: decision === "declined" ? "We could not verify the trade references." : null,
      decidedBy: "admin@acme.example",
    },
  }) as CreditApplicationDetail;

/** A credit application as it is submitted: the applicant's confirmation and the business's notice. */
const submitted = (country: "AU" | "NZ"): SubmittedApplication => ({
  reference: "CA-AB12CD34",
  submittedAt: new Date("2026-11-28T01:00:00.000Z"),
  documentCount: 1,
  answers: {
    business: {
      legalName: "Coastal Builders Group Pty Ltd",
      tradingName: "Coastal Builders",
      entityType: "company",
      abn: country === "AU" ? "51824753556" : null,
      acn: country === "AU" ? "824753556" : null,
      nzbn: country === "NZ" ? "9429041234567" : null,
    },
    contacts: {
      applicant: {
        name: "Olivia Nguyen",
        email: "olivia@coastal.example",
        phone: "0412 345 678",
        position: "Director",
      },
      accountsPayable: { name: "Olivia Nguyen", email: "olivia@coastal.example", phone: "0412 345 678" },
      accountsPayableIsApplicant: true,
    },
    credit: { limitCents: 20_000_00, monthlyCents: 8_000_00 },
    references: {
      referees: [
        {
          business: "Harbour Timber Traders",
          contactName: "Sam Supplier",
          email: "sam@harbour.example",
          phone: "02 4900 1234",
        },
        {
          business: "Hunter Steel",
          contactName: "Priya Shah",
          email: "priya@huntersteel.example",
          phone: "02 4900 5678",
        },
      ],
    },
  },
});

/** An instalment's attempt as its emails read it: declined by the card, one try left. */
const attempt = (currency: string, support: Demo["support"]): InstalmentAttemptFacts =>
  ({
    failureCode: "declined",
    seq: 2,
    dueDate: "2026-12-14",
    amountCents: 500_00,
    instalmentStatus: "failed",
    attempts: 3,
    nextAttemptOn: "2026-12-17",
    scheduleId: "s",
    reference: "PS-AB12CD34",
    currency,
    totalCents: 1_000_01,
    paidCents: 500_00,
    accountNumber: "ACME-1000",
    accountName: "Coastal Builders Group",
    contactId: "c",
    contactEmail: "olivia@coastal.example",
    firstName: "Olivia",
    notificationEmail: "accounts@acme.example",
    supportEmail: support.supportEmail,
    supportPhone: support.supportPhone,
    count: 2,
  }) as InstalmentAttemptFacts;

/**
 * The signed links at an email's foot (decision 039): every message here is transactional (no
 * unsubscribe) but the reminder, the one the contact chose to get.
 */
const preferences = { preferences: "https://pay.example/communication/TOKEN", unsubscribe: null, topic: null };
const reminderPreferences = {
  preferences: preferences.preferences,
  unsubscribe: "https://pay.example/communication/unsubscribe?token=TOKEN",
  topic: "reminders" as const,
};

export type RenderedEmail = { subject?: string; html: string; text?: string };

/** Every email, by name, for one demo brand (its `publicBaseUrl` is where the links and the logo point). */
export async function everyEmail({ branding, support }: Demo): Promise<[string, RenderedEmail][]> {
  const link = `${branding.publicBaseUrl}/customer/payment-request/TOKEN`;
  const t = translator(DEFAULT_LANGUAGE);
  return [
    [
      "payment request",
      await renderPaymentRequestEmail({
        branding,
        support,
        recipientName: "Olivia",
        request: request(branding.currency),
        link,
        preferences,
      }),
    ],
    [
      "payment reminder",
      await renderPaymentRequestEmail({
        branding,
        support,
        recipientName: "Olivia",
        request: request(branding.currency),
        link,
        preferences: reminderPreferences,
        reminder: { now: new Date("2026-12-10T23:30:00.000Z") },
      }),
    ],
    [
      "ad-hoc link",
      await renderAdhocLinkEmail({
        branding,
        support,
        recipientName: "Aroha",
        account: { number: "ACME-1000", name: "Coastal Builders Group" },
        minCents: 10_00,
        maxCents: 5_000_00,
        expiresAt: new Date("2026-12-24T00:00:00Z"),
        link,
      }),
    ],
    [
      "invoice link",
      await renderInvoiceLinkEmail({
        branding,
        support,
        recipientName: "Olivia",
        invoice: {
          number: "ACME-1000-INV-023",
          amountCents: 1_318_97,
          balanceCents: 1_018_97,
          dueDate: "2026-12-13",
          account: { number: "ACME-1000", name: "Coastal Builders Group" },
        },
        expiresAt: new Date("2026-12-20T12:00:00.000Z"),
        link,
        now: new Date("2026-12-01T00:00:00.000Z"),
        preferences,
      }),
    ],
    [
      "receipt",
      {
        html: await renderReceiptHtml({
          branding,
          support,
          title: "Payment receipt",
          lines: [
            "Hello Olivia,",
            "",
            endSentence(`Thank you for your payment of $1,318.97 to ${branding.businessName}`),
            "",
            "Reference: PAY-AB12CD34",
            "Date: Dec 2, 2026",
            `Paid with: ${cardName("visa", "1111")}`,
          ],
          link: `${branding.publicBaseUrl}/customer/receipt/TOKEN`,
          linkExpires: "Mar 2, 2027",
          preferences,
        }),
      },
    ],
    [
      "PayID receipt",
      await renderPayIdReceipt({
        branding: { ...branding, ...support },
        firstName: "Olivia",
        facts: {
          reference: "PAY-CD34EF56",
          amountCents: 1_318_97,
          payid: "acme-1000@pay.example",
          completedAt: new Date("2026-12-01T23:30:00.000Z"),
          invoices: [{ number: "INV-7", amountCents: 1_000_00 }],
          creditCents: 318_97,
        },
        preferences,
      }),
    ],
    [
      "password reset",
      await renderAccountEmail({
        kind: "reset",
        branding: { ...branding, ...support },
        language: DEFAULT_LANGUAGE,
        firstName: "Olivia",
        email: "olivia@coastal.example",
        link: `${branding.publicBaseUrl}/auth/password/reset?token=TOKEN&email=olivia%40coastal.example`,
        preferences,
      }),
    ],
    [
      "email confirmation",
      await renderAccountEmail({
        kind: "verify",
        branding: { ...branding, ...support },
        language: DEFAULT_LANGUAGE,
        firstName: null,
        email: "olivia@coastal.example",
        link: `${branding.publicBaseUrl}/auth/verify?token=TOKEN`,
        preferences,
      }),
    ],
    [
      "agreement offer",
      await renderAgreementOfferEmail({
        branding,
        support,
        recipientName: "Olivia",
        offer,
        version: { number: 1, publishedAt: new Date("2026-12-01T00:00:00.000Z") },
        kindLabel: "terms of trade",
        link,
        preferences,
      }),
    ],
    [
      "schedule proposal",
      await renderScheduleProposalEmail({
        branding,
        support,
        recipientName: "Olivia",
        schedule: schedule(branding.currency),
        link,
        preferences,
      }),
    ],
    [
      "trade reference request",
      await renderTradeReferenceRequestEmail({
        branding,
        support,
        refereeName: "Sam Supplier",
        refereeBusiness: "Harbour Timber Traders",
        applicantName: "Coastal Builders Group",
        applicationReference: "CA-AB12CD34",
        link,
        expiresAt: new Date("2026-12-20T12:00:00.000Z"),
        resend: false,
      }),
    ],
    [
      "response request (dispute)",
      await renderResponseRequestEmail({
        branding,
        support,
        recipientName: "Olivia",
        request: dispute,
        link,
        preferences,
      }),
    ],
    [
      "response request (delivery address)",
      await renderResponseRequestEmail({
        branding,
        support,
        recipientName: "Olivia",
        request: addressRequest,
        link,
        preferences,
      }),
    ],
    [
      "response request (statement)",
      await renderResponseRequestEmail({
        branding,
        support,
        recipientName: "Olivia",
        request: statementRequest,
        link,
        preferences,
      }),
    ],
    [
      "answer to the business (dispute rejected, with a reason)",
      await renderAnswerNotification({
        branding,
        support,
        request: answered(dispute, { choice: "rejected", reason: "The delivery was ordered once." }),
      }),
    ],
    [
      "answer to the business (address corrected)",
      await renderAnswerNotification({
        branding,
        support,
        request: answered(addressRequest, {
          choice: "corrected",
          typedName: null,
          address: {
            line1: "4 Dock Rd",
            line2: "Unit 2",
            locality: "Newcastle",
            state: "NSW",
            postcode: "2300",
            country: "AU",
          },
        }),
      }),
    ],
    [
      "answer to the business (statement disputed)",
      await renderAnswerNotification({
        branding,
        support,
        request: answered(statementRequest, { choice: "disputed", note: "INV-7 was paid on Nov 20." }),
      }),
    ],
    [
      "credit application received (to the applicant)",
      await renderApplicantEmail({
        branding,
        support,
        application: submitted(branding.country === "NZ" ? "NZ" : "AU"),
      }),
    ],
    [
      "credit application received (to the business)",
      await renderBusinessEmail({ branding, support, application: submitted(branding.country === "NZ" ? "NZ" : "AU") }),
    ],
    [
      "credit decision (approved)",
      await renderCreditDecisionEmail({ branding, support, application: application(branding.currency, "accepted") }),
    ],
    [
      "credit decision (declined)",
      await renderCreditDecisionEmail({ branding, support, application: application(branding.currency, "declined") }),
    ],
    [
      "instalment declined (to the contact)",
      await renderContactEmail(
        "declined",
        branding,
        attempt(branding.currency, support),
        {
          url: `${branding.publicBaseUrl}/customer/payment-schedule/TOKEN`,
          expiresAt: new Date("2027-01-03T00:00:00Z"),
        },
        t,
        preferences,
        DEFAULT_LANGUAGE,
      ),
    ],
    [
      "instalment arrears (to the contact)",
      await renderContactEmail(
        "arrears-contact",
        branding,
        { ...attempt(branding.currency, support), nextAttemptOn: null },
        {
          url: `${branding.publicBaseUrl}/customer/payment-schedule/TOKEN`,
          expiresAt: new Date("2027-01-03T00:00:00Z"),
        },
        t,
        preferences,
        DEFAULT_LANGUAGE,
      ),
    ],
    [
      "instalment arrears (to the business)",
      await renderBusinessArrears(branding, attempt(branding.currency, support), t, DEFAULT_LANGUAGE),
    ],
    [
      "instalment paid twice (to the business)",
      await renderPaidTwice(
        branding,
        {
          paymentReference: "PAY-EF56GH78",
          amountCents: 500_00,
          currency: branding.currency,
          seq: 2,
          instalmentStatus: "paid",
          reference: "PS-AB12CD34",
          accountNumber: "ACME-1000",
          accountName: "Coastal Builders Group",
          supportEmail: support.supportEmail,
          supportPhone: support.supportPhone,
          count: 2,
        },
        t,
        DEFAULT_LANGUAGE,
      ),
    ],
  ];
}
