import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Download, Page } from "@playwright/test";
import { DEMO_AGREEMENT_REFERENCE } from "../../db/seed/agreements";
import { DEMO_API_KEYS, DEMO_PASSWORD } from "../../db/seed/demo";
import { agreementAccountNumber, agreementEmail, type AgreementRole } from "../support/e2e-agreements";
import { waitForMailVia } from "../support/mailbox";
import { keepFirstPage } from "../support/pdf-pictures";
import { readPdf } from "../support/pdf-reader";
import {
  ACME,
  E2E_DATA_DIR,
  expect,
  expectAccessible,
  KIWI,
  MAILBOX,
  openSection,
  PHONE,
  signInAs,
  test,
  type HostRequest,
} from "./fixtures";

/**
 * Agreements from the contact's side (issue 15; decisions 034 and 036), with JavaScript and
 * without, on a 360 px phone. Each journey makes a document of its own through the back-office
 * API of the running portal and offers it to the project's own contact ("signer", with portal
 * access, or "signerstyle", without: tests/support/e2e-agreements.ts); the link comes from the
 * real mailbox. The downloaded record is checked the way anyone can check it: the SHA-256 of its
 * last bytes is the hash it states, and the hash the page showed.
 */
const project = () => test.info().project.name;
const email = (role: AgreementRole) => agreementEmail(role, project());
const account = (role: AgreementRole) => agreementAccountNumber(role, project());
const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const LINK_PATH = "/agreements/acceptance/";

const TEXT = (title: string) =>
  [
    `# ${title}`,
    "",
    "These terms apply to every order you place on your trade account.",
    "",
    "## Payment",
    "",
    "- Invoices are due 30 days from the end of the month.",
    "- Card payments carry the surcharge shown before you pay.",
    "",
    "Markup stays text: <script>alert('x')</script> & <b>bold</b>.",
    "",
  ].join("\n");

async function backOffice(hostRequest: HostRequest, pathname: string, data: unknown, status = 201) {
  const response = await hostRequest.post(`${ACME}/api/back-office${pathname}`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data,
  });
  expect(response.status(), await response.text()).toBe(status);
  return response.json();
}

/** A document of this journey's own, offered by email to the role's contact: its link from the mailbox. */
async function offerByEmail(hostRequest: HostRequest, role: AgreementRole, kind = "terms-of-trade") {
  const title = `Terms ${project()} ${randomUUID().slice(0, 6)}`;
  const body = TEXT(title);
  const { document } = await backOffice(hostRequest, "/agreements", { kind, title, body });
  const since = Date.now();
  const { offer, delivery } = await backOffice(hostRequest, "/agreement-offers", {
    document: document.id,
    account: account(role),
    contact: email(role),
  });
  expect(delivery.sent).toBe(true);
  const mail = await waitForMailVia(MAILBOX, email(role), { since, subject: new RegExp(offer.reference) });
  const link = mail.links.find((l) => l.includes(LINK_PATH));
  expect(link, "the email carries the link").toBeTruthy();
  expect(mail.text).toContain(link!);
  return { title, body, documentId: document.id as string, reference: offer.reference as string, link: link! };
}

/** Types the name (and ticks the box), then presses Accept or Decline. */
async function decide(page: Page, name: string, button: "Accept" | "Decline", tick = button === "Accept") {
  await page.getByLabel("Your full name").fill(name);
  if (tick) await page.getByLabel(/^I have read and accept/).check();
  await page.getByRole("button", { name: button, exact: true }).click();
}

/** Downloads a file from a link on the page, the browser's own way (no script needed). */
async function download(page: Page, name: string): Promise<{ file: Download; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
  return { file, bytes: fs.readFileSync((await file.path())!) };
}

/** Checks a record file as anyone could: the SHA-256 of its last N bytes is the hash it states. */
function checkRecord(bytes: Buffer, expected: { hash: string; body: string; name: string; decision: string }) {
  const text = bytes.toString("utf8");
  const stated = /- SHA-256 of the agreement text: ([0-9a-f]{64})/.exec(text)?.[1];
  const length = Number(/- Length of the agreement text: (\d+) bytes \(UTF-8\)/.exec(text)?.[1]);
  expect(stated).toBe(expected.hash);
  expect(length).toBe(Buffer.byteLength(expected.body, "utf8"));
  const textBytes = bytes.subarray(bytes.length - length);
  expect(sha256(textBytes)).toBe(stated);
  expect(textBytes.toString("utf8")).toBe(expected.body);
  expect(text).toContain(`- Name typed: ${expected.name}`);
  expect(text).toContain(`- Decision: ${expected.decision}`);
  expect(text).toMatch(/- Time \(UTC\): \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
}

test.describe("agreements", () => {
  test.use({ viewport: PHONE });

  test("email → open the link → read → accept with name and checkbox → the record → download and check the hash → signed in", async ({
    page,
    hostRequest,
  }) => {
    // A long journey (about 20 s quiet): its limit keeps three times that (issue 29).
    test.setTimeout(90_000);
    const offer = await offerByEmail(hostRequest, "signer");
    const response = await page.goto(offer.link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin");
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(offer.title);
    await expect(page.getByRole("main")).toContainText(`version 1`);
    await expect(page.getByRole("main")).toContainText(offer.reference);
    const text = page.getByRole("article", { name: `Text of ${offer.title}, version 1` });
    await expect(text).toContainText("Invoices are due 30 days from the end of the month.");
    // Markup in the text is shown as text, never run.
    await expect(text).toContainText("<script>alert('x')</script> & <b>bold</b>.");
    // A link page shows the brand only: no portal menu.
    await expect(page.getByRole("banner").getByText("Menu", { exact: true })).toHaveCount(0);
    await expectAccessible(page);

    // Accepting without the box ticked: told at the box, nothing recorded.
    await page.getByLabel("Your full name").fill("Sasha Signer");
    await page.getByRole("button", { name: "Accept", exact: true }).click();
    const box = page.getByLabel(/^I have read and accept/);
    await expect(box).toHaveAccessibleDescription("Tick the box to accept the agreement, or choose Decline.");
    await expect(page.getByRole("alert")).toContainText("There is a problem");
    await expect(page.getByLabel("Your full name")).toHaveValue("Sasha Signer");
    await expectAccessible(page);

    await decide(page, "Sasha Signer", "Accept");
    await expect(page).toHaveURL(`${offer.link}?notice=recorded`);
    await expect(page.getByRole("status").filter({ hasText: "Your decision has been recorded." })).toBeVisible();
    const record = page.getByRole("region", { name: "The record" });
    await expect(record).toContainText("Sasha Signer accepted version 1 on");
    await expect(record).toContainText(email("signer"));
    await expect(page.getByRole("button", { name: "Accept", exact: true })).toHaveCount(0);
    // The hash, the client address and the UTC instant are in the downloaded record, not on the page.
    const hash = sha256(offer.body);
    await expect(page.getByRole("main")).not.toContainText(hash);
    await expect(page.getByRole("main")).not.toContainText("127.0.0.1");
    await expectAccessible(page);

    // The download "as accepted" (issue 34): a tagged PDF a phone opens, with the record and the text.
    const asAccepted = await download(page, "Download as accepted (PDF)");
    expect(asAccepted.file.suggestedFilename()).toBe(`Acme-Plumbing-Supplies-${offer.reference}-v1-accepted.pdf`);
    await keepFirstPage(test.info(), (await asAccepted.file.path())!, "acme-agreement");
    const pdf = await readPdf(new Uint8Array(asAccepted.bytes));
    const pdfText = pdf.text.replace(/\s+/g, " ");
    expect(pdf.title).toBe(`${offer.title}, as accepted`);
    expect(pdfText).toContain("Sasha Signer accepted version 1 on");
    expect(pdfText).toContain(hash);
    expect(pdfText).toContain("Card payments carry the surcharge");
    // The record as text: its header, then the text byte for byte as hashed.
    const asText = await download(page, "Download the record as text");
    expect(asText.file.suggestedFilename()).toBe(`${offer.reference}-v1-accepted.md`);
    checkRecord(asText.bytes, { hash, body: offer.body, name: "Sasha Signer", decision: "Accepted" });
    const textOnly = await download(page, "Download the text only");
    expect(sha256(textOnly.bytes)).toBe(hash);

    // The token never went into the server's log whole.
    const token = offer.link.split("/").pop()!;
    const log = fs.readFileSync(path.join(E2E_DATA_DIR, "server.log"), "utf8");
    expect(log).toContain(`${LINK_PATH}${token.slice(0, 6)}…`);
    expect(log).not.toContain(token.slice(0, 12));

    // Signed in, from the menu: the account's agreements, and this one as accepted.
    await signInAs(page, ACME, email("signer"), DEMO_PASSWORD);
    await openSection(page, "Agreements");
    await expect(page).toHaveURL(`${ACME}/customer/agreement/all`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agreements");
    const row = page.getByRole("row").filter({ hasText: offer.reference });
    await expect(row).toContainText("Accepted");
    await expectAccessible(page);
    await row.getByRole("link", { name: offer.title }).click();
    await expect(page).toHaveURL(`${ACME}/customer/agreement/${offer.reference}`);
    await expect(page.getByRole("article", { name: `Text of ${offer.title}, version 1` })).toContainText(
      "Card payments carry the surcharge",
    );
    await expectAccessible(page);
    const signedIn = await download(page, "Download the record as text");
    checkRecord(signedIn.bytes, { hash, body: offer.body, name: "Sasha Signer", decision: "Accepted" });
  });

  test("the text changes between opening and accepting: refused, the new version shown, then accepted", async ({
    page,
    hostRequest,
  }) => {
    const offer = await offerByEmail(hostRequest, "signer", "direct-debit");
    await page.goto(offer.link);
    await expect(page.getByRole("main")).toContainText("version 1");
    const newBody = `${offer.body}\n## Fees\n\nA dishonour fee of $15.00 applies.\n`;
    await backOffice(hostRequest, `/agreements/${offer.documentId}/versions`, { body: newBody });

    await decide(page, "Sasha Signer", "Accept");
    await expect(page).toHaveURL(`${offer.link}?notice=changed`);
    await expect(page.getByRole("alert")).toContainText(
      "This agreement changed since you opened it. Nothing was recorded: read the new version below (version 2)",
    );
    await expect(page.getByRole("article", { name: `Text of ${offer.title}, version 2` })).toContainText(
      "A dishonour fee of $15.00 applies.",
    );
    await expectAccessible(page);

    await decide(page, "Sasha Signer", "Accept");
    await expect(page.getByRole("region", { name: "The record" })).toContainText("accepted version 2");
    const v2 = await download(page, "Download the record as text");
    checkRecord(v2.bytes, { hash: sha256(newBody), body: newBody, name: "Sasha Signer", decision: "Accepted" });
  });

  test("a customer-style contact finds an offer on their home and declines it signed in", async ({
    page,
    hostRequest,
  }) => {
    const offer = await offerByEmail(hostRequest, "signerstyle");
    await signInAs(page, ACME, email("signerstyle"), DEMO_PASSWORD);
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);
    const section = page.getByRole("region", { name: "Agreements", exact: true });
    const item = section.getByRole("listitem").filter({ hasText: offer.title });
    await expect(item).toContainText("Waiting for a decision");
    await expectAccessible(page);
    // The title is a link, and so is the row's action (Review and accept): both open the offer.
    await item.getByRole("link").first().click();
    await expect(page).toHaveURL(`${ACME}${LINK_PATH}${offer.reference}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(offer.title);
    await expectAccessible(page);

    // Declining needs the typed name, not the box.
    await decide(page, "Sasha Style", "Decline");
    await expect(page).toHaveURL(`${ACME}${LINK_PATH}${offer.reference}?notice=recorded`);
    await expect(page.getByRole("region", { name: "The record" })).toContainText("Sasha Style declined version 1");
    const record = await download(page, "Download the record as text");
    checkRecord(record.bytes, {
      hash: sha256(offer.body),
      body: offer.body,
      name: "Sasha Style",
      decision: "Declined",
    });

    // Their menu leads to their agreements; the decided one opens as its record.
    await page.goto(`${ACME}/customer/agreement`);
    await expect(page).toHaveURL(`${ACME}/customer/agreement/all`);
    await expect(page.getByRole("row").filter({ hasText: offer.reference })).toContainText("Declined");
    await expectAccessible(page);
  });

  test("bad input on the page: a blank name, names too long or with control characters, a tampered version, deciding twice — a clear answer, nothing recorded", async ({
    page,
    hostRequest,
  }) => {
    const offer = await offerByEmail(hostRequest, "signer");
    await page.goto(offer.link);
    const versionId = await page.locator('input[name="versionId"]').inputValue();

    // Spaces only: the browser's "required" passes it, the server does not.
    await decide(page, "   ", "Accept");
    await expect(page.getByLabel("Your full name")).toHaveAccessibleDescription(/Type your full name\./);
    await expect(page.getByRole("alert")).toContainText("Type your full name.");
    // The field holds at most 200 characters.
    await expect(page.getByLabel("Your full name")).toHaveAttribute("maxlength", "200");

    // What a browser cannot send, a tool can: refused with a 400 and the form again.
    const post = (form: Record<string, string>) =>
      hostRequest.post(offer.link, {
        headers: { origin: ACME },
        form: { agreed: "yes", intent: "accept", versionId, ...form },
      });
    for (const [typedName, message] of [
      ["n".repeat(500), "Your name is too long"],
      ["Sasha\u0007Signer", "Type your name on one line"],
      ["Sasha\nSigner", "Type your name on one line"],
    ] as const) {
      const answer = await post({ typedName });
      expect(answer.status(), JSON.stringify(typedName)).toBe(400);
      expect(await answer.text()).toContain(message);
    }
    // A version id the page never showed: nothing recorded, read it again.
    const tampered = await post({ typedName: "Sasha Signer", versionId: randomUUID() });
    expect(tampered.status()).toBe(303);
    await page.goto(tampered.headers().location!.replace(/^\//, `${ACME}/`));
    await expect(page.getByRole("alert")).toContainText("We couldn't tell which version of the agreement you read");
    await expect(page.getByRole("button", { name: "Accept", exact: true })).toBeVisible();
    await expectAccessible(page);

    // A name with markup is text; then a second accept and a decline after it are refused.
    await decide(page, "Sasha <b>O'Signer</b>", "Accept");
    await expect(page.getByRole("region", { name: "The record" })).toContainText("Sasha <b>O'Signer</b> accepted");
    for (const intent of ["accept", "decline"]) {
      const again = await post({ typedName: "Someone Else", intent });
      expect(again.status()).toBe(303);
      expect(again.headers().location).toMatch(/\?notice=decided$/);
    }
    await page.goto(`${offer.link}?notice=decided`);
    await expect(page.getByRole("alert")).toContainText("already been decided");
    await expect(page.getByRole("region", { name: "The record" })).toContainText("Sasha <b>O'Signer</b> accepted");
    await expect(page.getByRole("region", { name: "The record" })).not.toContainText("Someone Else");
  });

  test("a withdrawn offer, another business's host, another account's reference: nothing to decide", async ({
    page,
    hostRequest,
  }) => {
    const offer = await offerByEmail(hostRequest, "signer");
    await backOffice(hostRequest, `/agreement-offers/${offer.reference}/withdraw`, {}, 200);
    await page.goto(offer.link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This agreement was withdrawn");
    await expect(page.getByRole("main")).toContainText(offer.reference);
    await expect(page.getByRole("link", { name: "accounts@acme.example" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Accept", exact: true })).toHaveCount(0);
    await expectAccessible(page);

    // The same token on another business's host, and a truncated one: "This link isn't valid".
    const token = offer.link.split("/").pop()!;
    for (const url of [`${KIWI}${LINK_PATH}${token}`, `${ACME}${LINK_PATH}${token.slice(0, 40)}`]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");
    }
    await expectAccessible(page);

    // Signed in, another account's offer (the demo's, on ACME-1000) is "Page not found".
    await signInAs(page, ACME, email("signer"), DEMO_PASSWORD);
    for (const pathname of [`${LINK_PATH}${DEMO_AGREEMENT_REFERENCE}`, "/customer/agreement/AG-DEMO0001"]) {
      const response = await page.goto(`${ACME}${pathname}`);
      expect(response?.status(), pathname).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    }
    await expectAccessible(page);
  });
});
