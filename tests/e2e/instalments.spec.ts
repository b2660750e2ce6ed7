import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_API_KEYS } from "../../db/seed/demo";
import { startOfDayIn, todayIn } from "../../app/lib/dates";
import { addDays } from "../../app/lib/instalments";
import { waitForMailVia } from "../support/mailbox";
import { instalmentsAccount, instalmentsEmail } from "../support/e2e-instalments";
import { ACME, expect, expectAccessible, MAILBOX, PHONE, signInAs, test, type HostRequest } from "./fixtures";

/**
 * The instalment runner (issue 15; decision 035), with JavaScript and without, on a 360 px phone:
 * two schedules accepted on their pages with saved cards — one that approves, one saved from the
 * sandbox's declining test card (4000 0000 0000 9995) — then the portal's clock moved to the first
 * instalments' day (00:05 in Sydney) and the runner run now (the test clock, PORTAL_TEST_CLOCK=on).
 * The first instalment is charged once and its receipt says "The 1st of 2 instalments"; the declined one's
 * email says when it is tried again and carries a link, where it is paid with another card.
 */
const SYDNEY = "Australia/Sydney";
const project = () => test.info().project.name;
const nextYear = String(new Date().getUTCFullYear() + 2);
const day = (n: number) => addDays(todayIn(SYDNEY, new Date()), n);

async function propose(hostRequest: HostRequest, amounts: [string, number][]) {
  const response = await hostRequest.post(`${ACME}/api/back-office/payment-schedules`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data: {
      account: instalmentsAccount(project()),
      contact: instalmentsEmail(project()),
      amountCents: amounts.reduce((sum, [, cents]) => sum + cents, 0),
      description: "Instalment runner journey",
      instalments: amounts.map(([dueDate, amountCents]) => ({ dueDate, amountCents })),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { schedule: { reference: string } }).schedule.reference;
}

/** The test clock and the runner, as the suite's own calls (loopback, PORTAL_TEST_CLOCK=on). */
async function testCall(hostRequest: HostRequest, path: string, data: unknown = {}) {
  const response = await hostRequest.post(`${ACME}${path}`, {
    headers: { "content-type": "application/json" },
    data,
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function accept(page: Page, reference: string, card: string) {
  await page.goto(`${ACME}/payment-schedule/acceptance/${reference}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Payment schedule ${reference}`);
  await page.getByLabel(new RegExp(`^Visa •••• ${card}`)).check();
  await page.getByLabel("I give this authority and accept the payment schedule").check();
  await page.getByRole("button", { name: "Accept the payment schedule" }).click();
  await expect(page).toHaveURL(`${ACME}/customer/payment-schedule/${reference}?notice=accepted`);
}

async function fillCard(page: Page) {
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Name on card").fill("Ira Instalments");
  await page.getByLabel("Month (MM)").fill("12");
  await page.getByLabel("Year (YY or YYYY)").fill(nextYear);
  await page.getByLabel("Security code (CVN)").fill("123");
}

test.describe("the instalment runner", () => {
  test.use({ viewport: PHONE });

  test("instalments are charged on their day, once, with a receipt; a declined one is paid another way from its email", async ({
    page,
    hostRequest,
    jsEnabled,
  }) => {
    test.setTimeout(150_000);
    const email = instalmentsEmail(project());
    const since = Date.now();
    const first = day(1);
    const good = await propose(hostRequest, [
      [first, 50_00],
      [day(15), 50_00],
    ]);
    const bad = await propose(hostRequest, [
      [first, 40_00],
      [day(15), 40_00],
    ]);

    await signInAs(page, ACME, email, "Portal!2026");
    await accept(page, good, "4242");
    await accept(page, bad, "9995");
    await expect(page.getByRole("main")).toContainText("Instalments are charged to Visa •••• 9995.");
    await expect(page.getByRole("main")).toContainText("Paid $0.00 of $80.00.");

    // 00:05 on the first instalments' day in Sydney (the previous evening in UTC): the runner runs.
    const fiveAfterMidnight = new Date(startOfDayIn(SYDNEY, first).getTime() + 5 * 60_000).toISOString();
    await testCall(hostRequest, "/__test/clock", { notBefore: fiveAfterMidnight });
    await testCall(hostRequest, "/__test/run-due-instalments");
    // Again (another minute's sweep): nothing is charged twice.
    await testCall(hostRequest, "/__test/run-due-instalments");

    const receipt = await waitForMailVia(MAILBOX, email, { since, subject: /Receipt: the 1st of 2 instalments/ });
    expect(receipt.text).toContain(`The 1st of 2 instalments of payment schedule ${good}`);
    expect(receipt.html).toContain(`The 1st of 2 instalments of payment schedule ${good}`);
    await page.goto(`${ACME}/customer/payment-schedule/${good}`);
    await expect(page.getByRole("main")).toContainText("Paid $50.00 of $100.00.");
    await expectAccessible(page);

    const declined = await waitForMailVia(MAILBOX, email, {
      since,
      subject: new RegExp(`The 1st of 2 instalments to .* was declined \\(${bad}\\)`),
    });
    expect(declined.text).toContain("there were not enough funds");
    expect(declined.text).toMatch(/We will try again on /);
    const link = declined.links.find((l) => l.includes("/customer/payment-schedule/"));
    expect(link, "the email carries a link to pay another way").toMatch(
      new RegExp(`^${ACME.replace(/[.]/g, "\\.")}/customer/payment-schedule/[A-Za-z0-9_-]{20,}$`),
    );
    expect(declined.html).toContain("Pay it another way");

    // The link, signed out: the declined instalment, paid now with another card.
    await page.context().clearCookies();
    await page.goto(link!);
    await expect(page.getByRole("heading", { name: "Pay the 1st instalment another way" })).toBeVisible();
    await expectAccessible(page);
    await fillCard(page);
    if (jsEnabled) {
      // The live total prices the card typed: Pay says the exact total and pays at once.
      await expect(page.getByText("Card surcharge")).toBeVisible();
      await page.getByRole("button", { name: /^Pay \$/ }).click();
    } else {
      // Without JavaScript the button shows the instalment without a surcharge (no card yet). The
      // first tap charges nothing and refuses nothing: the card is held at the gateway and the exact
      // total confirmed, the card typed once (decision 071).
      await page.getByRole("button", { name: "Pay $40.00" }).click();
      const confirm = page.getByRole("region", { name: "Check and confirm" });
      await expect(confirm).toBeVisible();
      await expect(confirm).toContainText("Card surcharge (Visa");
      await expect(confirm).toContainText("Card: Visa •••• 4242");
      await expect(page.getByText(/The total is now/)).toHaveCount(0);
      // The card number and CVN are never sent back to the browser.
      await expect(page.getByLabel("Card number")).toHaveCount(0);
      const html = await page.content();
      expect(html).not.toMatch(/4242 ?4242 ?4242 ?4242/);
      expect(html).not.toContain('name="cvn"');
      await expectAccessible(page);
      await confirm.getByRole("button", { name: /^Confirm and pay \$40\.\d\d$/ }).click();
    }
    await expect(page.getByRole("main")).toContainText(/paid|Payment received/i);
    await expectAccessible(page);

    // Signed in again: the schedule shows it paid, the runner has nothing more to charge.
    await signInAs(page, ACME, email, "Portal!2026");
    await testCall(hostRequest, "/__test/run-due-instalments");
    await page.goto(`${ACME}/customer/payment-schedule/${bad}`);
    await expect(page.getByRole("main")).toContainText("Paid $40.00 of $80.00.");
    await expectAccessible(page);
  });

  test("the test routes are not for other callers' methods", async ({ hostRequest }) => {
    const response = await hostRequest.get(`${ACME}/__test/run-due-instalments`);
    expect(response.status()).toBe(404);
  });
});
