import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { formatFileSize } from "../../app/lib/format";
import { pdfWithContentOfSize, windowsExecutable } from "../support/credit-files";
import { DEMO_API_KEYS } from "../../db/seed/demo";
import { waitForMailVia } from "../support/mailbox";
import { ACME, expect, expectAccessible, KIWI, MAILBOX, PHONE, test } from "./fixtures";

/**
 * The public trade-credit application (issue 17; decision 038), signed out, with JavaScript and
 * without, on a 360 × 740 phone: every step with a PDF document, check your answers, send; the
 * three kinds of email from the real mailbox (the applicant's confirmation, the business's
 * notification, each referee's request with a link of their own); and what robots and mistakes
 * meet — a 50 MB file, an executable named .pdf, markup typed into every text field, the
 * honeypot, sending with a step missing. Each journey uses addresses of its own.
 */
const project = () => test.info().project.name;
const unique = () => `${project()}-${randomUUID().slice(0, 8)}`;
const REFEREE_LINK = new RegExp(`^${ACME.replace(/[.]/g, "\\.")}/credit-trade-reference/[A-Za-z0-9_-]{59}$`);

/** Presses the step's main button and waits for the next page (or the same page with its errors). */
async function saveAndContinue(page: Page, next: RegExp | string) {
  await page
    .getByRole("button", { name: /^(Save and continue|Save and return to your answers|Accept and continue)$/ })
    .click();
  await expect(page).toHaveURL(next);
}

async function keep(page: Page, name: string, width: number) {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width, height: width === 360 ? PHONE.height : 800 });
  const file = test.info().outputPath(`${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(`${name} at ${width} px`, { path: file, contentType: "image/png" });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  if (viewport) await page.setViewportSize(viewport);
}

test.describe("credit application", () => {
  test.use({ viewport: PHONE });

  test("every step with a PDF → check your answers → send → the three kinds of email → a referee answers → the business accepts", async ({
    page,
    hostRequest,
  }) => {
    // Twelve pages, each checked with axe at two widths, and five mails read back.
    test.setTimeout(150_000);
    const id = unique();
    const applicant = `applicant-${id}@coastal.example`;
    const referees = [`pipes-${id}@referee.example`, `taps-${id}@referee.example`, `valves-${id}@referee.example`];
    // Markup in every text field: kept and shown as text, in the pages and in the mail.
    const legalName = `Coastal <b>Plumbing</b> & "Sons" ${id} Pty Ltd`;
    const markup = "<script>alert('x')</script>";

    await page.goto(`${ACME}/credit`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apply for a trade account");
    await expect(page.getByText("Your business's legal name and its ABN (or its ACN, for a company)")).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Start now" }).click();

    // 1. The business: the ABN's check digit is checked at the field.
    await expect(page).toHaveURL(`${ACME}/credit/business`);
    await expect(page.getByText("Step 1 of 9")).toBeVisible();
    await page.getByLabel("Legal name").fill(legalName);
    await page.getByLabel("Trading name (optional)").fill(`Coastal ${markup}`);
    await page.getByLabel("Company").check();
    await page.getByLabel("ABN").fill("49 004 028 078");
    await page.getByLabel("ACN (companies)").fill("004 028 077");
    await saveAndContinue(page, `${ACME}/credit/business`);
    await expect(page.getByRole("alert")).toContainText("There is a problem");
    await expect(page.getByLabel("ABN")).toHaveAccessibleDescription(/This isn't a valid ABN/);
    await expect(page.getByLabel("Legal name")).toHaveValue(legalName);
    await expectAccessible(page);
    await keep(page, "credit-step-business", 360);
    await keep(page, "credit-step-business", 1280);
    await page.getByLabel("ABN").fill("49 004 028 077");
    await saveAndContinue(page, `${ACME}/credit/address`);

    // 2. The address: the postcode must be in the state.
    await expect(page.getByText("Step 2 of 9")).toBeVisible();
    await page.getByLabel("Street address", { exact: true }).fill(`12 Harbour St ${markup}`);
    await page.getByLabel("Suburb or town").first().fill("Sydney");
    await page.getByLabel("State or territory").first().selectOption("VIC");
    await page.getByLabel("Postcode").first().fill("2000");
    // The postal address is hidden while it is "the same", without any script.
    await expect(page.getByLabel("Street address or PO box")).toBeHidden();
    await saveAndContinue(page, `${ACME}/credit/address`);
    await expect(page.getByLabel("Postcode").first()).toHaveAccessibleDescription(/isn't in the state or territory/);
    await expectAccessible(page);
    await page.getByLabel("State or territory").first().selectOption("NSW");
    await saveAndContinue(page, `${ACME}/credit/contacts`);

    // 3. Contacts: the accounts payable contact is someone else.
    await page.getByLabel("Your full name").fill(`Olivia ${markup}`);
    await page.getByLabel("Your position").fill("Director");
    await page.getByLabel("Your email address").fill(applicant);
    await page.getByLabel("Your phone number").fill("02 9876 5432");
    await page.getByLabel("I also pay the invoices (I'm the accounts payable contact)").uncheck();
    await expect(page.getByLabel("Name", { exact: true })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Sam Accounts");
    await page.getByLabel("Email address", { exact: true }).fill(`ap-${id}@coastal.example`);
    await page.getByLabel("Phone number", { exact: true }).fill("02 9876 5433");
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/directors`);

    // 4. Directors: a second person added (with JavaScript in the page, without it by the server).
    await page.getByLabel("Full name").fill(`Olivia ${markup}`);
    await page.getByLabel("Role").selectOption("director");
    await page.getByRole("button", { name: "Add another person" }).click();
    await expect(page.getByRole("group", { name: "Person 2" })).toBeVisible();
    await expect(page.getByLabel("Full name").first()).toHaveValue(`Olivia ${markup}`);
    await page.getByLabel("Full name").nth(1).fill("Sam Lee");
    await page.getByLabel("Role").nth(1).selectOption("owner");
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/credit`);

    // 5. The credit asked for: exact amounts.
    await page.getByLabel("Credit limit you'd like").fill("25,000.5");
    await page.getByLabel("Expected purchases each month").fill("8000");
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/references`);

    // 6. Trade references: three, one of them at first the applicant's own address.
    await page.getByRole("button", { name: "Add a third reference" }).click();
    await expect(page.getByRole("group", { name: "Trade reference 3" })).toBeVisible();
    for (const [index, name] of ["Pipe <i>Co</i>", "Tap World", "Valve Hub"].entries()) {
      const group = page.getByRole("group", { name: `Trade reference ${index + 1}` });
      await group.getByLabel("Business name").fill(name);
      await group.getByLabel("Contact's name").fill(`Alex ${index}`);
      await group.getByLabel("Contact's email address").fill(index === 0 ? applicant : referees[index]!);
      await group.getByLabel("Contact's phone number").fill(`02 1234 567${index}`);
    }
    await saveAndContinue(page, `${ACME}/credit/references`);
    await expect(
      page.getByRole("group", { name: "Trade reference 1" }).getByLabel("Contact's email address"),
    ).toHaveAccessibleDescription(/A referee can't be you/);
    await expect(page.getByRole("group", { name: "Trade reference 3" }).getByLabel("Business name")).toHaveValue(
      "Valve Hub",
    );
    await page
      .getByRole("group", { name: "Trade reference 1" })
      .getByLabel("Contact's email address")
      .fill(referees[0]!);
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/bank`);

    // 7. Direct debit: the account's fields show once "yes" is chosen (CSS only).
    await expect(page.getByLabel("BSB")).toBeHidden();
    await page.getByLabel("Yes, debit our bank account").check();
    await expect(page.getByLabel("BSB")).toBeVisible();
    await page.getByLabel("Account name").fill("Coastal Plumbing");
    await page.getByLabel("BSB").fill("062-000");
    await page.getByLabel("Account number").fill("12345678");
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/documents`);

    // 8. A PDF document of 1.5 MB (far over the front door's usual 64 KB: the documents step has its own limit,
    // for the page's POST and the script's alike), listed with the size of the copy kept (decision 057 re-writes
    // an accepted PDF; this one's size is its page's content, which the copy keeps).
    const pdf = pdfWithContentOfSize(1.5 * 1024 * 1024);
    await page.getByLabel("What is it?").selectOption("financial-statements");
    await page
      .getByLabel("File", { exact: true })
      .setInputFiles({ name: "statements.pdf", mimeType: "application/pdf", buffer: pdf });
    await page.getByRole("button", { name: "Upload this file" }).click();
    await expect(page).toHaveURL(`${ACME}/credit/documents?notice=uploaded`);
    await expect(page.getByText("The file was added.")).toBeVisible();
    const listed = page.getByRole("listitem").filter({ hasText: "statements.pdf" });
    await expect(listed).toContainText(`Financial statements · ${formatFileSize(pdf.length)}`);
    expect(formatFileSize(pdf.length)).toBe("1.5 MB");
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/terms`);

    // 9. The terms: the text as published, accepted with a name and a tick.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of trade");
    await expect(page.getByRole("article")).toContainText("Goods stay ours until they are paid for in full.");
    await page.getByRole("button", { name: "Accept and continue" }).click();
    await expect(page.getByLabel("Your full name")).toHaveAccessibleDescription(/Type your full name/);
    await page.getByLabel("Your full name").fill("Olivia Nguyen");
    await page.getByLabel(/^I have read and accept the Terms of trade/).check();
    await expectAccessible(page);
    await saveAndContinue(page, `${ACME}/credit/check`);

    // Check your answers: markup as text, the account number masked, one document.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your answers");
    await expect(page.getByText(legalName, { exact: true })).toBeVisible();
    await expect(page.locator("b", { hasText: "Plumbing" })).toHaveCount(0);
    await expect(page.getByText("•••••678")).toBeVisible();
    await expect(page.getByText("$25,000.50")).toBeVisible();
    await expect(page.getByText(`statements.pdf (${formatFileSize(pdf.length)})`)).toHaveCount(1);
    await expectAccessible(page);
    await keep(page, "credit-check-your-answers", 360);
    await keep(page, "credit-check-your-answers", 1280);

    // Change a step from here, and come back here.
    await page.getByRole("link", { name: "Change The credit you'd like" }).click();
    await expect(page).toHaveURL(`${ACME}/credit/credit?change=1`);
    await page.getByLabel("Expected purchases each month").fill("9000");
    await saveAndContinue(page, `${ACME}/credit/check`);
    await expect(page.getByText("$9,000.00")).toBeVisible();

    const since = Date.now();
    await page.getByRole("button", { name: "Send application" }).click();
    await expect(page).toHaveURL(`${ACME}/credit/submitted`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Application sent");
    const reference = (await page.getByTestId("credit-reference").textContent())!.trim();
    expect(reference).toMatch(/^CA-[0-9A-Z]{8}$/);
    await expect(page.getByText(`We've emailed a confirmation to ${applicant}.`)).toBeVisible();
    await expectAccessible(page);
    // A refresh shows the same confirmation and sends nothing again.
    await page.reload();
    await expect(page.getByTestId("credit-reference")).toHaveText(reference);

    // The applicant's confirmation.
    const confirmation = await waitForMailVia(MAILBOX, applicant, { since, subject: new RegExp(reference) });
    expect(confirmation.subject).toBe(`Your credit application to Acme Plumbing Supplies (${reference})`);
    expect(confirmation.text).toContain(`Your application's reference is ${reference}.`);
    expect(confirmation.text).toContain(`Hello Olivia ${markup},`);
    expect(confirmation.html).toContain("Olivia &lt;script&gt;");
    // The business's notification (its support address: acme has no separate notification address).
    const notification = await waitForMailVia(MAILBOX, "accounts@acme.example", {
      since,
      subject: new RegExp(reference),
    });
    expect(notification.subject).toBe(`New credit application: ${legalName} (${reference})`);
    expect(notification.text).toContain("Credit limit asked for: $25,000.50");
    expect(notification.text).not.toContain("12345678");
    expect(notification.html).toContain("Coastal &lt;b&gt;Plumbing&lt;/b&gt; &amp;");
    expect(notification.html).not.toContain("<b>Plumbing</b>");
    // Each referee's request, with a link of their own.
    const links: string[] = [];
    for (const referee of referees) {
      const request = await waitForMailVia(MAILBOX, referee, { since, subject: new RegExp(reference) });
      expect(request.subject).toBe(`Trade reference for ${legalName} (${reference}) · Acme Plumbing Supplies`);
      const link = request.links.find((l) => l.includes("/credit-trade-reference/"));
      expect(link, "the email carries the referee's link").toMatch(REFEREE_LINK);
      expect(request.text).toContain(link!);
      links.push(link!);
    }
    expect(new Set(links).size).toBe(3);

    // The first referee answers from their link, signed out.
    await page.goto(links[0]!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Trade reference for ${legalName}`);
    const group = (name: RegExp) => page.getByRole("group", { name });
    await group(/How long have you traded/)
      .getByLabel("1 to 3 years")
      .check();
    await group(/What payment terms/)
      .getByLabel("30 days", { exact: true })
      .check();
    await page.getByLabel("Their credit limit with you").fill("20,000");
    await group(/How do they pay you/)
      .getByLabel("Usually on time")
      .check();
    await group(/dishonoured/)
      .getByLabel("No")
      .check();
    await group(/Would you recommend/)
      .getByLabel("Yes")
      .check();
    await page.getByLabel("Your full name").fill("Grace Liu");
    await page.getByLabel("Your position").fill("Credit manager");
    await page.getByRole("button", { name: "Send reference" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you");

    // The business reads it and accepts through the back-office API; the applicant is told.
    const auth = { authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}` };
    const read = await hostRequest.get(`${ACME}/api/back-office/credit-applications/${reference}`, { headers: auth });
    expect(read.status()).toBe(200);
    const { application } = await read.json();
    expect(application.status).toBe("submitted");
    expect(application.references.map((r: { state: string }) => r.state)).toEqual(["answered", "waiting", "waiting"]);
    expect(application.documents).toHaveLength(1);
    const decidedSince = Date.now();
    const accepted = await hostRequest.post(`${ACME}/api/back-office/credit-applications/${reference}/accept`, {
      headers: { ...auth, "idempotency-key": randomUUID(), "content-type": "application/json" },
      data: { approvedLimitCents: 2_000_000, note: "Terms are 30 days from the end of the month." },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    const approval = await waitForMailVia(MAILBOX, applicant, { since: decidedSince, subject: new RegExp(reference) });
    expect(approval.subject).toContain(`Trade account approved`);
    expect(approval.text).toContain("$20,000.00");
  });

  test("a New Zealand business: NZBN, a town or city, an NZ bank account", async ({ page }) => {
    test.setTimeout(90_000);
    const id = unique();
    const applicant = `aroha-${id}@orchards.example`;
    await page.goto(`${KIWI}/credit/business`);
    await expect(page.getByLabel("ABN")).toHaveCount(0);
    await page.getByLabel("Legal name").fill(`Orchards ${id} Limited`);
    await page.getByLabel("Company").check();
    await page.getByLabel("NZBN").fill("9429041535135");
    await saveAndContinue(page, `${KIWI}/credit/business`);
    await expect(page.getByLabel("NZBN")).toHaveAccessibleDescription(/This isn't a valid NZBN/);
    await page.getByLabel("NZBN").fill("9429041535134");
    await saveAndContinue(page, `${KIWI}/credit/address`);
    await expect(page.getByLabel("State or territory")).toHaveCount(0);
    await page.getByLabel("Street address", { exact: true }).fill("5 Orchard Road");
    await page.getByLabel("Town or city").first().fill("Hastings");
    await page.getByLabel("Postcode").first().fill("4120");
    await expectAccessible(page);
    await saveAndContinue(page, `${KIWI}/credit/contacts`);
    await page.getByLabel("Your full name").fill("Aroha Ngata");
    await page.getByLabel("Your position").fill("Owner");
    await page.getByLabel("Your email address").fill(applicant);
    await page.getByLabel("Your phone number").fill("+64 9 123 4567");
    await saveAndContinue(page, `${KIWI}/credit/directors`);
    await page.getByLabel("Full name").fill("Aroha Ngata");
    await page.getByLabel("Role").selectOption("director");
    await saveAndContinue(page, `${KIWI}/credit/credit`);
    await page.getByLabel("Credit limit you'd like").fill("10000");
    await page.getByLabel("Expected purchases each month").fill("2500");
    await saveAndContinue(page, `${KIWI}/credit/references`);
    for (const index of [0, 1]) {
      const group = page.getByRole("group", { name: `Trade reference ${index + 1}` });
      await group.getByLabel("Business name").fill(`Supplier ${index}`);
      await group.getByLabel("Contact's name").fill(`Mere ${index}`);
      await group.getByLabel("Contact's email address").fill(`ref${index}-${id}@supplier.example`);
      await group.getByLabel("Contact's phone number").fill(`+64 9 555 000${index}`);
    }
    await saveAndContinue(page, `${KIWI}/credit/bank`);
    await page.getByLabel("Yes, debit our bank account").check();
    await page.getByLabel("Account name").fill("Orchards Limited");
    await page.getByLabel("Bank (2 digits)").fill("01");
    await page.getByLabel("Branch (4 digits)").fill("0902");
    await page.getByLabel("Account (7 digits)").fill("0068388");
    await page.getByLabel("Suffix (2 or 3 digits)").fill("00");
    await saveAndContinue(page, `${KIWI}/credit/bank`);
    await expect(page.getByLabel("Account (7 digits)")).toHaveAccessibleDescription(/./);
    await page.getByLabel("Account (7 digits)").fill("0068389");
    await expectAccessible(page);
    await saveAndContinue(page, `${KIWI}/credit/documents`);
    await saveAndContinue(page, `${KIWI}/credit/terms`);
    await expect(page.getByRole("article")).toContainText("Kiwi Freight Co.");
    await page.getByLabel("Your full name").fill("Aroha Ngata");
    await page.getByLabel(/^I have read and accept the Terms of trade/).check();
    await saveAndContinue(page, `${KIWI}/credit/check`);
    await expect(page.getByText("9429041535134")).toBeVisible();
    await expect(page.getByText("01-0902-••••389-00")).toBeVisible();
    await expect(page.getByText("None", { exact: true })).toBeVisible();
    await expectAccessible(page);
    const since = Date.now();
    await page.getByRole("button", { name: "Send application" }).click();
    await expect(page).toHaveURL(`${KIWI}/credit/submitted`);
    const reference = (await page.getByTestId("credit-reference").textContent())!.trim();
    const confirmation = await waitForMailVia(MAILBOX, applicant, { since, subject: new RegExp(reference) });
    expect(confirmation.text).toContain("NZBN: 9429041535134");
    expect(confirmation.text).toMatch(/Credit limit asked for: \$10,000\.00/);
  });

  test("a 50 MB file and an executable named .pdf are refused with a clear message; nothing is added", async ({
    page,
    jsEnabled,
  }) => {
    await page.goto(`${ACME}/credit/business`);
    await page.getByLabel("Legal name").fill(`Uploads ${unique()} Pty Ltd`);
    await page.getByLabel("Sole trader").check();
    await page.getByLabel("ABN").fill("51 824 753 556");
    await saveAndContinue(page, `${ACME}/credit/address`);
    await page.goto(`${ACME}/credit/documents`);

    // An executable renamed .pdf: refused by its content, at the field.
    await page.getByLabel("What is it?").selectOption("other");
    await page.getByLabel("File", { exact: true }).setInputFiles({
      name: "invoice.pdf",
      mimeType: "application/pdf",
      buffer: windowsExecutable(),
    });
    await page.getByRole("button", { name: "Upload this file" }).click();
    await expect(page.getByLabel("File", { exact: true })).toHaveAccessibleDescription(
      /The file isn't a PDF, PNG or JPEG, whatever its name says/,
    );
    await expect(page.getByRole("alert")).toContainText("There is a problem");
    await expect(page.getByText("No documents yet.")).toBeVisible();
    await expectAccessible(page);

    // 50 MB: with JavaScript refused at the field before anything is sent; without, by the front door.
    await page.goto(`${ACME}/credit/documents`);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.getByLabel("What is it?").selectOption("financial-statements");
    // Playwright takes a file this large from disk only.
    const huge = test.info().outputPath("huge.pdf");
    fs.writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024, 0x20));
    await page.getByLabel("File", { exact: true }).setInputFiles(huge);
    if (jsEnabled) {
      await expect(page.getByLabel("File", { exact: true })).toHaveAccessibleDescription(
        /The file is larger than 10 MB/,
      );
      await page.getByRole("button", { name: "Upload this file" }).click();
      await expect(page.getByLabel("File", { exact: true })).toBeFocused();
      expect(posts).toEqual([]);
    } else {
      const [tooLarge] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.getByRole("button", { name: "Upload this file" }).click(),
      ]);
      expect(tooLarge.status()).toBe(413);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request too large");
      await expect(page.getByText("each document may be at most 10 MB")).toBeVisible();
      await page.getByRole("link", { name: "Back to your documents" }).click();
      await expect(page).toHaveURL(`${ACME}/credit/documents`);
    }
    await page.goto(`${ACME}/credit/documents`);
    await expect(page.getByText("No documents yet.")).toBeVisible();
  });

  test("a robot that fills the honeypot is refused and nothing is saved", async ({ page }) => {
    await page.goto(`${ACME}/credit/business`);
    await page.getByLabel("Legal name").fill("Spam Bot Pty Ltd");
    await page.getByLabel("Company").check();
    await page.getByLabel("ACN (companies)").fill("004 028 077");
    // People never see or reach it (off screen, out of the tab order); a robot fills every field.
    const honeypot = page.getByLabel("Leave this empty");
    await expect(honeypot).toHaveAttribute("tabindex", "-1");
    await expect(honeypot).toHaveAttribute("autocomplete", "off");
    // Hidden from screen readers too, or it is announced on every step (issue 32).
    await expect(page.getByRole("textbox", { name: "Leave this empty" })).toHaveCount(0);
    await expect(page.locator('[aria-hidden="true"]').filter({ has: honeypot })).toHaveCount(1);
    await honeypot.fill("http://spam.example", { force: true });
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page.getByRole("alert")).toContainText('the field "Leave this empty" had text');
    await expect(page).toHaveURL(`${ACME}/credit/business`);
    await expect(page.getByLabel("Legal name")).toHaveValue("Spam Bot Pty Ltd");
    await expectAccessible(page);
    // No draft was made: the start page offers to start, not to continue.
    await page.goto(`${ACME}/credit`);
    await expect(page.getByRole("link", { name: "Start now" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue your application" })).toHaveCount(0);
  });

  test("sending with steps missing opens the first of them with a notice; nothing typed is lost", async ({ page }) => {
    const name = `Halfway ${unique()} Pty Ltd`;
    await page.goto(`${ACME}/credit/business`);
    await page.getByLabel("Legal name").fill(name);
    await page.getByLabel("Partnership").check();
    await page.getByLabel("ABN").fill("53 004 085 616");
    await saveAndContinue(page, `${ACME}/credit/address`);
    // Straight to the end, out of order.
    await page.goto(`${ACME}/credit/check`);
    await expect(page.getByText("Not answered yet.")).toHaveCount(8);
    await expect(page.getByText("Some steps aren't answered yet")).toBeVisible();
    await page.getByRole("button", { name: "Send application" }).click();
    await expect(page).toHaveURL(`${ACME}/credit/address?notice=missing`);
    await expect(page.getByRole("alert")).toHaveText("Your application can't be sent yet: please answer this step.");
    await expectAccessible(page);
    // A later step posted before this one is saved, and leads back here.
    await page.goto(`${ACME}/credit/credit`);
    await page.getByLabel("Credit limit you'd like").fill("5000");
    await page.getByLabel("Expected purchases each month").fill("1000");
    await saveAndContinue(page, `${ACME}/credit/address?notice=incomplete`);
    await expect(page.getByRole("alert")).toHaveText("Please answer this step first. Your other answers are saved.");
    await page.goto(`${ACME}/credit/business`);
    await expect(page.getByLabel("Legal name")).toHaveValue(name);
    await page.goto(`${ACME}/credit/credit`);
    await expect(page.getByLabel("Credit limit you'd like")).toHaveValue("5000.00");
    // The start page now offers to continue where the application stopped.
    await page.goto(`${ACME}/credit`);
    await page.getByRole("link", { name: "Continue your application" }).click();
    await expect(page).toHaveURL(`${ACME}/credit/address`);
  });
});
