import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, KIWI, signInAs, test } from "./fixtures";

/**
 * What a customer sees, kept with every run: the main pages of two brands on a phone (360 × 740)
 * and a desktop (1280 × 800), with JavaScript on and off, as full-page screenshots attached to
 * the test's results (test-results/…/). Only pages are read; nothing is paid or saved. The same
 * list drives `npm run screenshots` (scripts/screenshots.ts), which also makes the README image.
 */
const BRANDS = [
  { name: "acme", origin: ACME, email: "olivia@coastal.example" },
  { name: "kiwi", origin: KIWI, email: "liam@tasman.example" },
] as const;

const VIEWPORTS = [
  { name: "360", width: 360, height: 740 },
  { name: "1280", width: 1280, height: 800 },
] as const;

const PAGES = [
  { name: "dashboard", path: "/", heading: /^Welcome/ },
  { name: "statements", path: "/statements", heading: "Statement" },
  { name: "invoices", path: "/customer/invoices-and-payments/invoices", heading: "Invoices and payments" },
  { name: "pay", path: "/customer/invoices-and-payments/pay?all=1", heading: "Pay invoices" },
  { name: "payment-methods", path: "/payment-methods", heading: "Payment methods" },
  { name: "add-card", path: "/payment-methods/cards/new", heading: "Add a card" },
  // PayTo is Australian (spec §1; decision 027): only acme offers it.
  { name: "set-up-payto", path: "/payment-methods/payto/new", heading: "Set up PayTo", only: "acme" },
] as const;

for (const brand of BRANDS) {
  for (const viewport of VIEWPORTS) {
    test(`screenshots: ${brand.name} at ${viewport.name} px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(`${brand.origin}/auth/signin`);
      await keep(`${brand.name}-sign-in-${viewport.name}`);
      await signInAs(page, brand.origin, brand.email, DEMO_PASSWORD);
      for (const target of PAGES) {
        if ("only" in target && target.only !== brand.name) continue;
        if (target.path !== "/") await page.goto(`${brand.origin}${target.path}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.heading);
        // Nothing runs sideways on any of them, at either width.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await keep(`${brand.name}-${target.name}-${viewport.name}`);
      }

      async function keep(name: string) {
        const file = testInfo.outputPath(`${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(name, { path: file, contentType: "image/png" });
      }
    });
  }
}
