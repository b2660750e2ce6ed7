import { describe, expect, it } from "vitest";
import { feeRulesFromRow } from "~/lib/payment-calc";
import type { HostBranding } from "../host/host.server";
import { renderScheduleProposalEmail } from "./schedule-email.server";
import type { ScheduleView } from "./schedule-rows.server";

/** The proposal email (issue 15): the total and the button first, every instalment, text escaped, the link in both parts. */
const branding: HostBranding = {
  hostname: "pay.example.test",
  businessId: "b",
  theme: "navy-blue",
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
  adhoc: { enabled: false, minCents: 0, maxCents: 0 },
};

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

const schedule: ScheduleView = {
  id: "s",
  reference: "PS-AB12CD34",
  state: "proposed",
  status: "proposed",
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  contact: { id: "c", email: "olivia@coastal.example" },
  description: "Fit-out <script>alert(1)</script>\nin two parts",
  currency: "AUD",
  totalCents: 1_000_01,
  paidCents: 0,
  remainingCents: 1_000_01,
  invoices: [{ id: "v", number: "INV-7", amountCents: 1_000_01, balanceCents: 1_000_01 }],
  instalments: [instalment(1, "2026-12-14", 500_00), instalment(2, "2027-01-14", 500_01)],
  nextInstalment: null,
  wayToPay: null,
  acceptance: null,
  attempts: { total: 0, succeeded: 0, declined: 0, pending: 0, errors: 0 },
  // Open until midnight at the start of 15 December in Sydney: the last day to accept is the 14th.
  expiresAt: "2026-12-14T13:00:00.000Z",
  createdAt: "2026-12-01T00:00:00.000Z",
  sentAt: null,
  sendCount: 0,
  withdrawnAt: null,
  cancelledAt: null,
  completedAt: null,
  arrearsAt: null,
  today: "2026-12-01",
};

const link = "https://pay.example.test/payment-schedule/acceptance/SELECTORselector0123456789verifierVERIFIER01234567";

describe("the payment-schedule proposal email", () => {
  it("says what is proposed, lists every instalment, escapes the text and carries the link in both parts", async () => {
    const mail = await renderScheduleProposalEmail({
      branding,
      support: { supportEmail: "accounts@acme.example", supportPhone: "1300 226 300" },
      recipientName: "Olivia",
      schedule,
      link,
    });
    expect(mail.subject).toBe("Payment schedule from Acme & Sons <Plumbing>: $1,000.01 in 2 instalments (PS-AB12CD34)");
    expect(mail.text).toContain("Acme & Sons <Plumbing> proposes that you pay $1,000.01 in 2 instalments");
    expect(mail.text).toContain("1. Dec 14, 2026: $500.00");
    expect(mail.text).toContain("2. Jan 14, 2027: $500.01");
    expect(mail.text).toContain("Review and accept by: Dec 14, 2026");
    expect(mail.text).toContain("Invoices: INV-7");
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain("Acme &amp; Sons &lt;Plumbing&gt;");
    // The total and the button before the list of instalments (a phone's first screen).
    expect(mail.html.indexOf("Review and accept")).toBeLessThan(mail.html.indexOf("Instalments ("));
  });
});
