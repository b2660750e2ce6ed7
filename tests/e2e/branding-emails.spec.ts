import { randomUUID } from "node:crypto";
import type { FrameLocator, Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { deriveBrand } from "../../app/lib/brand-colours";
import { EMAIL_PREVIEWS } from "../../app/lib/email-previews";
import { brandApiKey, brandEmail, brandHost } from "../support/e2e-brands";
import { waitForMailVia } from "../support/mailbox";
import {
  ACME,
  allowConsoleError,
  expect,
  expectAccessible,
  KIWI,
  MAILBOX,
  PHONE,
  PORT,
  signInAs,
  test,
} from "./fixtures";

/**
 * Emails carry the brand (issue 32, decisions 080–082): the issue's journey. A host admin signs in
 * on a phone, reaches Branding in one tap from the Menu, saves a draft brand colour and logo, sees
 * the payment-request email and the request link page with them in the preview, publishes, and
 * the next request emailed to a signed-out customer carries the colour and a PNG logo on the host. Publishing changes what
 * every page of a host shows, so the journey runs on its project's own business
 * (tests/support/e2e-brands.ts, slot "emails"), never on the demo hosts other journeys read; the
 * screenshots of every email preview are of the demo hosts' published brands, which they only read.
 */
const COLOUR = "#0f766e";
const derived = deriveBrand(COLOUR);
if (!derived.ok) throw new Error(`${COLOUR} is refused`);
const BUTTON = rgb(derived.tokens.colors.button);
const BUTTON_TEXT = rgb(derived.tokens.surface.buttonText);

const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" fill="#0f766e"/><circle cx="20" cy="20" r="12" fill="#fff"/></svg>',
);

function rgb(hex: string) {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

/** The banner's colour of a page shown in a frame. */
async function headerColour(frame: FrameLocator) {
  return frame
    .locator("header")
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
}

/** The "Pay now" button's colours in an email shown in a frame. */
async function buttonColours(frame: FrameLocator) {
  return frame
    .getByRole("link", { name: "Pay now" })
    .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
}

/** The email's logo has loaded (not a broken image) and what it was loaded from. */
async function logoOf(scope: FrameLocator | Page) {
  const logo = scope.locator("img").first();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return (await logo.getAttribute("src"))!;
}

test.describe("emails carry the brand", () => {
  test.use({ viewport: PHONE });

  test("a draft colour in the email preview, then published: the next request email carries it and a PNG logo", async ({
    page,
    hostRequest,
    jsEnabled,
  }, testInfo) => {
    // Saving, previewing five emails in frames, publishing and a sent email: about 20 s quiet (issue 29).
    test.setTimeout(90_000);
    allowConsoleError(
      page,
      /Blocked script execution in '.*' because the document's frame is sandboxed/,
      "the preview's JavaScript-off page frames are sandboxed without scripts on purpose",
    );
    const project = testInfo.project.name;
    const host = brandHost("emails", project);
    const origin = `http://${host}:${PORT}`;
    const account = `E2E-BRAND-EMAILS-${project}`.toUpperCase();
    const sendRequest = async (description: string) => {
      const created = await hostRequest.post(`${origin}/api/back-office/payment-requests`, {
        headers: {
          authorization: `Bearer ${brandApiKey("emails", project)}`,
          "idempotency-key": randomUUID(),
          "content-type": "application/json",
        },
        data: {
          account,
          recipients: [brandEmail("customer", "emails", project)],
          amountCents: 12_345,
          description: `${description} ${jsEnabled ? "with" : "without"} JavaScript`,
          send: true,
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      return ((await created.json()) as { request: { reference: string } }).request;
    };
    // A request the customer has open, so the request link page has something of this business to show.
    await sendRequest("Before the new brand");

    // The host admin signs in on a phone and reaches Branding in one tap from the opened Menu.
    await signInAs(page, origin, brandEmail("admin", "emails", project), DEMO_PASSWORD);
    await page.goto(`${origin}/`);
    await page.getByRole("banner").getByText("Menu", { exact: true }).click();
    await page
      .getByRole("banner")
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Branding", exact: true })
      .click();
    await expect(page).toHaveURL(`${origin}/admin/branding`);

    // A draft: the admin's own colour and a logo (an SVG: emails get it as a PNG).
    await page.getByLabel("My own brand colour").check();
    await page.getByLabel("Brand colour", { exact: true }).fill(COLOUR);
    await page.getByLabel("Logo", { exact: true }).setInputFiles({
      name: "logo.svg",
      mimeType: "image/svg+xml",
      buffer: LOGO_SVG,
    });
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Draft saved. Customers still see the published brand.")).toBeVisible();
    // The page with a draft: its next steps at the top, each region named once (axe: landmark-unique).
    await expectAccessible(page);

    // The preview shows each email with the draft.
    await page.getByRole("button", { name: "Preview the draft" }).click();
    await expect(page).toHaveURL(`${origin}/admin/branding/preview`);
    const emails = page.getByRole("region", { name: "Emails" });
    await expect(emails.getByRole("heading", { level: 3 })).toHaveText([
      "Payment request",
      "Payment reminder",
      "Receipt",
      "Payment schedule",
      "Agreement to review",
    ]);
    for (const width of [360, 800]) {
      const title = `Payment request email, ${width} px`;
      await page.locator(`iframe[title="${title}"]`).scrollIntoViewIfNeeded();
      const frame = page.frameLocator(`iframe[title="${title}"]`);
      await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Payment request");
      expect(await buttonColours(frame)).toEqual([BUTTON, BUTTON_TEXT]);
      // The draft's logo, as the PNG the emails will carry (a draft's file: this admin's alone).
      expect(await logoOf(frame)).toMatch(/\/brand-assets\/[0-9a-f-]{36}\/email-logo\.png$/);
      // The business's own data: its account.
      await expect(frame.getByText(account, { exact: false })).not.toHaveCount(0);
    }
    await expectAccessible(page, { skipFrames: true });

    // The request link page a contact opens from the email, with the draft, signed out.
    await page.getByLabel("Page").selectOption("request");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(`${origin}/admin/branding/preview?page=request`);
    for (const js of ["on", "off"]) {
      const frame = page.frameLocator(`iframe[title="Payment request link page, 360 px, JavaScript ${js}"]`);
      await expect(frame.getByRole("heading", { level: 1 })).toHaveText(/asks you to pay/);
      await expect.poll(() => headerColour(frame)).toBe(rgb(derived.tokens.colors.bannerBackground));
      await expect(frame.getByText(/Signed in as/)).toHaveCount(0);
    }

    // Publish from the preview page.
    const publish = page.getByRole("region", { name: "Publish" });
    await publish.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByText("Published. Customers now see the new brand.")).toBeVisible();

    // A request emailed to the business's customer now carries the published colour and logo.
    const since = Date.now();
    const request = await sendRequest("Brand emails");
    const mail = await waitForMailVia(MAILBOX, brandEmail("customer", "emails", project), {
      since,
      subject: new RegExp(request.reference),
    });
    const html = mail.html!;
    expect(html).toContain(
      `background-color:${derived.tokens.colors.button};color:${derived.tokens.surface.buttonText}`,
    );
    const logoUrl = /<img [^>]*src="([^"]+)"/.exec(html)?.[1];
    expect(logoUrl).toMatch(new RegExp(`^${origin}/brand-assets/[0-9a-f-]{36}/email-logo\\.png$`));
    // Read signed out, as a mail client does: a public PNG on the business's host.
    const logo = await hostRequest.get(logoUrl!);
    expect(logo.status()).toBe(200);
    expect(logo.headers()["content-type"]).toBe("image/png");
    expect(logo.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await logo.body()).subarray(1, 4).toString()).toBe("PNG");
    // Another host does not serve it.
    const elsewhere = await hostRequest.get(logoUrl!.replace(origin, ACME));
    expect(elsewhere.status()).toBe(404);
  });

  for (const brand of [
    { name: "acme", origin: ACME, admin: "admin@acme.example" },
    { name: "kiwi", origin: KIWI, admin: "admin@kiwi.example" },
  ]) {
    test(`every email preview of ${brand.name} at 360 px, as screenshots`, async ({ page }, testInfo) => {
      await signInAs(page, brand.origin, brand.admin, DEMO_PASSWORD);
      for (const kind of EMAIL_PREVIEWS) {
        const response = await page.goto(`${brand.origin}/admin/branding/preview/email/${kind}`);
        expect(response?.status()).toBe(200);
        expect(response?.headers()["cache-control"]).toBe("private, no-store");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect(await logoOf(page)).toMatch(/\/email-logo\.png$/);
        // The email fits a phone: nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        await page.screenshot({ path: testInfo.outputPath(`email-${brand.name}-${kind}-360.png`), fullPage: true });
      }
    });
  }
});
