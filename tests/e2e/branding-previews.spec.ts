import { randomUUID } from "node:crypto";
import type { FrameLocator, Page } from "@playwright/test";
import { DEMO_API_KEYS, DEMO_PASSWORD } from "../../db/seed/demo";
import { deriveBrand } from "../../app/lib/brand-colours";
import { todayIn } from "../../app/lib/dates";
import { addDays } from "../../app/lib/instalments";
import { scanText } from "../support/text-scan";
import {
  ACME,
  allowConsoleError,
  expect,
  expectAccessible,
  KIWI,
  PHONE,
  signInAs,
  test,
  type HostRequest,
} from "./fixtures";

/**
 * The brand preview of every page contacts see (issue 32; decision 082): the sign-in page as a
 * signed-out visitor gets it, and the pages contacts open from an email — a payment request, an
 * ad-hoc payment link, a payment schedule's proposal, an agreement offer — each with the draft
 * colour, the business's own records and the signed-out shell, in the preview's frames at 360 px
 * with JavaScript on and off. The demo admins save a draft only (never publish), so no other
 * journey sees either brand move; the preview is this browser's session alone.
 */
const DRAFT_COLOUR = "#6b2e8f";
const derived = deriveBrand(DRAFT_COLOUR);
if (!derived.ok) throw new Error(`${DRAFT_COLOUR} must pass every contrast pair`);
const DRAFT_BANNER = rgb(derived.tokens.colors.bannerBackground);

const BRANDS = [
  { slug: "acme", host: "acme.localhost", origin: ACME, email: "admin@acme.example", name: "Acme Plumbing Supplies" },
  { slug: "kiwi", host: "kiwi.localhost", origin: KIWI, email: "admin@kiwi.example", name: "Kiwi Freight Co." },
] as const;

/**
 * The demo data has no payment schedule and no agreement offer for Kiwi: the journey makes its own
 * through the back office (the schedule not sent; the offer's email goes to the test's mail catcher),
 * and withdraws both after.
 */
async function kiwiProposals(hostRequest: HostRequest) {
  const backOffice = async (pathname: string, data: unknown, status = 201) => {
    const response = await hostRequest.post(`${KIWI}/api/back-office${pathname}`, {
      headers: {
        authorization: `Bearer ${DEMO_API_KEYS["kiwi.localhost"]}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      data,
    });
    expect(response.status(), await response.text()).toBe(status);
    return response.json();
  };
  const { schedule } = await backOffice("/payment-schedules", {
    account: "KF-700",
    contact: "liam@tasman.example",
    send: false,
    amountCents: 600_00,
    description: "Freight for the season, in three parts",
    instalments: { count: 3, frequency: "fortnightly", firstDate: addDays(todayIn("Pacific/Auckland", new Date()), 5) },
  });
  const title = `Freight terms ${randomUUID().slice(0, 6)}`;
  const { document } = await backOffice("/agreements", {
    kind: "terms-of-trade",
    title,
    body: `# ${title}\n\nThese terms apply to every freight booking on your trade account.\n`,
  });
  const { offer } = await backOffice("/agreement-offers", {
    document: document.id,
    account: "KF-700",
    contact: "liam@tasman.example",
  });
  return async () => {
    await backOffice(`/payment-schedules/${schedule.reference}/withdraw`, {}, 200);
    await backOffice(`/agreement-offers/${offer.reference}/withdraw`, {}, 200);
  };
}

const LINK_PAGES = [
  { kind: "request", label: "Payment request link", heading: /asks you to pay/ },
  { kind: "adhoc", label: "Ad-hoc payment link", heading: /^Pay an amount$/ },
  { kind: "schedule", label: "Payment schedule link", heading: /Payment schedule PS-/ },
  { kind: "agreement", label: "Agreement link", heading: /^(?!Preview: )\S/ },
] as const;

function rgb(hex: string) {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

async function headerColour(scope: Page | FrameLocator) {
  return scope
    .locator("header")
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
}

/** What only a signed-in shell has: the name of whoever is signed in, and their login's menu. */
async function expectSignedOutShell(scope: Page | FrameLocator) {
  await expect(scope.getByText(/Signed in as/)).toHaveCount(0);
  await expect(scope.getByRole("navigation", { name: "Your login" })).toHaveCount(0);
  await expect(scope.getByRole("button", { name: "Sign out" })).toHaveCount(0);
}

type Brand = (typeof BRANDS)[number];

async function previewJourney(page: Page, brand: Brand, outputPath: (name: string) => string) {
  await signInAs(page, brand.origin, brand.email, DEMO_PASSWORD);
  await page.goto(`${brand.origin}/admin/branding`);
  await page.getByLabel("My own brand colour").check();
  await page.getByLabel("Brand colour", { exact: true }).fill(DRAFT_COLOUR);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved. Customers still see the published brand.")).toBeVisible();
  await page.getByRole("button", { name: "Preview the draft" }).click();
  await expect(page).toHaveURL(`${brand.origin}/admin/branding/preview`);

  // Sign-in, as a visitor gets it: no one signed in, though this admin still is.
  for (const js of ["on", "off"]) {
    const frame = page.frameLocator(`iframe[title="Sign in page, 360 px, JavaScript ${js}"]`);
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await expect(frame.getByLabel("Email")).toBeVisible();
    await expect.poll(() => headerColour(frame)).toBe(DRAFT_BANNER);
    await expectSignedOutShell(frame);
  }
  await expect(page.getByText(/Signed in as/)).not.toHaveCount(0);

  for (const link of LINK_PAGES) {
    await page.getByLabel("Page").selectOption(link.kind);
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(`${brand.origin}/admin/branding/preview?page=${link.kind}`);
    for (const js of ["on", "off"]) {
      const frame = page.frameLocator(`iframe[title="${link.label} page, 360 px, JavaScript ${js}"]`);
      await expect(frame.getByRole("heading", { level: 1 })).toHaveText(link.heading);
      await expect(frame.getByText(/^Preview with the draft brand of the page a contact opens/)).toBeVisible();
      await expect(frame.locator("header")).toContainText(brand.name);
      await expect.poll(() => headerColour(frame)).toBe(DRAFT_BANNER);
      await expectSignedOutShell(frame);
      // Another business's name never appears.
      const other = BRANDS.find((b) => b.slug !== brand.slug)!;
      await expect(frame.locator("body")).not.toContainText(other.name);
    }
  }
  await expectAccessible(page, { skipFrames: true });

  // Each page as the frame shows it, opened on its own: checked with axe, read for slips in its words, and
  // kept as a screenshot. Each in a tab of its own, closed after: leaving a hydrated page by a new document
  // while its script still fetches route patches is a console error that says nothing about the page.
  for (const link of LINK_PAGES) {
    const view = await page.context().newPage();
    const problems: string[] = [];
    view.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    view.on("pageerror", (error) => problems.push(error.message));
    try {
      await view.goto(`${brand.origin}/admin/branding/preview/page/${link.kind}`);
      await expect(view.getByRole("heading", { level: 1 })).toHaveText(link.heading);
      await expectSignedOutShell(view);
      await expectAccessible(view);
      // Read as a customer page: it is one, shown to an admin.
      expect(scanText(await view.locator("body").innerText(), { customerPage: true })).toEqual([]);
      await view.screenshot({ path: outputPath(`preview-${link.kind}-${brand.slug}-360.png`), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await view.close();
    }
  }

  // Stop, from the preview page itself (a form: no new document with JavaScript).
  await page.getByRole("button", { name: "Stop preview" }).first().click();
  await expect(page).toHaveURL(`${brand.origin}/admin/branding?done=stopped`);
}

test.describe("the brand preview shows every page contacts see", () => {
  test.use({ viewport: PHONE });

  for (const brand of BRANDS) {
    test(`${brand.name}: sign-in signed out, and each emailed link's page, with the draft colour`, async ({
      page,
      hostRequest,
    }, testInfo) => {
      // Five pages, each in two frames with their checks, and each opened once more for its screenshot.
      test.setTimeout(120_000);
      allowConsoleError(
        page,
        /Blocked script execution in '.*' because the document's frame is sandboxed/,
        "the preview's JavaScript-off frames are sandboxed without scripts on purpose",
      );
      const withdraw = brand.slug === "kiwi" ? await kiwiProposals(hostRequest) : null;
      try {
        await previewJourney(page, brand, testInfo.outputPath.bind(testInfo));
      } finally {
        await withdraw?.();
      }
    });
  }

  test("a preview's agreement form accepts nothing: the post is refused and says so", async ({ page }) => {
    allowConsoleError(
      page,
      /Blocked script execution in '.*' because the document's frame is sandboxed/,
      "the preview's JavaScript-off frames are sandboxed without scripts on purpose",
    );
    await signInAs(page, ACME, "admin@acme.example", DEMO_PASSWORD);
    await page.goto(`${ACME}/admin/branding`);
    await page.getByLabel("My own brand colour").check();
    await page.getByLabel("Brand colour", { exact: true }).fill(DRAFT_COLOUR);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("button", { name: "Preview the draft" }).click();
    await expect(page).toHaveURL(`${ACME}/admin/branding/preview`);
    const off = page.frameLocator('iframe[title="Sign in page, 360 px, JavaScript off"]');
    await expect(off.getByRole("heading", { level: 1 })).toHaveText("Sign in");

    await page.goto(`${ACME}/admin/branding/preview/page/agreement`);
    await expectAccessible(page);
    await page.locator("#typedName").fill("Alex Admin");
    await page.locator("#agreed").check();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Accept", exact: true }).click(),
    ]);
    expect(answer.status()).toBe(403);
    await expect(page.getByText("This is a preview: nothing was paid, accepted or sent.")).toBeVisible();
    // The form as it was: the page again, with the refusal above it.
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Accept", exact: true })).toBeVisible();
  });
});
