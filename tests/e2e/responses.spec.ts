import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { DEMO_API_KEYS } from "../../db/seed/demo";
import { waitForMailVia } from "../support/mailbox";
import { responderAccountNumber, responderEmail } from "../support/e2e-responses";
import { ACME, E2E_DATA_DIR, expect, expectAccessible, KIWI, MAILBOX, PHONE, test, type HostRequest } from "./fixtures";

/**
 * Response requests from the contact's side (issue 17; decisions 031 and 040), with JavaScript
 * and without, on a 360 × 740 phone. Each journey asks the project's own contact
 * (tests/support/e2e-responses.ts) a question through the back-office API of the running portal;
 * the link comes from the real mailbox; the answer is read back through the API. One journey per
 * kind, and the links that no longer open a request.
 */
const project = () => test.info().project.name;
const email = () => responderEmail(project());
const account = () => responderAccountNumber(project());
const LINK_PATH = "/response/";
const KEY = DEMO_API_KEYS["acme.localhost"]!;

/**
 * A call of the back-office API, on a connection of its own: the journeys call it between browser
 * steps that take longer than the server's keep-alive, and a socket kept for reuse may be closed
 * by the server just as the next call is written to it (a reset, not an answer).
 */
async function backOffice(hostRequest: HostRequest, pathname: string, data?: unknown, status = 201) {
  const response = await hostRequest.post(`${ACME}/api/back-office${pathname}`, {
    headers: {
      connection: "close",
      authorization: `Bearer ${KEY}`,
      "idempotency-key": randomUUID(),
      ...(data === undefined ? {} : { "content-type": "application/json" }),
    },
    data,
  });
  expect(response.status(), await response.text()).toBe(status);
  return response.json();
}

async function readRequest(hostRequest: HostRequest, reference: string) {
  const response = await hostRequest.get(`${ACME}/api/back-office/response-requests/${reference}`, {
    headers: { connection: "close", authorization: `Bearer ${KEY}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).request;
}

/** Asks the project's contact, through the API; the link from the mailbox. */
async function ask(hostRequest: HostRequest, body: Record<string, unknown>) {
  const since = Date.now();
  const { request, delivery } = await backOffice(hostRequest, "/response-requests", {
    account: account(),
    contact: email(),
    ...body,
  });
  expect(delivery.sent).toBe(true);
  const mail = await waitForMailVia(MAILBOX, email(), { since, subject: new RegExp(request.reference) });
  const link = mail.links.find((l) => l.includes(LINK_PATH));
  expect(link, "the email carries the link").toBeTruthy();
  expect(mail.text).toContain(link!);
  return { reference: request.reference as string, link: link!, mail };
}

/** A statement date of this journey's own: a statement is asked once per date. */
const pastDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** The question and the action both in a phone's first screen (360 × 740). */
async function inFirstScreen(page: Page, ...locators: Locator[]) {
  for (const locator of locators) {
    const box = await locator.boundingBox();
    expect(box, "on the page").not.toBeNull();
    expect(box!.y + box!.height, `within the first ${PHONE.height} px`).toBeLessThanOrEqual(PHONE.height);
  }
}

/** Full-page screenshots at 360 and 1280 px, kept with the test's results. */
async function keep(page: Page, testInfo: TestInfo, name: string) {
  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    const file = testInfo.outputPath(`${name}-${viewport.width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name} at ${viewport.width} px`, { path: file, contentType: "image/png" });
  }
  await page.setViewportSize(PHONE);
}

test.describe("responses", () => {
  test.use({ viewport: PHONE });

  test("a delivery address: API → email → link → a mistake, then a corrected address → what was recorded → the link shows it from then on", async ({
    page,
    hostRequest,
  }, testInfo) => {
    const { reference, link, mail } = await ask(hostRequest, {
      kind: "delivery-address",
      address: { line1: "12 Old Rd", locality: "Penrith", state: "NSW", postcode: "2750", country: "AU" },
      message: "Our trucks now leave from Penrith.",
    });
    expect(mail.subject).toBe(`Please confirm your delivery address with Acme Plumbing Supplies (${reference})`);
    expect(mail.text).toContain("Delivery address: 12 Old Rd, PENRITH NSW 2750, Australia");
    // The button before the facts: the question and the action above the fold.
    expect(mail.html!.indexOf("Confirm or correct the address")).toBeLessThan(mail.html!.indexOf("12 Old Rd"));

    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin");
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Is this your delivery address?");
    await expect(page.getByTestId("stated-address")).toContainText("PENRITH NSW 2750");
    await expect(page.getByRole("region", { name: "A note from Acme Plumbing Supplies" })).toContainText(
      "Our trucks now leave from Penrith.",
    );
    // A link page shows the brand only: no portal menu.
    await expect(page.getByRole("banner").getByText("Menu", { exact: true })).toHaveCount(0);
    const corrected = page.getByLabel("No, deliver to a different address");
    await inFirstScreen(page, heading, corrected);
    await expectAccessible(page);
    await keep(page, testInfo, "address-question");

    // The address fields show once "No" is chosen (CSS alone); a postcode of another state is refused.
    await expect(page.getByLabel("Street address")).toBeHidden();
    await corrected.check();
    await page.getByLabel("Street address").fill("Unit 4, 7 <b>Hay</b> St");
    await page.getByLabel("Suburb, town or city").fill("Perth");
    await page.getByLabel("State or territory (Australia only)").selectOption("WA");
    await page.getByLabel("Postcode").fill("2000");
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(page.getByRole("alert")).toContainText("There is a problem");
    if (project() === "js") {
      // Not reloaded: the reader is taken to the summary, as a reload would.
      await expect(page.locator(":focus")).toContainText("There is a problem");
    }
    await expect(page.getByLabel("Postcode")).toHaveAccessibleDescription(
      "That postcode is not in the state or territory chosen.",
    );
    await expect(page.getByLabel("Street address")).toHaveValue("Unit 4, 7 <b>Hay</b> St");
    await expect(page.getByLabel("No, deliver to a different address")).toBeChecked();
    await expectAccessible(page);
    await keep(page, testInfo, "address-errors");
    expect((await readRequest(hostRequest, reference)).answer).toBeNull();

    await page.getByLabel("Postcode").fill("6000");
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(page).toHaveURL(`${ACME}${LINK_PATH}complete/${link.split(LINK_PATH)[1]}`);
    await expect(heading).toHaveText("Your answer is recorded");
    const recorded = page.getByTestId("recorded-answer");
    await expect(recorded).toContainText("No, deliver to a different address");
    await expect(recorded).toContainText("Unit 4, 7 <b>Hay</b> St");
    await expect(recorded).toContainText("PERTH WA 6000");
    // When and who, not the network address it came from (the record and the API keep that).
    await expect(recorded).not.toContainText("127.0.0.1");
    await expect(recorded).not.toContainText("From address");
    await expect(page.getByRole("region", { name: "What Acme Plumbing Supplies asked" })).toContainText(
      "PENRITH NSW 2750",
    );
    await expectAccessible(page);
    await keep(page, testInfo, "address-complete");

    // The API has the same answer, with who, when and from where.
    const stored = await readRequest(hostRequest, reference);
    expect(stored.state).toBe("answered");
    expect(stored.answer).toMatchObject({
      choice: "corrected",
      address: { line1: "Unit 4, 7 <b>Hay</b> St", locality: "Perth", state: "WA", postcode: "6000", country: "AU" },
      contact: { email: email() },
    });
    expect(stored.answer.clientAddress).toMatch(/127\.0\.0\.1/);

    // The link from now on shows what was recorded.
    await page.goto(link);
    await expect(page).toHaveURL(/\/response\/complete\//);
    await expect(heading).toHaveText("Your answer is recorded");

    // The token never went into the server's log whole.
    const token = link.split(LINK_PATH)[1]!;
    const log = fs.readFileSync(path.join(E2E_DATA_DIR, "server.log"), "utf8");
    expect(log).toContain(`${LINK_PATH}${token.slice(0, 6)}…`);
    expect(log).not.toContain(token.slice(0, 12));
  });

  test("a statement: acknowledged with a typed name; a second tab's answer records nothing new; the business is told", async ({
    page,
    context,
    hostRequest,
  }, testInfo) => {
    // A long journey (two tabs, about 16 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    const { reference, link } = await ask(hostRequest, {
      kind: "statement",
      statement: { periodStart: pastDay(60), periodEnd: pastDay(31), closingBalanceCents: 1_234_56 },
    });
    await page.goto(link);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Please acknowledge your statement");
    await expect(page.getByRole("region", { name: "The statement" })).toContainText("$1,234.56 owing");
    await inFirstScreen(page, heading, page.getByLabel("I acknowledge this statement"));
    await expectAccessible(page);
    await keep(page, testInfo, "statement-question");
    const other = await context.newPage();
    await other.goto(link);

    // No choice: the group is marked invalid (ARIA allows it on a group, not on a radio) and described by the
    // message; the summary links to the first radio.
    await page.getByLabel("Your full name").fill("Robin Responder");
    await page.getByRole("button", { name: "Send my answer" }).click();
    const choices = page.getByRole("group", { name: "Your answer", exact: true });
    await expect(choices).toHaveAttribute("aria-invalid", "true");
    await expect(choices).toHaveAccessibleDescription("Choose an answer.");
    if (project() === "js") await expect(page.locator(":focus")).toContainText("There is a problem");
    await expect(page.getByLabel("Your full name")).toHaveValue("Robin Responder");
    await expectAccessible(page);
    await page.getByRole("alert").getByRole("link", { name: "Choose an answer." }).click();
    await expect(page).toHaveURL(/#choice-acknowledged$/);
    await page.getByLabel("Your full name").fill("");

    // Without the name: told at the field, nothing recorded.
    await page.getByLabel("I acknowledge this statement").check();
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(page.getByLabel("Your full name")).toHaveAccessibleDescription(/Type your full name\./);
    await expect(page.getByRole("alert").getByRole("link", { name: "Type your full name." })).toBeVisible();
    await page.getByLabel("Your full name").fill("Robin Responder");
    const since = Date.now();
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(heading).toHaveText("Your answer is recorded");
    await expect(page.getByTestId("recorded-answer")).toContainText("I acknowledge this statement");
    await expect(page.getByTestId("recorded-answer")).toContainText("Robin Responder");
    await expectAccessible(page);
    await keep(page, testInfo, "statement-complete");
    const told = await waitForMailVia(MAILBOX, "accounts@acme.example", {
      since,
      subject: new RegExp(`${reference} answered`),
    });
    expect(told.text).toContain("Name typed: Robin Responder");

    // The tab opened earlier still shows the form; its answer finds the first one and changes nothing.
    await other.getByLabel("Something is wrong with it").check();
    await other.getByLabel("What is wrong?").fill("A payment is missing.");
    await other.getByLabel("Your full name").fill("Robin Responder");
    await other.getByRole("button", { name: "Send my answer" }).click();
    await expect(other).toHaveURL(/\/response\/complete\/[^?]+\?notice=already$/);
    await expect(other.getByRole("alert")).toContainText("You had already answered this request");
    await expect(other.getByTestId("recorded-answer")).toContainText("I acknowledge this statement");
    const stored = await readRequest(hostRequest, reference);
    expect(stored.answer).toMatchObject({ choice: "acknowledged", typedName: "Robin Responder" });
    expect(stored.answer.note).toBeUndefined();
  });

  test("a dispute: the proposal rejected with a reason, markup in it kept as text", async ({
    page,
    hostRequest,
  }, testInfo) => {
    const { reference, link } = await ask(hostRequest, {
      kind: "dispute",
      dispute: {
        invoice: `${account()}-INV-017`,
        resolution: { type: "credit", amountCents: 25_00, note: "For the damaged items only." },
      },
    });
    await page.goto(link);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("A proposal to settle your dispute");
    await expect(page.getByRole("main")).toContainText("proposes a credit of $25.00 to settle your dispute");
    await expect(page.getByRole("main")).toContainText(`${account()}-INV-017, issued`);
    await expect(page.getByRole("region", { name: "The invoice and the proposal" })).toContainText(
      "Goods arrived damaged",
    );
    await keep(page, testInfo, "dispute-question");
    await inFirstScreen(page, heading, page.getByLabel("I accept this proposal"));
    await expectAccessible(page);

    await page.getByLabel("I reject this proposal").check();
    await page.getByLabel("Your full name").fill("Robin Responder");
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(page.getByLabel("Why do you reject it?")).toHaveAccessibleDescription(
      /Give your reason for rejecting the proposal\./,
    );
    const reason = "Two boxes were crushed <script>alert('x')</script>; we'd accept $40.";
    await page.getByLabel("Why do you reject it?").fill(reason);
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(heading).toHaveText("Your answer is recorded");
    await expect(page.getByTestId("recorded-answer")).toContainText(reason);
    await expectAccessible(page);
    await keep(page, testInfo, "dispute-complete");
    expect((await readRequest(hostRequest, reference)).answer).toMatchObject({ choice: "rejected", reason });
  });

  test("a replaced, tampered or withdrawn link: one clear message each, and nothing answered", async ({
    page,
    hostRequest,
  }, testInfo) => {
    const { reference, link: first } = await ask(hostRequest, {
      kind: "statement",
      statement: { periodEnd: pastDay(95), closingBalanceCents: -5_00 },
    });
    const since = Date.now();
    await backOffice(hostRequest, `/response-requests/${reference}/resend`, undefined, 200);
    const mail = await waitForMailVia(MAILBOX, email(), { since, subject: new RegExp(reference) });
    const second = mail.links.find((l) => l.includes(LINK_PATH))!;
    expect(second).not.toBe(first);

    await page.goto(first);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("This link was replaced by a newer one");
    await expect(page.getByRole("main")).toContainText(`newer email for request ${reference}`);
    await expect(page.getByRole("button", { name: "Send my answer" })).toHaveCount(0);
    await expectAccessible(page);
    await keep(page, testInfo, "link-replaced");

    const token = second.split(LINK_PATH)[1]!;
    const tampered = `${ACME}${LINK_PATH}${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const invalid = await page.goto(tampered);
    expect(invalid?.status()).toBe(404);
    await expect(heading).toHaveText("This link isn't valid");
    await expectAccessible(page);
    expect((await page.goto(`${ACME}${LINK_PATH}complete/${token.slice(0, 30)}`))?.status()).toBe(404);

    // The newer link works until the business withdraws the request.
    await page.goto(second);
    await expect(page.getByRole("region", { name: "The statement" })).toContainText("$5.00 in credit");
    await backOffice(hostRequest, `/response-requests/${reference}/withdraw`, undefined, 200);
    await page.getByLabel("I acknowledge this statement").check();
    await page.getByLabel("Your full name").fill("Robin Responder");
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(heading).toHaveText("This request was withdrawn");
    await expect(page).toHaveURL(second);
    await expectAccessible(page);
    const stored = await readRequest(hostRequest, reference);
    expect(stored).toMatchObject({ state: "withdrawn", answer: null });
  });

  test("the kiwi brand: a New Zealand address corrected, with no state", async ({ page, hostRequest }, testInfo) => {
    // The kiwi demo's own contacts, one per project (each is asked its address once).
    const who =
      project() === "js"
        ? { contact: "liam@tasman.example", account: "KF-700" }
        : { contact: "aroha@orchards.example", account: "KF-500" };
    const since = Date.now();
    const created = await hostRequest.post(`${KIWI}/api/back-office/response-requests`, {
      headers: {
        connection: "close",
        authorization: `Bearer ${DEMO_API_KEYS["kiwi.localhost"]}`,
        "content-type": "application/json",
      },
      data: {
        kind: "delivery-address",
        ...who,
        address: { line1: "9 Quay St", locality: "Nelson", postcode: "7010", country: "NZ" },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { request } = await created.json();
    const mail = await waitForMailVia(MAILBOX, who.contact, { since, subject: new RegExp(request.reference) });
    expect(mail.text).toContain("Delivery address: 9 Quay St, Nelson 7010, New Zealand");
    await page.goto(mail.links.find((l) => l.includes(LINK_PATH))!);
    await expect(page.getByTestId("stated-address")).toContainText("Nelson 7010");
    await expectAccessible(page);
    await keep(page, testInfo, "kiwi-address-question");
    await page.getByLabel("No, deliver to a different address").check();
    await expect(page.getByLabel("Country")).toHaveValue("NZ");
    await page.getByLabel("Street address").fill("14 Orchard Rd");
    await page.getByLabel("Address line 2 (optional)").fill("Māpua");
    await page.getByLabel("Suburb, town or city").fill("Nelson");
    await page.getByLabel("Postcode").fill("7005");
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your answer is recorded");
    await expect(page.getByTestId("recorded-answer")).toContainText("Māpua");
    await expect(page.getByTestId("recorded-answer")).toContainText("Nelson 7005");
    await expect(page.getByTestId("recorded-answer")).toContainText("New Zealand");
    await expectAccessible(page);
    await keep(page, testInfo, "kiwi-address-complete");
  });
});
