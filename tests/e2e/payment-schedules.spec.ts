import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_API_KEYS } from "../../db/seed/demo";
import { todayIn } from "../../app/lib/dates";
import { addDays } from "../../app/lib/instalments";
import { waitForMailVia } from "../support/mailbox";
import { scheduleCardId, schedulerAccount, schedulerEmail } from "../support/e2e-schedules";
import { ACME, expect, expectAccessible, hostCall, MAILBOX, PHONE, test, type HostRequest } from "./fixtures";

/**
 * Payment schedules (issue 15; decision 034), with JavaScript and without, on a 360 px phone:
 * the business proposes a schedule through the back-office API; the contact opens the emailed
 * link signed out, reviews every instalment, the fees and the authority, signs in ("Sign in to
 * accept" comes back to the proposal by its reference, never the token), adds a card from the
 * page and comes back, accepts with a saved card, and sees the schedule active; then changes the
 * way to pay, and pays the next instalment early. Refusals change nothing: another account's card
 * id posted in the form, and a second accept. Each project has a login, an account and cards of its own (tests/support/e2e-schedules.ts).
 */
const project = () => test.info().project.name;
const nextYear = String(new Date().getUTCFullYear() + 2);
const day = (n: number) => addDays(todayIn("Australia/Sydney", new Date()), n);

async function propose(hostRequest: HostRequest, body: Record<string, unknown>) {
  const response = await hostRequest.post(`${ACME}/api/back-office/payment-schedules`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data: { account: schedulerAccount(project()), contact: schedulerEmail(project()), send: true, ...body },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { schedule: { reference: string; id: string } }).schedule;
}

/** A form posted straight to the server with this browser's session: what a tampered page would send. */
async function postAs(page: Page, path: string, form: Record<string, string>) {
  const cookie = (await page.context().cookies(ACME)).map((c) => `${c.name}=${c.value}`).join("; ");
  const call = hostCall(`${ACME}${path}`, {
    "content-type": "application/x-www-form-urlencoded",
    origin: ACME,
    cookie,
  });
  return page.request.post(call.url, { headers: call.headers, form, maxRedirects: 0 });
}

test.describe("payment schedules", () => {
  // One login per project: its journeys take turns.
  test.describe.configure({ mode: "default" });
  test.use({ viewport: PHONE });

  test("accept a schedule with a saved card: from the email, signed in, then change the way to pay", async ({
    page,
    hostRequest,
  }) => {
    // One journey from the email to an early payment: a dozen pages, each checked at 360 px.
    test.setTimeout(120_000);
    const since = Date.now();
    const schedule = await propose(hostRequest, {
      amountCents: 900_00,
      description: "Deck and pergola, in three parts",
      instalments: { count: 3, frequency: "fortnightly", firstDate: day(4) },
    });
    const reference = schedule.reference;
    const mail = await waitForMailVia(MAILBOX, schedulerEmail(project()), { since, subject: new RegExp(reference) });
    expect(mail.subject).toContain("$900.00 in 3 instalments");
    const link = mail.links.find((l) => l.includes("/payment-schedule/acceptance/"))!;
    expect(link, "the email carries the link").toBeTruthy();
    expect(mail.text).toContain(link);

    // Signed out: the whole review, and a way to sign in.
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Payment schedule ${reference}`);
    const main = page.getByRole("main");
    await expect(main).toContainText("$900.00");
    await expect(main.getByRole("table").first().getByRole("row")).toHaveCount(4);
    await expect(main).toContainText("Visa, Mastercard");
    await expect(main).toContainText("3 days later, then 7 days after that");
    await expect(main.getByRole("button", { name: "Accept the payment schedule" })).toHaveCount(0);
    await expectAccessible(page);

    await main.getByRole("link", { name: "Sign in to accept" }).first().click();
    await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
    expect(decodeURIComponent(page.url())).toContain(`/payment-schedule/acceptance/${reference}`);
    expect(page.url()).not.toContain(link.split("/").pop()!);
    await page.getByLabel("Email").fill(schedulerEmail(project()));
    await page.getByLabel("Password").fill("Portal!2026");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/payment-schedule/acceptance/${reference}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Payment schedule ${reference}`);
    await expectAccessible(page);

    // Add a card from the page, and come back to it.
    await page.getByRole("link", { name: "Add a card" }).click();
    await expect(page).toHaveURL(/\/payment-methods\/cards\/new\?returnTo=/);
    await page.getByLabel("Card number").fill("5555 5555 5555 4444");
    await page.getByLabel("Name on card").fill("Sky Scheduler");
    await page.getByLabel("Month (MM)").fill("10");
    await page.getByLabel("Year (YY or YYYY)").fill(nextYear);
    await page.getByLabel("Security code (CVN)").fill("123");
    await page.getByLabel(/I authorise .* to keep this card/).check();
    await page.getByRole("button", { name: "Save card" }).click();
    await expect(page).toHaveURL(`${ACME}/payment-schedule/acceptance/${reference}`);
    await expect(page.getByLabel(/^Mastercard •••• 4444/)).toBeVisible();

    // Another account's card id in the form: refused on the field, nothing accepted.
    const tampered = await postAs(page, `/payment-schedule/acceptance/${reference}`, {
      intent: "accept",
      way: `card:${scheduleCardId(project(), "other")}`,
      authority: "on",
    });
    expect(tampered.status()).toBe(400);
    expect(await tampered.text()).toContain("Choose one of this account&#x27;s saved cards");

    // Accept with the card saved earlier, the authority ticked.
    await page.getByLabel(/^Visa •••• 1111/).check();
    await page.getByLabel("I give this authority and accept the payment schedule").check();
    await page.getByRole("button", { name: "Accept the payment schedule" }).click();
    await expect(page).toHaveURL(`${ACME}/customer/payment-schedule/${reference}?notice=accepted`);
    await expect(page.getByRole("status").filter({ hasText: "the payment schedule is accepted" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Active");
    await expect(page.getByRole("main")).toContainText("Instalments are charged to Visa •••• 1111.");
    await expectAccessible(page);

    // A second accept is refused, and the proposal's page now says it was accepted.
    const again = await postAs(page, `/payment-schedule/acceptance/${reference}`, {
      intent: "accept",
      way: `card:${scheduleCardId(project(), "own")}`,
      authority: "on",
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("This payment schedule has been accepted");
    await page.goto(`${ACME}/payment-schedule/acceptance/${reference}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment schedule has been accepted");
    await expect(page.getByRole("button", { name: "Accept the payment schedule" })).toHaveCount(0);
    // The emailed link says the same, to anyone holding it.
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment schedule has been accepted");

    // Change the way to pay future instalments.
    await page.goto(`${ACME}/customer/payment-schedule/${reference}`);
    await page.getByText("Change the way to pay").click();
    await page.getByLabel(/^Mastercard •••• 4444/).check();
    await page.getByRole("button", { name: "Use this way to pay" }).click();
    await expect(page).toHaveURL(`${ACME}/customer/payment-schedule/${reference}?notice=changed`);
    await expect(page.getByRole("main")).toContainText("Instalments are charged to Mastercard •••• 4444.");
    await expectAccessible(page);

    // Pay the next instalment now, by the schedule's way to pay (the Mastercard, with its 1.2% surcharge).
    await page.getByRole("button", { name: "Pay the next instalment now: $303.60" }).click();
    await expect(page).toHaveURL(
      new RegExp(`/customer/payment-schedule/${reference}\\?notice=paid&payment=PAY-[0-9A-F]{10}$`),
    );
    await expect(page.getByRole("status").filter({ hasText: "the instalment is paid" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Paid $300.00 of $900.00.");
    await expect(page.getByRole("button", { name: "Pay the next instalment now: $303.60" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "See the receipt." }).click();
    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
    await expect(page.getByRole("main")).toContainText("$303.60");

    // The list shows it, with what is left and the next instalment.
    await page.goto(`${ACME}/customer/payment-schedule`);
    const row = page.getByRole("row", { name: new RegExp(reference) });
    await expect(row).toContainText("$600.00 of $900.00");
    await expect(row).toContainText("Active");
    await expectAccessible(page);
  });

  test("a withdrawn proposal's link and another login's reference open nothing", async ({ page, hostRequest }) => {
    const since = Date.now();
    const schedule = await propose(hostRequest, {
      amountCents: 100_00,
      description: "One payment",
      instalments: [{ dueDate: day(2), amountCents: 100_00 }],
    });
    const mail = await waitForMailVia(MAILBOX, schedulerEmail(project()), {
      since,
      subject: new RegExp(schedule.reference),
    });
    const link = mail.links.find((l) => l.includes("/payment-schedule/acceptance/"))!;
    const withdrawn = await hostRequest.post(
      `${ACME}/api/back-office/payment-schedules/${schedule.reference}/withdraw`,
      { headers: { authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}` } },
    );
    expect(withdrawn.status()).toBe(200);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This proposal was withdrawn");
    await expect(page.getByRole("main")).not.toContainText("$100.00");
    await expectAccessible(page);
    // A tampered token: the one page for every link that does not check out.
    const response = await page.goto(`${link.slice(0, -3)}${link.endsWith("AAA") ? "BBB" : "AAA"}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");

    // Signed in as someone who may not act for the account: "Page not found".
    await page.goto(`${ACME}/auth/signin`);
    await page.getByLabel("Email").fill("olivia@coastal.example");
    await page.getByLabel("Password").fill("Portal!2026");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/`);
    const foreign = await page.goto(`${ACME}/customer/payment-schedule/${schedule.reference}`);
    expect(foreign?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  });
});
