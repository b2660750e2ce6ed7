import type { Browser, Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { ACME, expect, expectAccessible, KIWI, PHONE, signInAs, test } from "./fixtures";

/**
 * Host admins find what they may do (issue 32; decision 080): the shell's Admin section, on a
 * phone (inside the Menu, a native disclosure) and on a desktop (its own bar), leads to Branding
 * in one tap; /admin lists what an admin may do; /admin/admins adds and removes an admin. Run with
 * JavaScript and without (the two Playwright projects). The demo admins sign in; each project has
 * a contact of its own (`grantee-<project>@<brand>.test`) to make an admin and remove again.
 */
const BRANDS = [
  { slug: "acme", origin: ACME, admin: "admin@acme.example", name: "Acme Plumbing Supplies" },
  { slug: "kiwi", origin: KIWI, admin: "admin@kiwi.example", name: "Kiwi Freight Co." },
] as const;

const DESKTOP = { width: 1280, height: 800 };

/** The Admin section the shell shows at this width: in the opened Menu on a phone, else in its bar. */
async function adminMenu(page: Page) {
  // The whole document first: a page that has just committed may not have parsed its header yet, and
  // isVisible() does not wait (a Menu not yet there would be skipped, not clicked).
  await page.waitForLoadState("domcontentloaded");
  const banner = page.getByRole("banner");
  const menuButton = banner.getByText("Menu", { exact: true });
  if (await menuButton.isVisible()) await menuButton.click();
  return banner.getByRole("navigation", { name: "Admin" }).filter({ visible: true });
}

async function otherBrowser(browser: Browser, jsEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled });
  return { context, page: await context.newPage() };
}

test.describe("host admins", () => {
  for (const brand of BRANDS) {
    test(`${brand.name}: the Admin menu leads to Branding in one tap, at 360 and 1280 px`, async ({ page }) => {
      await signInAs(page, brand.origin, brand.admin, DEMO_PASSWORD);
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        await page.goto(`${brand.origin}/`);
        const menu = await adminMenu(page);
        await expect(menu.getByRole("link")).toHaveText(["Admin home", "Branding", "Admins"]);
        const width = viewport.width;
        await page.screenshot({ path: test.info().outputPath(`admin-menu-${brand.slug}-${width}.png`) });
        await menu.getByRole("link", { name: "Branding", exact: true }).click();
        await expect(page).toHaveURL(`${brand.origin}/admin/branding`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Branding");
      }

      // Branding and its preview as the admin first finds them on a phone (no preview running in this
      // session; the page reads a draft another journey may have saved, and changes nothing).
      await page.setViewportSize(PHONE);
      await page.goto(`${brand.origin}/admin/branding`);
      await expect(page.getByRole("button", { name: "Save draft" })).toBeVisible();
      await expectAccessible(page);
      // The draft form's images are below the first screen: lazy (spec §9, decision 094), and there when
      // the admin scrolls to them (so the whole-page picture shows them too).
      for (const name of ["The current logo", "The current favicon"]) {
        const image = page.getByRole("img", { name, exact: true });
        await expect(image).toHaveAttribute("loading", "lazy");
        await image.scrollIntoViewIfNeeded();
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
          .toBe(true);
      }
      await page.screenshot({ path: test.info().outputPath(`branding-${brand.slug}-360.png`), fullPage: true });
      await page.goto(`${brand.origin}/admin/branding/preview`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // No preview running here: nothing to stop; a saved draft (if any) is one tap from its preview.
      await expect(page.getByRole("button", { name: "Stop preview" })).toHaveCount(0);
      await expectAccessible(page, { skipFrames: true });
      await page.screenshot({
        path: test.info().outputPath(`branding-preview-${brand.slug}-360.png`),
        fullPage: true,
      });

      // The admin home: what an admin may do here, each a link.
      await page.setViewportSize(PHONE);
      await (await adminMenu(page)).getByRole("link", { name: "Admin home" }).click();
      await expect(page).toHaveURL(`${brand.origin}/admin`);
      await expect(page).toHaveTitle(`Admin · ${brand.name}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 2 })).toHaveText(["Branding", "Admins"]);
      await expectAccessible(page);
      await page.screenshot({ path: test.info().outputPath(`admin-home-${brand.slug}-360.png`), fullPage: true });

      await main.getByRole("link", { name: "Admins" }).click();
      await expect(page).toHaveURL(`${brand.origin}/admin/admins`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admins");
      await expect(main.getByRole("listitem").filter({ hasText: brand.admin })).toContainText("You");
      await expectAccessible(page);
      await page.screenshot({ path: test.info().outputPath(`admins-${brand.slug}-360.png`), fullPage: true });
    });

    test(`${brand.name}: an admin makes another contact an admin and removes them again`, async ({
      page,
      browser,
      jsEnabled,
    }, testInfo) => {
      // Acme on a phone, Kiwi on a desktop: the same screen at both widths.
      await page.setViewportSize(brand.slug === "acme" ? PHONE : DESKTOP);
      const grantee = e2eEmail("grantee", testInfo.project.name, `${brand.slug}.localhost`);
      const granteeName = `Test grantee ${testInfo.project.name}`;

      // The contact, signed in in a browser of their own, has no Admin menu and no admin pages.
      const other = await otherBrowser(browser, jsEnabled);
      await signInAs(other.page, brand.origin, grantee, DEMO_PASSWORD);
      await other.page.goto(`${brand.origin}/`);
      await expect(other.page.getByRole("banner").getByRole("navigation", { name: "Admin" })).toHaveCount(0);
      expect((await other.page.goto(`${brand.origin}/admin/branding`))?.status()).toBe(404);

      await signInAs(page, brand.origin, brand.admin, DEMO_PASSWORD);
      await page.goto(`${brand.origin}/admin/admins`);
      const email = page.getByLabel("Email address");

      // Someone who is no contact of this business: said at the top and at the field, what was typed kept.
      await email.fill("nobody@nowhere.test");
      await page.getByRole("button", { name: "Make admin" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary).toContainText(`${brand.name} has no contact with that email address.`);
      // Focused with and without JavaScript: the page ships no React (decision 084), the browser's
      // autofocus puts the reader at the summary of the refused post.
      await expect(summary.locator("..")).toBeFocused();
      await expect(email).toHaveValue("nobody@nowhere.test");
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page);

      await email.fill(grantee);
      await page.getByRole("button", { name: "Make admin" }).click();
      await expect(page.getByRole("main").getByRole("status")).toHaveText(
        `${granteeName} is now an admin. They see the Admin menu on their next page.`,
      );
      const row = page.getByRole("main").getByRole("listitem").filter({ hasText: grantee });
      await expect(row).toBeVisible();

      // The contact's next page has the Admin menu, and Branding opens.
      await other.page.goto(`${brand.origin}/`);
      const otherMenu = await adminMenu(other.page);
      await otherMenu.getByRole("link", { name: "Branding", exact: true }).click();
      await expect(other.page).toHaveURL(`${brand.origin}/admin/branding`);
      await expect(other.page.getByRole("heading", { level: 1 })).toHaveText("Branding");

      // Remove, asked once.
      await row.getByRole("link", { name: `Remove ${granteeName} as an admin` }).click();
      await expect(page.getByRole("heading", { level: 2, name: `Remove ${granteeName} as an admin?` })).toBeVisible();
      await expectAccessible(page);
      const width = page.viewportSize()?.width;
      await page.screenshot({
        path: test.info().outputPath(`admins-remove-${brand.slug}-${width}.png`),
        fullPage: true,
      });
      await page.getByRole("button", { name: "Remove as admin" }).click();
      await expect(page.getByRole("main").getByRole("status")).toHaveText(`${granteeName} is no longer an admin.`);
      await expect(page.getByRole("main").getByRole("listitem").filter({ hasText: grantee })).toHaveCount(0);

      // At once: the contact's next request is refused.
      expect((await other.page.goto(`${brand.origin}/admin/branding`))?.status()).toBe(404);
      await other.page.goto(`${brand.origin}/`);
      await expect(other.page.getByRole("banner").getByRole("navigation", { name: "Admin" })).toHaveCount(0);
      await other.context.close();

      // The branding history says who did what to whom.
      await page.goto(`${brand.origin}/admin/branding`);
      const history = page.getByRole("region", { name: "History" });
      await expect(history).toContainText(`Admin rights removed from ${granteeName}`);
      await expect(history).toContainText(`Admin rights given to ${granteeName}`);
    });
  }

  test("a contact who is no admin sees no Admin menu, and /admin is 'Page not found'", async ({ page }, testInfo) => {
    await signInAs(page, ACME, e2eEmail("other", testInfo.project.name), DEMO_PASSWORD);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(`${ACME}/`);
      const banner = page.getByRole("banner");
      const menuButton = banner.getByText("Menu", { exact: true });
      if (await menuButton.isVisible()) await menuButton.click();
      await expect(banner.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
      await expect(banner.getByRole("link", { name: "Branding" })).toHaveCount(0);
    }
    for (const path of ["/admin", "/admin/admins"]) {
      expect((await page.goto(`${ACME}${path}`))?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    }
  });
});
