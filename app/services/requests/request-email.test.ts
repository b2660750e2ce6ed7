import { describe, expect, it } from "vitest";
import { feeRulesFromRow } from "~/lib/payment-calc";
import { AA_TEXT, contrastRatio } from "~/themes/contrast";
import { THEME_NAMES, type ThemeName } from "~/themes/names";
import { themeTokens } from "~/themes/tokens";
import type { HostBranding } from "../host/host.server";
import type { PaymentRequestView } from "./payment-request-view.server";
import { renderAdhocLinkEmail, renderInvoiceLinkEmail, renderPaymentRequestEmail } from "./request-email.server";

const branding = (theme: ThemeName): HostBranding => ({
  hostname: "pay.example.test",
  businessId: "b",
  theme,
  logoDirectory: "/brands/acme",
  businessName: "Acme & Sons <Plumbing>",
  businessLabel: "",
  logoUrl: "/brands/acme/logo.svg",
  faviconUrl: "/brands/acme/favicon.svg",
  faviconType: "image/svg+xml",
  brandTokens: null,
  emailLogo: { url: "/brands/acme/email-logo.png", width: 48, height: 48 },
  customCss: null,
  preview: null,
  country: "AU",
  currency: "AUD",
  timeZone: "Australia/Sydney",
  authProvider: "credentials",
  auth0Domain: null,
  auth0ClientId: null,
  publicBaseUrl: "https://pay.example.test",
  payToSettings: null,
  feeRules: feeRulesFromRow(null),
  adhoc: { enabled: true, minCents: 10_00, maxCents: 5_000_00 },
});

const request: PaymentRequestView = {
  id: "8f2c0d1a-0000-4000-8000-000000000001",
  reference: "PR-AB12CD34",
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  kind: "invoices",
  description: "Line one <script>alert(1)</script>\nLine two",
  amountCents: 1_234_56,
  paidCents: 234_56,
  remainingCents: 1_000_00,
  currency: "AUD",
  dueDate: "2026-12-15",
  expiresAt: "2026-12-20T12:00:00.000Z",
  allowPartPayment: true,
  minPartPaymentCents: 50_00,
  state: "part-paid",
  invoices: [
    { id: "i1", number: "INV-1", amountCents: 1_000_00, balanceCents: 800_00 },
    { id: "i2", number: "INV-2", amountCents: 234_56, balanceCents: 200_00 },
  ],
  recipients: [],
  createdAt: "2026-11-20T00:00:00.000Z",
  sentAt: null,
  openedAt: null,
  paidAt: null,
  cancelledAt: null,
};

const link =
  "https://pay.example.test/customer/payment-request/SELECTORselector0123456789verifierVERIFIER0123456789abcdefgh";
const support = { supportEmail: "accounts@acme.example", supportPhone: "1300 226 300" };

describe("the payment-request email", () => {
  it("says the same facts in its HTML and text parts, with the link in both", async () => {
    const mail = await renderPaymentRequestEmail({
      branding: branding("navy-blue"),
      support,
      recipientName: "Olivia",
      request,
      link,
    });
    expect(mail.subject).toBe("Payment request from Acme & Sons <Plumbing>: $1,000.00 due Dec 15, 2026 (PR-AB12CD34)");
    for (const fact of [
      "$1,000.00",
      "$1,234.56",
      "$234.56",
      "Dec 15, 2026",
      "Dec 20, 2026",
      "PR-AB12CD34",
      "INV-1",
      "INV-2",
      "ACME-1000",
      "$50.00",
      "accounts@acme.example",
      "1300 226 300",
    ]) {
      expect(mail.text, fact).toContain(fact);
      expect(mail.html, fact).toContain(fact);
    }
    expect(mail.text).toContain(`Pay now:\n${link}`);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('href="mailto:accounts@acme.example"');
    expect(mail.html).toContain('href="tel:1300226300"');
  });

  it("asks only for what is still owing when invoices were paid another way", async () => {
    // Nothing reached the request's own paid figure, but INV-1 was paid on the pay page.
    const mail = await renderPaymentRequestEmail({
      branding: branding("navy-blue"),
      support,
      recipientName: "Olivia",
      request: { ...request, paidCents: 0, remainingCents: 234_56 },
      link,
    });
    expect(mail.subject).toContain(": $234.56 due");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("Paid so far");
      expect(part).toContain("$1,000.00");
      expect(part).toContain("Still to pay");
    }
  });

  it("names the card surcharge before the page does, and the PayID that adds nothing (decision 075)", async () => {
    const surcharged: HostBranding = {
      ...branding("navy-blue"),
      feeRules: {
        surcharge: {
          visa: { bps: 120, fixedCents: 0 },
          mastercard: { bps: 120, fixedCents: 0 },
          default: { bps: 250, fixedCents: 0 },
        },
        lateFee: { bps: 500, fixedCents: 0 },
        earlyDiscount: null,
      },
    };
    const withPayId = await renderPaymentRequestEmail({
      branding: surcharged,
      support,
      recipientName: "Olivia",
      request,
      link,
      payId: "acme-1000@pay.example.test",
    });
    for (const part of [withPayId.text, withPayId.html]) {
      expect(part).toContain("Paying by card adds 1.2% for Visa and Mastercard and 2.5% for other cards.");
      expect(part).toContain(
        "A bank transfer to PayID acme-1000@pay.example.test adds nothing: in your banking app choose Pay someone → PayID, and put PR-AB12CD34 in the description.",
      );
      // A request charges what it asks (decision 075): no late fee is mentioned, as none is added.
      expect(part).not.toMatch(/late fee/i);
    }
    // The surcharge comes after the amount and the button, before the facts.
    expect(withPayId.text.indexOf("Paying by card")).toBeGreaterThan(withPayId.text.indexOf(link));

    const withoutPayId = await renderPaymentRequestEmail({
      branding: surcharged,
      support,
      recipientName: "O",
      request,
      link,
    });
    expect(withoutPayId.text).toContain("Paying by card adds 1.2% for Visa and Mastercard and 2.5% for other cards.");
    expect(withoutPayId.text).not.toContain("PayID");

    // No surcharge: nothing said, even with a PayID.
    const none = await renderPaymentRequestEmail({
      branding: branding("navy-blue"),
      support,
      recipientName: "O",
      request,
      link,
      payId: "acme-1000@pay.example.test",
    });
    for (const part of [none.text, none.html]) expect(part).not.toMatch(/surcharge|Paying by card|PayID/);
  });

  it("escapes what the business typed and its name", async () => {
    const mail = await renderPaymentRequestEmail({
      branding: branding("base"),
      support,
      recipientName: "<b>O</b>",
      request,
      link,
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain("Acme &amp; Sons &lt;Plumbing&gt;");
    expect(mail.html).not.toContain("<b>O</b>");
  });

  it.each(THEME_NAMES)("is accessible and in the %s theme's colours, which pass WCAG AA", async (theme) => {
    const mail = await renderPaymentRequestEmail({
      branding: branding(theme),
      support,
      recipientName: "",
      request,
      link,
    });
    const { colors, surface } = themeTokens[theme];
    expect(mail.html).toMatch(/<html[^>]*lang="en"/);
    expect(mail.html).toContain('role="presentation"');
    expect(mail.html).toContain('<img alt=""');
    // Emails show the PNG beside the static SVG (decision 081): many mail clients show no SVG.
    expect(mail.html).toContain('src="https://pay.example.test/brands/acme/email-logo.png"');
    expect(mail.html).toContain(`background-color:${colors.button};color:${surface.buttonText}`);
    expect(mail.html).toContain(`background-color:${colors.bannerBackground}`);
    expect(mail.html).toContain(`color:${colors.bannerText}`);
    expect(contrastRatio(colors.button, surface.buttonText)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(colors.bannerBackground, colors.bannerText)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(surface.page, colors.link)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(mail.text).toContain("Hello there,");
  });
});

describe("the ad-hoc link email", () => {
  it("names the business, the range and the link", async () => {
    const mail = await renderAdhocLinkEmail({
      branding: branding("english-holly"),
      support: { supportEmail: null, supportPhone: null },
      recipientName: "Aroha",
      account: { number: "KF-500", name: "Southern Orchards Ltd" },
      minCents: 10_00,
      maxCents: 5_000_00,
      expiresAt: new Date("2026-12-24T00:00:00Z"),
      link: "https://pay.example.test/customer/adhoc/TOKEN",
    });
    expect(mail.subject).toBe("Pay Acme & Sons <Plumbing> any amount");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("$10.00 to $5,000.00");
      expect(part).toContain("KF-500");
      expect(part).toContain("https://pay.example.test/customer/adhoc/TOKEN");
    }
    expect(mail.text).toContain("Questions? Contact Acme & Sons <Plumbing>.");
  });
});

describe("the payment reminder (decision 039)", () => {
  const preferences = {
    preferences: "https://pay.example.test/communication/abc.prefs.x.mac",
    unsubscribe: "https://pay.example.test/communication/unsubscribe?token=abc.unsub-reminders.x.mac",
    topic: "reminders" as const,
  };

  it("reminds before the due date, and says overdue after it (in the business's time zone)", async () => {
    const before = await renderPaymentRequestEmail({
      branding: branding("navy-blue"),
      support,
      recipientName: "Olivia",
      request,
      link,
      preferences,
      // 14 December, 23:00 in Sydney: not yet due.
      reminder: { now: new Date("2026-12-14T12:00:00Z") },
    });
    expect(before.subject).toBe("Reminder: $1,000.00 to Acme & Sons <Plumbing> due Dec 15, 2026 (PR-AB12CD34)");
    expect(before.text).toContain(
      "This is a reminder that Acme & Sons <Plumbing> asks you to pay $1,000.00 by Dec 15, 2026.",
    );
    expect(before.html).toContain("Payment reminder");
    // 16 December, 00:30 in Sydney (still the 15th in UTC): overdue where the business is.
    const after = await renderPaymentRequestEmail({
      branding: branding("navy-blue"),
      support,
      recipientName: "Olivia",
      request,
      link,
      preferences,
      reminder: { now: new Date("2026-12-15T13:30:00Z") },
    });
    expect(after.subject).toBe("Overdue: $1,000.00 to Acme & Sons <Plumbing>, due Dec 15, 2026 (PR-AB12CD34)");
    expect(after.text).toContain("was due on Dec 15, 2026");
    expect(after.html).toContain("Payment overdue");
    for (const mail of [before, after]) {
      expect(mail.text).toContain("If you have paid already, thank you: there is nothing more to do.");
      expect(mail.text).toContain(
        `Choose which emails you get from Acme & Sons <Plumbing>: ${preferences.preferences}`,
      );
      expect(mail.text).toContain(`Unsubscribe from payment reminders: ${preferences.unsubscribe}`);
      expect(mail.html).toContain(`href="${preferences.unsubscribe.replace(/&/g, "&amp;")}"`);
      expect(mail.html.replace(/<!-- -->/g, "")).toContain("Unsubscribe from payment reminders");
    }
  });

  it("a transactional email carries the preferences link but no unsubscribe", async () => {
    const mail = await renderPaymentRequestEmail({
      branding: branding("navy-blue"),
      support,
      recipientName: "Olivia",
      request,
      link,
      preferences: { preferences: preferences.preferences, unsubscribe: null, topic: null },
    });
    expect(mail.text).toContain(`Choose which emails you get from Acme & Sons <Plumbing>: ${preferences.preferences}`);
    expect(mail.text).not.toContain("Unsubscribe");
    expect(mail.html).toContain(`href="${preferences.preferences}"`);
    expect(mail.html).not.toContain("Unsubscribe");
  });
});

describe("the single-invoice link email (issue 31; decision 074)", () => {
  const invoice = {
    number: "ACME-1000-INV-023",
    amountCents: 1_318_97,
    balanceCents: 1_018_97,
    dueDate: "2026-12-13",
    account: { number: "ACME-1000", name: "Coastal Builders Group" },
  };
  const invoiceLink =
    "https://pay.example.test/customer/invoices-and-payments/SELECTORselector0123456789verifierVERIFIER0123456789abcdefgh";
  const render = (now: Date, theme: ThemeName = "navy-blue") =>
    renderInvoiceLinkEmail({
      branding: branding(theme),
      support,
      recipientName: "Olivia",
      invoice,
      expiresAt: new Date("2026-12-20T12:00:00.000Z"),
      link: invoiceLink,
      now,
      preferences: { preferences: "https://pay.example.test/communication/x", unsubscribe: null, topic: null },
    });

  it("names the business, the invoice, what is owing and the due date, with a Pay button and the written-out link", async () => {
    // 13 December, 23:00 in Sydney: due today, not overdue.
    const mail = await render(new Date("2026-12-13T12:00:00.000Z"));
    expect(mail.subject).toBe("Invoice ACME-1000-INV-023 from Acme & Sons <Plumbing>: $1,018.97 due Dec 13, 2026");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("ACME-1000-INV-023");
      expect(part).toContain("$1,018.97");
      expect(part).toContain("Dec 13, 2026");
      expect(part).toContain("Dec 20, 2026");
      expect(part).toContain("Coastal Builders Group (ACME-1000)");
      expect(part).toContain(invoiceLink);
    }
    expect(mail.text).toContain(
      "Acme & Sons <Plumbing> asks you to pay invoice ACME-1000-INV-023: $1,018.97 by Dec 13, 2026.",
    );
    expect(mail.text).toContain("Invoice total: $1,318.97");
    expect(mail.html).toContain("Acme &amp; Sons &lt;Plumbing&gt;");
    expect(mail.html).not.toContain("<Plumbing>");
    expect(mail.html).toContain("Pay now");
    expect(mail.html).toContain("If the button does not work, open this link:");
    // Branded as the host: its button colour.
    const { colors, surface } = themeTokens["navy-blue"];
    expect(mail.html).toContain(`background-color:${colors.button};color:${surface.buttonText}`);
    expect(mail.text).toContain("Email: accounts@acme.example");
    expect(mail.text).toContain("https://pay.example.test/communication/x");
  });

  it("names the card surcharge and the PayID by the invoice's number, and the ad-hoc email by the account's", async () => {
    const surcharged: HostBranding = {
      ...branding("navy-blue"),
      feeRules: { surcharge: { default: { bps: 150, fixedCents: 0 } }, lateFee: null, earlyDiscount: null },
    };
    const mail = await renderInvoiceLinkEmail({
      branding: surcharged,
      support,
      recipientName: "Olivia",
      invoice,
      expiresAt: new Date("2026-12-20T12:00:00.000Z"),
      link: invoiceLink,
      now: new Date("2026-12-01T00:00:00.000Z"),
      payId: "acme-1000@pay.example.test",
    });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("Paying by card adds 1.5%.");
      expect(part).toContain("put ACME-1000-INV-023 in the description");
    }
    const adhoc = await renderAdhocLinkEmail({
      branding: surcharged,
      support,
      recipientName: "Olivia",
      account: invoice.account,
      minCents: 10_00,
      maxCents: 500_00,
      expiresAt: new Date("2026-12-20T12:00:00.000Z"),
      link: invoiceLink,
      payId: "acme-1000@pay.example.test",
    });
    for (const part of [adhoc.text, adhoc.html]) {
      expect(part).toContain(
        "Paying by card adds 1.5%. A bank transfer to PayID acme-1000@pay.example.test adds nothing",
      );
      expect(part).toContain("put ACME-1000 in the description");
    }
  });

  it("says overdue once the due date has passed where the business is", async () => {
    // 14 December, 00:30 in Sydney (still the 13th in UTC).
    const mail = await render(new Date("2026-12-13T13:30:00.000Z"));
    expect(mail.subject).toBe(
      "Overdue: invoice ACME-1000-INV-023 from Acme & Sons <Plumbing>, $1,018.97 due Dec 13, 2026",
    );
    expect(mail.text).toContain("was due on Dec 13, 2026: $1,018.97 is still to pay.");
  });
});
