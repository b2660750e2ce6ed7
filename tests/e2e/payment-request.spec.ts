import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO_API_KEYS, DEMO_PASSWORD } from "../../db/seed/demo";
import { waitForMailVia } from "../support/mailbox";
import { e2eEmail, e2eLinkToken } from "../support/e2e-users";
import {
  ACME,
  allowConsoleError,
  E2E_DATA_DIR,
  expect,
  expectAccessible,
  KIWI,
  MAILBOX,
  PHONE,
  test,
} from "./fixtures";

/**
 * Paying from an emailed payment-request link (issue 14; decision 031), with JavaScript and
 * without, signed out on a 360 px phone. Each project has a contact and account of its own
 * ("linkpayer", tests/support/e2e-seed.ts) with the demo ledger, an expired request's link and
 * an invoice's link; the journeys make their requests through the back-office API of the
 * running portal. The CLI (`npm run portal -- request create`) opens the embedded database itself, which
 * the running portal holds, so its test runs it on a database of its own and checks its email.
 */
const project = () => test.info().project.name;
const payer = () => e2eEmail("linkpayer", project());
const account = () => `E2E-LINKPAYER-${project()}`.toUpperCase();
const nextYear = String(new Date().getUTCFullYear() + 1);
const SMTP_PORT = Number(process.env.E2E_PORT ?? 4310) + 15;

/** A request through the back-office API (the same service functions as the CLI), sent by email. */
async function createRequest(
  hostRequest: import("./fixtures").HostRequest,
  body: Record<string, unknown>,
): Promise<{ reference: string; id: string }> {
  const response = await hostRequest.post(`${ACME}/api/back-office/payment-requests`, {
    headers: {
      authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    data: { account: account(), recipients: [payer()], send: true, ...body },
  });
  expect(response.status(), await response.text()).toBe(201);
  const json = (await response.json()) as { request: { reference: string; id: string } };
  return json.request;
}

/** The link in a request's email, from its plain-text part. */
async function linkFromMail(reference: string, since: number) {
  const mail = await waitForMailVia(MAILBOX, payer(), { since, subject: new RegExp(reference) });
  const link = mail.links.find((l) => l.includes("/customer/payment-request/"));
  expect(link, "the email carries the link").toBeTruthy();
  expect(mail.text).toContain(link!);
  return { mail, link: link! };
}

async function fillCard(page: Page) {
  await page.getByLabel("Card number").fill("4111 1111 1111 1111");
  await page.getByLabel("Name on card").fill("Pat Payer");
  await page.getByLabel("Month (MM)").fill("12");
  await page.getByLabel("Year (YY or YYYY)").fill(nextYear);
  await page.getByLabel("Security code (CVN)").fill("123");
}

/** "Update total", then wait for the new form (a new requestGuid). */
async function updateTotal(page: Page) {
  const guid = page.locator('input[name="requestGuid"]');
  const before = await guid.inputValue();
  await page.getByRole("button", { name: "Update total" }).click();
  await expect(guid).not.toHaveValue(before);
}

/** Types an amount (if the page has the field), prices it with the card, and pays the total shown. */
async function payAmount(page: Page, amount: string | null) {
  if (amount !== null) await page.getByLabel("Amount to pay").fill(amount);
  await fillCard(page);
  await updateTotal(page);
  // The card number and CVN are never filled back in (PCI DSS 3.3.1).
  await expect(page.getByLabel("Card number")).toHaveValue("");
  await fillCard(page);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
  return page.url().split("/").pop()!;
}

test.describe("paying a payment request from its emailed link", () => {
  // One payer account per project: its journeys take turns.
  test.describe.configure({ mode: "default" });
  test.use({ viewport: PHONE });

  test("the CLI creates a request and emails it: branded HTML that renders with the amount and a Pay button, and a text part", async ({
    page,
  }) => {
    // The command and its email do not depend on the browser's JavaScript: once is enough.
    test.skip(project() === "no-js", "the CLI and its email are the same with JavaScript off");
    // It starts the real CLI process (tsx, migrating its own embedded database): 12-18 s quiet, 25 s with the
    // machine's cores busy (npm run test:stress); its limit keeps three times the quiet figure (issue 29).
    test.setTimeout(90_000);
    // The CLI's own database (the running portal holds the e2e one); its mail goes to the catcher.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-e2e-cli-${project()}-`));
    const since = Date.now();
    try {
      const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn(
          "npm",
          [
            "run",
            "--silent",
            "portal",
            "--",
            "request",
            "create",
            "--host",
            "acme.localhost",
            "--account",
            "ACME-1000",
            "--invoice",
            "ACME-1000-INV-023",
            "--to",
            "olivia@coastal.example",
            "--part-payment",
            "--min",
            "25.00",
          ],
          {
            env: {
              ...process.env,
              DATA_DIR: dataDir,
              DATABASE_URL: "",
              SEED_DEMO_DATA: "true",
              SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
              MAIL_FROM: "no-reply@portal.test",
              NODE_ENV: "production",
            },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, out }));
      });
      expect(result.code, result.out).toBe(0);
      const reference = /PR-[0-9A-Z]{6,12}/.exec(result.out)?.[0];
      expect(reference, result.out).toBeTruthy();
      // The link exists only in the email: the command does not print it.
      expect(result.out).not.toMatch(/\/customer\/payment-request\/[A-Za-z0-9_-]{20,}/);
      const mail = await waitForMailVia(MAILBOX, "olivia@coastal.example", {
        since,
        subject: new RegExp(reference!),
        timeoutMs: 20_000,
      });
      expect(mail.subject).toContain("Acme Plumbing Supplies");
      const amount = /\$[\d,]+\.\d{2}/.exec(mail.subject)![0];
      expect(mail.text).toContain(amount);
      expect(mail.text).toMatch(/Pay now:\n\S*\/customer\/payment-request\/[A-Za-z0-9_-]{59}/);
      // The HTML part renders in a browser, on a phone, with the amount and the button in view.
      // The email's logo is on the CLI database's demo host (port 3000), where nothing listens now.
      allowConsoleError(page, /ERR_CONNECTION_REFUSED.*:3000\/brands\//, "the CLI's demo host is not running");
      await page.setContent(mail.html!);
      await expect(page.getByText(amount).filter({ visible: true }).first()).toBeVisible();
      const button = page.getByRole("link", { name: "Pay now" });
      await expect(button).toBeVisible();
      expect(await button.getAttribute("href")).toMatch(/\/customer\/payment-request\/[A-Za-z0-9_-]{59}$/);
      const box = await button.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("email → open the link signed out on a phone → pay in part → pay the rest → receipts → the link says paid", async ({
    page,
    hostRequest,
  }) => {
    const since = Date.now();
    const request = await createRequest(hostRequest, {
      invoices: [`${account()}-INV-023`, `${account()}-INV-024`],
      allowPartPayment: true,
      minPartPaymentCents: 1_000,
      description: "Materials for job 42",
    });
    const { mail, link } = await linkFromMail(request.reference, since);
    expect(mail.text).toContain(request.reference);

    // Signed out, on a phone: the request, what is owing and how to pay; no portal menu.
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin");
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Payment request ${request.reference}`);
    await expect(page.getByRole("banner").getByText("Menu", { exact: true })).toHaveCount(0);
    // A button of the pay form, so a part payment typed comes along to the signed-in page (decision 077).
    await expect(page.getByRole("button", { name: "Sign in to use a saved card or PayTo agreement" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Invoices this request covers" }).getByRole("row")).toHaveCount(3);
    await expect(page.getByLabel("Save this card", { exact: false })).toHaveCount(0);
    await expectAccessible(page);

    // One of its invoices, printable through the same link.
    await page.getByRole("link", { name: `View or print ${account()}-INV-024` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${account()}-INV-024`);
    await expectAccessible(page);
    await page.getByRole("link", { name: `Back to payment request ${request.reference}` }).click();

    // Below the minimum: told, nothing charged.
    await page.getByLabel("Amount to pay").fill("5.00");
    await updateTotal(page);
    await expect(page.getByRole("alert")).toContainText("Pay at least $10.00");
    await expect(page.getByLabel("Amount to pay")).toHaveAccessibleDescription(/smallest part-payment/);

    // Part, then the rest.
    const partSince = Date.now();
    const first = await payAmount(page, "20.00");
    const receipt = page.getByRole("main");
    await expect(receipt).toContainText(`Payment request ${request.reference}: Materials for job 42`);
    // The link payer's receipt has no way into the portal.
    await expect(page.getByRole("link", { name: "Back to invoices" })).toHaveCount(0);
    await expectAccessible(page);
    const firstMail = await waitForMailVia(MAILBOX, payer(), { since: partSince, subject: new RegExp(first) });
    expect(firstMail.text).toContain("Total charged:");

    await page.goto(link);
    const owing = await page.getByLabel("Amount to pay").inputValue();
    expect(Number(owing)).toBeGreaterThan(0);
    const restSince = Date.now();
    const second = await payAmount(page, null);
    expect(second).not.toBe(first);
    const secondMail = await waitForMailVia(MAILBOX, payer(), { since: restSince, subject: new RegExp(second) });
    expect(secondMail.text).toContain("Total charged:");

    // The link now says paid, with whom to ask.
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This request has been paid");
    await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "accounts@acme.example" })).toBeVisible();
    await expectAccessible(page);

    // The token was never written whole into the server's log.
    const token = link.split("/").pop()!;
    const log = fs.readFileSync(path.join(E2E_DATA_DIR, "server.log"), "utf8");
    expect(log).toContain(`/customer/payment-request/${token.slice(0, 6)}…`);
    expect(log).not.toContain(token.slice(0, 12));
  });

  test("'Sign in to use a saved card' with a part payment typed: signed in, back on the request with that amount", async ({
    page,
    hostRequest,
  }) => {
    const since = Date.now();
    const request = await createRequest(hostRequest, {
      amountCents: 30_000,
      allowPartPayment: true,
      minPartPaymentCents: 1_000,
      description: "Sign-in round trip",
    });
    const { link } = await linkFromMail(request.reference, since);
    await page.goto(link);
    await page.getByLabel("Amount to pay").fill("25.00");
    // A button of the pay form: the amount typed goes along, the card fields never do (decision 077).
    await page.getByRole("button", { name: "Sign in to use a saved card or PayTo agreement" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?/);
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(
      `/payment/payment-request/${request.reference}?amount=2500`,
    );
    await page.getByLabel("Email").fill(payer());
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/${request.reference}?amount=2500`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Payment request ${request.reference}`);
    await expect(page.getByLabel("Amount to pay")).toHaveValue("25.00");
    await expectAccessible(page);
  });

  test("an expired link, a cancelled one, and links that are not valid say so, with no form", async ({
    page,
    hostRequest,
  }) => {
    const expired = await page.goto(`${ACME}/customer/payment-request/${e2eLinkToken("expired", project())}`);
    expect(expired?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This request has expired");
    await expect(page.getByLabel("Card number")).toHaveCount(0);
    await expectAccessible(page);

    const since = Date.now();
    const request = await createRequest(hostRequest, { amountCents: 4_500, description: "Deposit" });
    const { link } = await linkFromMail(request.reference, since);
    const cancelled = await hostRequest.post(`${ACME}/api/back-office/payment-requests/${request.id}/cancel`, {
      headers: {
        authorization: `Bearer ${DEMO_API_KEYS["acme.localhost"]}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      data: {},
    });
    expect(cancelled.status()).toBe(200);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This request was cancelled");
    await expect(page.getByRole("main")).toContainText("accounts@acme.example");
    await expectAccessible(page);

    // Truncated, tampered, guessed, and the real one on another host: one page, no hint.
    const token = link.split("/").pop()!;
    for (const url of [
      `${ACME}/customer/payment-request/${token.slice(0, 40)}`,
      `${ACME}/customer/payment-request/${token.slice(0, 58)}${token.endsWith("A") ? "B" : "A"}`,
      `${ACME}/customer/payment-request/${"Z".repeat(59)}`,
      `${KIWI}/customer/payment-request/${token}`,
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");
    }
    await expectAccessible(page);
  });

  test("an invoice's own link: view it, pay part of it with a new card, and the receipt", async ({ page }) => {
    const link = `${ACME}/customer/invoices-and-payments/${e2eLinkToken("invoice", project())}`;
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${account()}-INV-022`);
    await expectAccessible(page);
    await page.getByLabel("Amount to pay").fill("12.50");
    await fillCard(page);
    await updateTotal(page);
    await fillCard(page);
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL(/\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    await expect(page.getByRole("list", { name: "Invoices" })).toContainText(`${account()}-INV-022`);
    await expectAccessible(page);
    // The signed-in invoice pages of the same folder are still there (and still need a session).
    const signedIn = await page.goto(`${ACME}/customer/invoices-and-payments/invoices`);
    expect(new URL(signedIn!.url()).pathname).toBe("/auth/signin");
  });
});
