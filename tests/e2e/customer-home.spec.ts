import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, expectAccessible, KIWI, signInAs, test } from "./fixtures";
import {
  customerStyleAccountName,
  customerStyleAccountNumber,
  customerStyleEmail,
  homeInvoiceNumber,
  homeRequestReference,
  kiwiHomeEmail,
  kiwiHomeRequestReference,
  type CustomerStyleRole,
} from "../support/e2e-customer-style";

/**
 * A contact without accessCustomerPortal (issue 14; decision 033): signing in lands on their own
 * home, never on "Page not found"; it lists what is addressed to them and a menu of only the
 * pages they may open; every portal page is still "Page not found" for them.
 */
const PASSWORD = "Portal!2026";
const project = () => test.info().project.name;
const who = (role: CustomerStyleRole) => customerStyleEmail(role, project());

async function signIn(page: Page, email: string, origin = ACME) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The shell's menu of the current width: the bar from 900 px, the Menu disclosure below. */
async function menu(page: Page) {
  // The whole document first: a page that has just committed may not have parsed its header yet, and
  // isVisible() does not wait (a Menu not yet there would be skipped, not clicked).
  await page.waitForLoadState("domcontentloaded");
  const banner = page.getByRole("banner");
  const menuButton = banner.getByText("Menu", { exact: true });
  if (await menuButton.isVisible()) await menuButton.click();
  return banner.getByRole("navigation", { name: "Account menu" }).filter({ visible: true });
}

test.describe("the customer-style home", () => {
  test("a customer-style contact signs in and lands on their page; portal pages stay 'Page not found'", async ({
    page,
  }) => {
    await signIn(page, who("home"));
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your payments");
    await expectAccessible(page);

    // The requests addressed to them, with what is left, the due date and the state.
    const requests = page.getByRole("region", { name: "Payment requests", exact: true });
    const open = page.getByRole("row").filter({ hasText: homeRequestReference(project(), "open") });
    await expect(open).toContainText("$420.00");
    await expect(open).toContainText("Sent");
    await expect(open).toContainText(customerStyleAccountNumber("home", project()));
    await expect(
      open.getByRole("link", { name: homeRequestReference(project(), "open"), exact: true }),
    ).toHaveAttribute("href", `/payment/payment-request/${homeRequestReference(project(), "open")}`);
    const paid = page.getByRole("row").filter({ hasText: homeRequestReference(project(), "paid") });
    await expect(paid).toContainText("Paid");
    await expect(paid).toContainText("$0.00");
    // Someone else's request on the same account is not theirs to see.
    await expect(requests).not.toContainText(homeRequestReference(project(), "other"));
    // Each request opens signed in, with the way to pay it.
    await open.getByRole("link", { name: homeRequestReference(project(), "open"), exact: true }).click();
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/${homeRequestReference(project(), "open")}`);
    await expect(page.getByRole("main")).toContainText("$420.00");
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your payments");

    // Ad hoc: acme takes payments of any amount, between its limits, into their account.
    const adhoc = page.getByRole("region", { name: "Pay an amount you choose" });
    await expect(adhoc).toContainText("from $10.00 to $5,000.00");
    await expect(
      adhoc.getByRole("link", {
        name: `Pay an amount to ${customerStyleAccountName("home", project())} (${customerStyleAccountNumber("home", project())})`,
      }),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Recent receipts" })).toContainText(
      "You haven't paid anything through the portal yet.",
    );
    // No agreement has been offered to them (decision 036): the section says so.
    await expect(page.getByRole("region", { name: "Agreements", exact: true })).toContainText(
      "hasn't offered you any agreement",
    );
    // Payment schedules (issue 15): none proposed to this contact's accounts, and the section says so.
    await expect(page.getByRole("region", { name: "Payment schedules", exact: true })).toContainText(
      "No payment schedules yet.",
    );

    // The menu offers only what they may open (decision 073).
    const nav = await menu(page);
    await expect(nav.getByRole("link")).toHaveText([
      "Your payments",
      "Invoices and payments",
      "Payment requests",
      "Payment schedules",
      "Agreements",
      "Pay an amount",
    ]);
    await nav.getByRole("link", { name: "Pay an amount" }).click();
    await expect(page).toHaveURL(/\/payment\/adhoc\/[0-9a-f-]{36}$/);

    // Portal pages are still "Page not found" for them; home (/) brings them back to their page.
    for (const path of ["/statements", "/account", "/payment-methods", "/accounts"]) {
      const response = await page.goto(`${ACME}${path}`);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    }
    await expectAccessible(page);
    await page.getByRole("link", { name: "Go home" }).click();
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your payments");
  });

  // The page with every section filled: Olivia's accounts have payment schedules (the demo seed). The schedules'
  // scrolling table is named apart from its section: two regions called "Payment schedules" are one too many.
  test("with payment schedules listed, the page's regions have names of their own", async ({ page }) => {
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    await page.goto(`${ACME}/payment/payment-request/all`);
    await expect(page.getByRole("region", { name: "Payment schedules", exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Your payment schedules" })).toBeVisible();
    await expectAccessible(page);
  });

  test("lands on home at 360 × 740, the menu leads to each section, and Pay opens what it says", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, who("home"));
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);

    // The invoice they may pay comes first, with its due date and its Pay; the disputed one and the
    // other contact's account's invoice are not offered.
    const invoices = page.getByRole("region", { name: "Invoices you can pay" });
    const payable = invoices.getByRole("row").filter({ hasText: homeInvoiceNumber(project(), "payable") });
    await expect(payable).toContainText("$318.97");
    await expect(payable).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(invoices).not.toContainText(homeInvoiceNumber(project(), "disputed"));
    await expect(invoices).not.toContainText(homeInvoiceNumber(project(), "other"));
    // The open request's primary action names its amount; the paid one is only viewed.
    await expect(
      page.getByRole("link", { name: `Pay $420.00 for request ${homeRequestReference(project(), "open")}` }),
    ).toBeVisible();
    await expect(
      page.getByRole("link", { name: `View request ${homeRequestReference(project(), "paid")}` }),
    ).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath("home-acme-360.png"), fullPage: true });

    // The menu on the phone: every section that opens for them, language and sign-out beside.
    const nav = await menu(page);
    await expect(nav.getByRole("link", { name: "Your payments" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("home-menu-acme-360.png") });
    await nav.getByRole("link", { name: "Payment requests" }).click();
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all#home-requests`);
    await page
      .getByRole("link", { name: `Pay $420.00 for request ${homeRequestReference(project(), "open")}` })
      .click();
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/${homeRequestReference(project(), "open")}`);
    await expect(page.getByRole("main")).toContainText("$420.00");

    // The brand leads home; each of the menu's other sections opens (never "Page not found").
    await page.getByRole("banner").getByRole("link", { name: /Acme/ }).click();
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);
    for (const [name, url] of [
      ["Payment schedules", /\/customer\/payment-schedule$/],
      ["Agreements", /\/customer\/agreement\/all$/],
      ["Invoices and payments", /\/customer\/invoices-and-payments\/invoices/],
    ] as const) {
      await (await menu(page)).getByRole("link", { name }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Page not found");
    }

    // An invoice's Pay opens the pay page with that invoice.
    await page.goto(`${ACME}/payment/payment-request/all`);
    await page
      .getByRole("button", { name: `Pay $318.97 for invoice ${homeInvoiceNumber(project(), "payable")}` })
      .click();
    await expect(page).toHaveURL(/\/customer\/invoices-and-payments\/pay\?invoice=[0-9a-f-]{36}$/);
    await expect(page.getByRole("main")).toContainText(homeInvoiceNumber(project(), "payable"));
  });

  test("the home of both brands at 360 and 1280 px", async ({ page }) => {
    for (const [brand, origin, email] of [
      ["acme", ACME, who("home")],
      ["kiwi", KIWI, kiwiHomeEmail(project())],
    ] as const) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, email, origin);
      await expect(page).toHaveURL(`${origin}/payment/payment-request/all`);
      if (brand === "kiwi") {
        await expect(page.getByRole("main")).toContainText(kiwiHomeRequestReference(project()));
      }
      // From 900 px the sections sit in the bar.
      await expect(
        page.getByRole("banner").getByRole("navigation", { name: "Account menu" }).filter({ visible: true }),
      ).toContainText("Invoices and payments");
      await expectAccessible(page);
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
        const shot = await page.screenshot({ fullPage: true });
        await test.info().attach(`home ${brand} ${width}px`, { body: shot, contentType: "image/png" });
        await page.screenshot({ path: test.info().outputPath(`home-${brand}-${width}.png`), fullPage: true });
      }
      await page.getByRole("banner").getByText("Menu", { exact: true }).click();
      await page.getByRole("banner").getByRole("button", { name: "Sign out" }).filter({ visible: true }).click();
      await expect(page).toHaveURL(/\/auth\/signin/);
    }
  });

  test("a portal contact still lands on the dashboard", async ({ page }) => {
    await signIn(page, who("adhocbook"));
    await expect(page).toHaveURL(`${ACME}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Welcome/);
  });
});
