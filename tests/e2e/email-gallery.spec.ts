import { DEMOS, everyEmail } from "../support/email-gallery";
import { ACME, expect, KIWI, test } from "./fixtures";

/**
 * Every email the portal sends, as a mail client shows it (issue 32): each of the 25, for both demo
 * brands, at 360 px and at 800 px, as full-page screenshots in the test's output — including the
 * ones the admin's branding preview does not offer (the password reset and email confirmation, a
 * PayID receipt, an instalment declined or in arrears, a credit application received and decided, a
 * trade-reference request, the response requests and the answers the business gets, the invoice and
 * ad-hoc links). The words are checked by tests/unit/email-words.test.ts; here each
 * email must fit the screen, with its logo loaded from the running portal (a PNG on the host, as a
 * mail client fetches it) and no text smaller than 12 px. An email runs no script, so the gallery
 * is made once, in the JavaScript project.
 */
const BRANDS = [
  { slug: "acme", demo: DEMOS.acme!, origin: ACME },
  { slug: "kiwi", demo: DEMOS.kiwi!, origin: KIWI },
] as const;

const WIDTHS = [360, 800] as const;

test.describe("every email, as a mail client shows it", () => {
  for (const brand of BRANDS) {
    test(`${brand.slug}: every email at 360 and 800 px, as screenshots`, async ({ page, jsEnabled }, testInfo) => {
      test.skip(!jsEnabled, "an email runs no script: the gallery is made once");
      // The links and the logo point at the running portal, as they point at the host's public base.
      const mails = await everyEmail({
        ...brand.demo,
        branding: { ...brand.demo.branding, publicBaseUrl: brand.origin },
      });
      expect(mails).toHaveLength(25);
      for (const [name, mail] of mails) {
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 740 });
          await page.setContent(mail.html, { waitUntil: "load" });
          const layout = await page.evaluate(() => {
            const logo = document.querySelector("img");
            const tooSmall = [...document.querySelectorAll("body *")]
              .filter((element) => element.checkVisibility() && element.childNodes.length > 0)
              .filter((element) =>
                [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim()),
              )
              .filter((element) => Number.parseFloat(getComputedStyle(element).fontSize) < 12)
              .map((element) => element.textContent?.trim().slice(0, 40));
            return {
              scrollWidth: document.documentElement.scrollWidth,
              logo: logo ? { src: logo.src, loaded: logo.complete && logo.naturalWidth > 0 } : null,
              tooSmall,
            };
          });
          expect(layout.scrollWidth, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
          expect(layout.logo?.src, `${name} has its logo`).toBe(`${brand.origin}/brands/${brand.slug}/email-logo.png`);
          expect(layout.logo?.loaded, `${name}: the logo loads`).toBe(true);
          expect(layout.tooSmall, `${name}: text under 12 px`).toEqual([]);
          const file = `${brand.slug}-${name.replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "")}-${width}.png`;
          await page.screenshot({ path: testInfo.outputPath(file), fullPage: true });
        }
      }
    });
  }
});
