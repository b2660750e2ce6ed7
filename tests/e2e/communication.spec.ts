import { randomUUID } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { DEMO_API_KEYS, DEMO_PASSWORD } from "../../db/seed/demo";
import { waitForMailVia } from "../support/mailbox";
import { communicationAccount, communicationEmail, type CommunicationRole } from "../support/e2e-communication";
import { ACME, expect, expectAccessible, MAILBOX, PHONE, signInAs, test, type HostRequest } from "./fixtures";

/**
 * The preference centre (issue 17; decision 039), with JavaScript and without, on a 360 × 740
 * phone: a payment reminder arrives (sent through the back-office API) → its unsubscribe link →
 * one click → the preferences show reminders off → the next reminder skips this contact; the
 * RFC 8058 POST a mail provider makes (Playwright's request API: no cookie, no Origin); tampered
 * links; and a signed-in contact changing their preferences from the portal's menu. Each project
 * has its own contacts (tests/support/e2e-communication.ts).
 */
const project = () => test.info().project.name;
const email = (role: CommunicationRole) => communicationEmail(role, project());
const KEY = { authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}` };

/** A stated-amount request to one contact, sent at once. */
async function sendRequest(hostRequest: HostRequest, role: CommunicationRole) {
  const response = await hostRequest.post(`${ACME}/api/back-office/payment-requests`, {
    headers: { ...KEY, "idempotency-key": randomUUID(), "content-type": "application/json" },
    data: {
      account: communicationAccount(role, project()),
      amountCents: 12_500,
      description: "Site materials",
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      recipients: [email(role)],
      send: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { request: { reference: string } }).request.reference;
}

type RemindAnswer = {
  sent: { email: string }[];
  skipped: { email: string; reason: string }[];
  failed: { email: string }[];
};

async function remind(hostRequest: HostRequest, reference: string): Promise<RemindAnswer> {
  const response = await hostRequest.post(`${ACME}/api/back-office/payment-requests/${reference}/remind`, {
    headers: { ...KEY, "idempotency-key": randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as RemindAnswer;
}

type Preferences = {
  preferences: Record<string, Record<string, boolean>>;
  history: { topic: string; channel: string; enabled: boolean; via: string }[];
};

async function preferencesOf(hostRequest: HostRequest, role: CommunicationRole): Promise<Preferences> {
  const response = await hostRequest.get(`${ACME}/api/back-office/contacts/${email(role)}/communication`, {
    headers: KEY,
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Preferences;
}

/** The reminder email for `reference`, its List-Unsubscribe URL and its footer's preferences link. */
async function reminderMail(role: CommunicationRole, reference: string, since: number) {
  const mail = await waitForMailVia(MAILBOX, email(role), { since, subject: new RegExp(`^Reminder: .*${reference}`) });
  const header = mail.headers["list-unsubscribe"] ?? "";
  expect(header).toMatch(/^<http:\/\/acme\.localhost:\d+\/communication\/unsubscribe\?token=[\w.-]+>$/);
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const unsubscribe = header.slice(1, -1);
  // The same page is the footer's "Unsubscribe from payment reminders", in both parts.
  expect(mail.links).toContain(unsubscribe);
  expect(mail.text).toContain(`Unsubscribe from payment reminders: ${unsubscribe}`);
  const preferences = mail.links.find((l) => /\/communication\/[\w-]+\.prefs\./.test(l));
  expect(preferences, "the footer links to the contact's preferences").toBeTruthy();
  return { mail, unsubscribe, preferences: preferences! };
}

/** A full-page screenshot at 360 and at 1280 px, attached to the results. */
async function keep(page: Page, testInfo: TestInfo, name: string) {
  const viewport = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? PHONE.height : 800 });
    const file = testInfo.outputPath(`${name}-${project()}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name} at ${width} px`, { path: file, contentType: "image/png" });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  if (viewport) await page.setViewportSize(viewport);
}

/** One character of a token changed: the signature no longer checks out. */
const tamper = (link: string) => {
  const at = link.length - 3;
  return `${link.slice(0, at)}${link[at] === "A" ? "B" : "A"}${link.slice(at + 1)}`;
};

test.describe("communication preferences", () => {
  test.use({ viewport: PHONE });

  test("a reminder email → its unsubscribe link → one click → reminders off → the next reminder skips me; tampered links change nothing", async ({
    page,
    hostRequest,
  }, testInfo) => {
    const since = Date.now();
    const reference = await sendRequest(hostRequest, "subscriber");
    const first = await remind(hostRequest, reference);
    expect(first).toEqual({
      request: expect.anything(),
      sent: [{ email: email("subscriber") }],
      skipped: [],
      failed: [],
    });
    const { mail, unsubscribe, preferences } = await reminderMail("subscriber", reference, since);

    // The email as a phone shows it: what is owing, Pay now, and the footer's two links.
    await page.setContent(mail.html!);
    await expect(page.getByRole("heading", { name: "Payment reminder" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Pay now" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Unsubscribe from payment reminders" })).toHaveAttribute(
      "href",
      unsubscribe,
    );
    await expect(page.getByRole("link", { name: "Choose which emails you get" })).toHaveAttribute("href", preferences);
    await keep(page, testInfo, "reminder-email");

    // Tampered links: one clear page, nothing changed.
    for (const bad of [tamper(unsubscribe), tamper(preferences)]) {
      const response = await page.goto(bad);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");
      await expect(page.getByText("Nothing was changed.")).toBeVisible();
    }
    await expectAccessible(page);
    expect((await preferencesOf(hostRequest, "subscriber")).history).toEqual([]);

    // Opening the link changes nothing (mail scanners open links): one button does.
    const opened = await page.goto(unsubscribe);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()["referrer-policy"]).toBe("strict-origin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe from payment reminders?");
    await expect(page.getByText(`${email("subscriber")} will no longer get payment reminders`)).toBeVisible();
    // A link page: nothing of a login, no menu.
    await expect(page.getByRole("banner").getByText("Menu", { exact: true })).toHaveCount(0);
    await expectAccessible(page);
    await keep(page, testInfo, "unsubscribe-confirm");
    expect((await preferencesOf(hostRequest, "subscriber")).preferences.reminders).toEqual({ email: true });

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're unsubscribed from payment reminders");
    await expect(page.getByText("Receipts and other messages about your payments are still sent.")).toBeVisible();
    await expectAccessible(page);
    await keep(page, testInfo, "unsubscribed");

    // All preferences, from the same page: reminders are off, and the change is on record.
    await page.getByRole("link", { name: "Choose all your communication preferences" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Communication preferences");
    const reminders = page.getByRole("group", { name: "Payment reminders" });
    await expect(reminders.getByLabel("By email")).not.toBeChecked();
    await expect(page.getByRole("group", { name: "Statements" }).getByLabel("By email")).toBeChecked();
    await expect(page.getByRole("heading", { name: "Receipts: always sent" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Payment reminders, by email: off" })).toContainText(
      "changed from a link in an email",
    );
    await expectAccessible(page);
    await keep(page, testInfo, "preferences-by-link");

    const stored = await preferencesOf(hostRequest, "subscriber");
    expect(stored.preferences.reminders).toEqual({ email: false });
    expect(stored.history).toEqual([expect.objectContaining({ topic: "reminders", enabled: false, via: "link" })]);

    // The next reminder skips this contact, and no mail arrives.
    const second = await remind(hostRequest, reference);
    expect(second.sent).toEqual([]);
    expect(second.skipped).toEqual([{ email: email("subscriber"), reason: "opted-out" }]);
  });

  test("RFC 8058: the mail provider's POST of List-Unsubscribe=One-Click, with no cookie and no Origin, turns off that topic only, once", async ({
    hostRequest,
  }) => {
    const since = Date.now();
    const reference = await sendRequest(hostRequest, "oneclick");
    await remind(hostRequest, reference);
    const { unsubscribe } = await reminderMail("oneclick", reference, since);
    const before = await preferencesOf(hostRequest, "oneclick");

    // A scanner's GET changes nothing.
    expect((await hostRequest.get(unsubscribe)).status()).toBe(200);
    expect(await preferencesOf(hostRequest, "oneclick")).toEqual(before);

    for (let click = 0; click < 2; click++) {
      const response = await hostRequest.post(unsubscribe, { form: { "List-Unsubscribe": "One-Click" } });
      expect(response.status()).toBe(200);
    }
    const after = await preferencesOf(hostRequest, "oneclick");
    expect(after.preferences).toEqual({ ...before.preferences, reminders: { email: false } });
    expect(after.history).toEqual([expect.objectContaining({ topic: "reminders", enabled: false, via: "one-click" })]);

    // A tampered URL: refused, nothing changed.
    const tampered = await hostRequest.post(tamper(unsubscribe), { form: { "List-Unsubscribe": "One-Click" } });
    expect(tampered.status()).toBe(404);
    expect(await preferencesOf(hostRequest, "oneclick")).toEqual(after);
  });

  test("news and offers: turned off from an email's link, but a link cannot turn them back on — it says to sign in", async ({
    page,
    context,
    hostRequest,
  }, testInfo) => {
    // The business records the contact's yes (given on a paper form).
    const recorded = await hostRequest.post(`${ACME}/api/back-office/contacts/${email("offers")}/communication`, {
      headers: { ...KEY, "idempotency-key": randomUUID(), "content-type": "application/json" },
      data: { preferences: { marketing: { email: true } }, note: "Ticked the box on our account form" },
    });
    expect(recorded.status(), await recorded.text()).toBe(200);
    // Any email to the contact carries the preferences link: here, a payment request's.
    const since = Date.now();
    const reference = await sendRequest(hostRequest, "offers");
    const mail = await waitForMailVia(MAILBOX, email("offers"), { since, subject: new RegExp(reference) });
    const link = mail.links.find((l) => /\/communication\/[\w-]+\.prefs\./.test(l))!;
    expect(link, "the footer links to the contact's preferences").toBeTruthy();

    // Two tabs on the link's page, both showing news and offers ticked.
    await page.goto(link);
    const stale = await context.newPage();
    await stale.goto(link);
    const offers = (on: Page) => on.getByRole("group", { name: "News and offers" });
    await expect(offers(stale).getByLabel("By email")).toBeChecked();

    // In one, the contact turns them off: a link may.
    await offers(page).getByLabel("By email").uncheck();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your preferences are saved." })).toBeVisible();
    // Off now: no box, but how to sign in to choose them.
    await expect(offers(page).getByRole("checkbox")).toHaveCount(0);
    await expect(offers(page)).toContainText(
      "You don't get news and offers. A link in an email can only turn them off: to get them, sign in and tick the box.",
    );
    await expect(offers(page).getByRole("link", { name: "Sign in to choose news and offers" })).toHaveAttribute(
      "href",
      "/auth/signin?callbackUrl=%2Fcommunication",
    );
    await expect(page.getByText(/questions Acme Plumbing Supplies asks you to answer/)).toBeVisible();
    await expectAccessible(page);
    await keep(page, testInfo, "offers-by-link");

    // The other tab, loaded while they were on, saves with the box still ticked: refused, nothing changed.
    await stale.getByRole("button", { name: "Save preferences" }).click();
    const summary = stale.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary).toBeVisible();
    await expect(summary.getByRole("link")).toHaveText(
      "A link in an email can't turn on news and offers, so nothing was changed. Sign in to choose them.",
    );
    if (project() === "js") {
      // The page was not reloaded: the reader is taken to the summary, as a reload would.
      await expect(stale.locator(":focus")).toContainText("There is a problem");
    }
    await expect(offers(stale)).toHaveAttribute("aria-invalid", "true");
    await expect(offers(stale)).toHaveAccessibleDescription(/A link in an email can't turn on news and offers/);
    await expect(offers(stale).getByRole("checkbox")).toHaveCount(0);
    await expectAccessible(stale);
    await keep(stale, testInfo, "offers-refused");
    await summary.getByRole("link").click();
    await expect(stale).toHaveURL(/#topic-marketing$/);

    const stored = await preferencesOf(hostRequest, "offers");
    expect(stored.preferences.marketing).toEqual({ email: false });
    expect(stored.history.map((h) => `${h.topic}.${h.channel}=${h.enabled}/${h.via}`)).toEqual([
      "marketing.email=false/link",
      "marketing.email=true/api",
    ]);
  });

  test("a signed-in contact changes their preferences from the portal menu", async ({
    page,
    hostRequest,
  }, testInfo) => {
    await signInAs(page, ACME, email("chooser"), DEMO_PASSWORD);
    const banner = page.getByRole("banner");
    await banner.getByText("Menu", { exact: true }).click();
    await banner.getByRole("link", { name: "Communication preferences" }).click();
    await expect(page).toHaveURL(`${ACME}/communication`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Communication preferences");
    await expect(page.getByText(`These choices are for ${email("chooser")}.`)).toBeVisible();
    await expect(page.getByText("No changes yet: these are the usual settings.")).toBeVisible();
    const marketing = page.getByRole("group", { name: "News and offers" }).getByLabel("By email");
    await expect(marketing).not.toBeChecked();
    await expectAccessible(page);
    await keep(page, testInfo, "preferences-signed-in");

    await page.getByRole("group", { name: "Statements" }).getByLabel("By post").check();
    await page.getByRole("group", { name: "Invoices" }).getByLabel("By email").uncheck();
    await marketing.check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your preferences are saved." })).toBeVisible();
    await expect(page).toHaveURL(`${ACME}/communication?saved=1`);
    await expect(page.getByRole("group", { name: "Statements" }).getByLabel("By post")).toBeChecked();
    await expect(page.getByRole("group", { name: "Invoices" }).getByLabel("By email")).not.toBeChecked();
    await expect(marketing).toBeChecked();
    await expect(page.getByRole("listitem").filter({ hasText: "News and offers, by email: on" })).toContainText(
      "changed here, signed in",
    );
    await expectAccessible(page);
    await keep(page, testInfo, "preferences-saved");

    const stored = await preferencesOf(hostRequest, "chooser");
    expect(stored.preferences).toEqual({
      statements: { email: true, post: true },
      invoices: { email: false, post: false },
      reminders: { email: true },
      marketing: { email: true },
    });
    expect(stored.history.map((h) => `${h.topic}.${h.channel}=${h.enabled}/${h.via}`).sort()).toEqual([
      "invoices.email=false/portal",
      "marketing.email=true/portal",
      "statements.post=true/portal",
    ]);
  });
});
