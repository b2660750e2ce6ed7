import { readFileSync } from "node:fs";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { keepFirstPage } from "../support/pdf-pictures";
import { ACME, expect, expectAccessible, KIWI, PHONE, signInAs, test } from "./fixtures";

/**
 * Documents a clerk files (issue 34): from an invoice's page on a phone, one tap on "Download PDF" gives a
 * file named for the business and the invoice, with JavaScript on and off, on both brands. The first page
 * of each file is kept as a picture with the run's results (poppler's pdftoppm, which CI installs), to
 * look at: the brand's bar and logo, the facts, how to pay.
 */
const BRANDS = [
  { name: "acme", origin: ACME, email: "olivia@coastal.example", business: "Acme-Plumbing-Supplies" },
  { name: "kiwi", origin: KIWI, email: "liam@tasman.example", business: "Kiwi-Freight-Co" },
] as const;

test.describe("an invoice as a PDF", () => {
  test.use({ viewport: PHONE });

  for (const brand of BRANDS) {
    test(`${brand.name}: from the invoice's page, one tap, a tagged A4 file named for the business and the invoice`, async ({
      page,
    }, testInfo) => {
      await signInAs(page, brand.origin, brand.email, DEMO_PASSWORD);
      // The unpaid invoices (the list as it opens): the file says how to pay.
      await page.goto(`${brand.origin}/customer/invoices-and-payments/invoices`);
      await page.locator('main a[href*="/customer/invoices-and-payments/invoice/"]').first().click();
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toHaveText(/^Invoice /);
      const number = (await heading.innerText()).replace(/^Invoice /, "");

      const download = page.getByRole("link", { name: "Download PDF" });
      await expect(download).toBeVisible();
      // A target a thumb can hit.
      const box = (await download.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      await expectAccessible(page);

      const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
      expect(file.suggestedFilename()).toBe(`${brand.business}-${number}.pdf`);
      const saved = testInfo.outputPath(file.suggestedFilename());
      await file.saveAs(saved);
      const bytes = readFileSync(saved);
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      // Still on the invoice's page: a download is not a navigation.
      await expect(heading).toHaveText(`Invoice ${number}`);

      await keepFirstPage(testInfo, saved, `${brand.name}-invoice`);
    });
  }
});

test.describe("a statement as a PDF", () => {
  test.use({ viewport: PHONE });

  for (const brand of BRANDS) {
    test(`${brand.name}: the statement's dates, one tap, the period's lines between its balances, and the balance by age`, async ({
      page,
    }, testInfo) => {
      await signInAs(page, brand.origin, brand.email, DEMO_PASSWORD);
      // The period chosen on the page, as a person does (a plain GET form, with or without JavaScript).
      await page.goto(`${brand.origin}/statements`);
      await page.getByLabel("From").fill("2026-01-01");
      await page.getByLabel("To").fill("2026-06-30");
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(/from=2026-01-01&to=2026-06-30/);
      const download = page.getByRole("link", { name: "Download the statement (PDF)" });
      await expect(download).toHaveAccessibleDescription(
        "Every line from Jan 1, 2026 to Jun 30, 2026, with the opening and closing balances and the balance by age. A4, to file or to print.",
      );
      expect((await download.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await expectAccessible(page);
      const number = /\(([A-Z0-9-]+)\)/.exec(await page.getByRole("main").locator("p").first().innerText())![1];

      const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
      expect(file.suggestedFilename()).toBe(`${brand.business}-Statement-${number}-2026-01-01-to-2026-06-30.pdf`);
      const saved = testInfo.outputPath(file.suggestedFilename());
      await file.saveAs(saved);
      expect(readFileSync(saved).subarray(0, 5).toString("latin1")).toBe("%PDF-");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statement");
      await keepFirstPage(testInfo, saved, `${brand.name}-statement`);
    });
  }
});
