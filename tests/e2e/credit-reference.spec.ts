import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_TRADE_REFERENCE_TOKEN } from "../../db/seed/credit";
import { DEMO_API_KEYS } from "../../db/seed/demo";
import {
  creditApplicant,
  creditApplicantEmail,
  creditReference,
  creditRefereeEmail,
  type CreditJourney,
} from "../support/e2e-credit";
import { waitForMailVia } from "../support/mailbox";
import { ACME, expect, expectAccessible, KIWI, MAILBOX, PHONE, test, type HostRequest } from "./fixtures";

/**
 * Trade references and the business's decision (issue 17; decision 041), with JavaScript and
 * without, on a 360 × 740 phone. Each project has its own submitted applications
 * (tests/support/e2e-credit.ts); a referee's link comes from the real mailbox — the back office
 * emails it with a resend, through the running portal's API — and is opened in the browser, where
 * the referee makes a mistake, sees it in the summary and at the field, answers, and finds the
 * link spent. The business accepts through the API and the applicant's email arrives.
 */
const project = () => test.info().project.name;
const LINK_PATH = "/credit-trade-reference/";

async function backOffice(hostRequest: HostRequest, origin: string, pathname: string, data: unknown, status = 200) {
  const response = await hostRequest.post(`${origin}/api/back-office${pathname}`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS[new URL(origin).hostname]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data,
  });
  expect(response.status(), await response.text()).toBe(status);
  return response.json();
}

async function readApplication(hostRequest: HostRequest, reference: string) {
  const response = await hostRequest.get(`${ACME}/api/back-office/credit-applications/${reference}`, {
    headers: { authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).application;
}

/** The back office emails the referee a new link; the journey takes it from the mailbox. */
async function refereeLink(hostRequest: HostRequest, journey: CreditJourney, position = 1, origin = ACME) {
  const since = Date.now();
  const reference = creditReference(journey, project());
  const { delivery } = await backOffice(
    hostRequest,
    origin,
    `/credit-applications/${reference}/references/${position}/resend`,
    {},
  );
  expect(delivery.sent).toBe(true);
  const mail = await waitForMailVia(MAILBOX, creditRefereeEmail(journey, project(), position), {
    since,
    subject: new RegExp(reference),
  });
  const link = mail.links.find((l) => l.includes(LINK_PATH));
  expect(link, "the email carries the link").toBeTruthy();
  expect(mail.text).toContain(link!);
  expect(mail.text).toContain(creditApplicant(journey, project()));
  return link!;
}

const group = (page: Page, name: RegExp) => page.getByRole("group", { name });

test.describe("trade references", () => {
  test.use({ viewport: PHONE });

  test("email → the referee's page → a mistake shown in the summary and at the field → answered → thank you; the link then says when it was answered", async ({
    page,
    hostRequest,
  }) => {
    // A long journey (about 20 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    const applicant = creditApplicant("referee", project());
    const link = await refereeLink(hostRequest, "referee");
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin");
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Trade reference for ${applicant}`);
    const main = page.getByRole("main");
    await expect(main.getByText("Acme Plumbing Supplies", { exact: true })).toBeVisible();
    await expect(main.getByText(creditReference("referee", project()), { exact: true })).toBeVisible();
    await expectAccessible(page);

    // The follow-up field of a choice shows only once that choice is made (CSS :has, no script).
    await group(page, /How long have you traded/)
      .getByLabel("1 to 3 years")
      .check();
    await expect(page.getByLabel("Your terms")).toBeHidden();
    await group(page, /What payment terms/)
      .getByLabel("Other terms")
      .check();
    await expect(page.getByLabel("Your terms")).toBeVisible();
    await page.getByLabel("Their credit limit with you").fill("lots");
    await page.getByRole("button", { name: "Send reference" }).click();

    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary).toBeVisible();
    await expect(summary.getByRole("link")).toHaveText([
      "Describe the terms you give them.",
      "Enter an amount like 5,000 or 5000.00.",
      "Choose how they pay you.",
      "Say whether a payment was dishonoured or you took collection action.",
      "Say whether you would recommend them.",
      "Type your full name.",
      "Type your position.",
    ]);
    if (project() === "js") {
      // Not reloaded: the reader is taken to the summary, as a reload would.
      await expect(page.locator(":focus")).toContainText("There is a problem");
    }
    // A question left unanswered marks its group invalid, described by its message.
    const behaviour = group(page, /How do they pay you/);
    await expect(behaviour).toHaveAttribute("aria-invalid", "true");
    await expect(behaviour).toHaveAccessibleDescription("Choose how they pay you.");
    await expect(group(page, /How long have you traded/)).not.toHaveAttribute("aria-invalid");
    // What was typed is kept, and each field says its own problem.
    await expect(page.getByLabel("Their credit limit with you")).toHaveValue("lots");
    await expect(page.getByLabel("Their credit limit with you")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Their credit limit with you")).toHaveAccessibleDescription(
      /Enter an amount like 5,000 or 5000\.00\./,
    );
    await expect(group(page, /How long have you traded/).getByLabel("1 to 3 years")).toBeChecked();
    await expectAccessible(page);
    await summary.getByRole("link", { name: "Enter an amount like 5,000 or 5000.00." }).click();
    await expect(page).toHaveURL(/#creditLimit$/);

    await page.getByLabel("Your terms").fill("60 days");
    await page.getByLabel("Their credit limit with you").fill("15,000");
    await page.getByLabel(/^Highest amount they owed you/).fill("12,400.50");
    await group(page, /How do they pay you/)
      .getByLabel("Usually on time")
      .check();
    await group(page, /dishonoured/)
      .getByLabel("No")
      .check();
    await group(page, /Would you recommend/)
      .getByLabel("Yes")
      .check();
    await page.getByLabel(/^Anything else/).fill("<b>Orders weekly</b> & pays on the 20th.");
    await page.getByLabel("Your full name").fill("Grace Liu");
    await page.getByLabel("Your position").fill("Credit manager");
    await page.getByRole("button", { name: "Send reference" }).click();

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you");
    await expect(page.getByText(`Your reference for ${applicant} was sent to Acme Plumbing Supplies`)).toBeVisible();
    await expectAccessible(page);

    // The business reads the answer as stored: money in cents, markup as text.
    const application = await readApplication(hostRequest, creditReference("referee", project()));
    expect(application.references[0]).toMatchObject({
      position: 1,
      state: "answered",
      answeredByName: "Grace Liu",
      answer: {
        tradingLength: "1-to-3-years",
        terms: "other",
        termsOther: "60 days",
        creditLimitCents: 1_500_000,
        highestBalanceCents: 1_240_050,
        paymentBehaviour: "usually-on-time",
        dishonours: false,
        recommend: true,
        comments: "<b>Orders weekly</b> & pays on the 20th.",
        position: "Credit manager",
      },
    });

    // Opened at least once (a form shown again with its errors without JavaScript is a view too).
    expect(application.references[0].openCount).toBeGreaterThanOrEqual(1);

    // The link again: answered, with the date; no form, nothing to change.
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This reference has been answered");
    await expect(page.getByText(/was answered on [A-Z][a-z]{2} \d{1,2}, \d{4}\./)).toBeVisible();
    await expect(page.getByRole("button", { name: "Send reference" })).toHaveCount(0);
    await expectAccessible(page);

    // The same link with one character changed opens nothing.
    const tampered = `${link.slice(0, -1)}${link.endsWith("A") ? "B" : "A"}`;
    const invalid = await page.goto(tampered);
    expect(invalid?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");
  });

  test("the business accepts through the API: the applicant's email arrives; a second decision is refused; the referee's link is no longer needed", async ({
    page,
    hostRequest,
  }) => {
    const reference = creditReference("decision", project());
    const link = await refereeLink(hostRequest, "decision", 2);
    const since = Date.now();
    const { application, delivery } = await backOffice(hostRequest, ACME, `/credit-applications/${reference}/accept`, {
      approvedLimitCents: 1_800_000,
      note: "Your account is open: terms are 30 days from the end of the month.",
    });
    expect(application).toMatchObject({ status: "accepted", decision: { approvedLimitCents: 1_800_000 } });
    expect(delivery.sent).toBe(true);
    const mail = await waitForMailVia(MAILBOX, creditApplicantEmail("decision", project()), { since });
    expect(mail.subject).toContain(`Trade account approved: ${creditApplicant("decision", project())} (${reference})`);
    expect(mail.text).toContain("Approved credit limit: $18,000.00");
    expect(mail.text).toContain("Your account is open: terms are 30 days from the end of the month.");
    const second = await backOffice(
      hostRequest,
      ACME,
      `/credit-applications/${reference}/decline`,
      { reason: "No." },
      409,
    );
    expect(second.error.code).toBe("conflict");

    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This reference is no longer needed");
    await expect(page.getByText(/accepted|declined/)).toHaveCount(0);
    await expectAccessible(page);
  });

  test("the bare path asks for the link in the email", async ({ page }) => {
    const response = await page.goto(`${ACME}/credit-trade-reference`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Give a trade reference");
    await expect(page.getByText(/open the link in the email Acme Plumbing Supplies sent you/)).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("screenshots of the referee's page", () => {
  for (const viewport of [
    { name: "360", width: 360, height: 740 },
    { name: "1280", width: 1280, height: 800 },
  ]) {
    test(`both brands at ${viewport.name} px`, async ({ page, hostRequest }, testInfo) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const kiwiLink =
        viewport.name === "360"
          ? await refereeLink(hostRequest, "kiwi", 1, KIWI)
          : await refereeLink(hostRequest, "kiwi", 2, KIWI);
      for (const [name, url] of [
        ["acme", `${ACME}${LINK_PATH}${DEMO_TRADE_REFERENCE_TOKEN}`],
        ["kiwi", kiwiLink],
      ] as const) {
        await page.goto(url);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Trade reference for /);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        const file = testInfo.outputPath(`referee-${name}-${viewport.name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(`referee-${name}-${viewport.name}`, { path: file, contentType: "image/png" });
        // With the errors shown, as a referee sees them after an empty send.
        await page.getByRole("button", { name: "Send reference" }).click();
        await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toBeVisible();
        const errors = testInfo.outputPath(`referee-${name}-${viewport.name}-errors.png`);
        await page.screenshot({ path: errors, fullPage: true });
        await testInfo.attach(`referee-${name}-${viewport.name}-errors`, { path: errors, contentType: "image/png" });
      }
    });
  }
});
