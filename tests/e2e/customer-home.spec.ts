import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, expectAccessible, signInAs, test } from "./fixtures";
import {
  customerStyleAccountName,
  customerStyleAccountNumber,
  customerStyleEmail,
  homeRequestReference,
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

async function signIn(page: Page, email: string) {
  await page.goto(`${ACME}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The shell's menu of the current width: the bar from 900 px, the Menu disclosure below. */
async function menu(page: Page) {
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
    await expect(open.getByRole("link", { name: homeRequestReference(project(), "open") })).toHaveAttribute(
      "href",
      `/payment/payment-request/${homeRequestReference(project(), "open")}`,
    );
    const paid = page.getByRole("row").filter({ hasText: homeRequestReference(project(), "paid") });
    await expect(paid).toContainText("Paid");
    await expect(paid).toContainText("$0.00");
    // Someone else's request on the same account is not theirs to see.
    await expect(requests).not.toContainText(homeRequestReference(project(), "other"));
    // Each request opens signed in, with the way to pay it.
    await open.getByRole("link", { name: homeRequestReference(project(), "open") }).click();
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

    // The menu offers only what they may open.
    const nav = await menu(page);
    await expect(nav.getByRole("link")).toHaveText(["Your payments", "Pay an amount", "Agreements"]);
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

  test("a portal contact still lands on the dashboard", async ({ page }) => {
    await signIn(page, who("adhocbook"));
    await expect(page).toHaveURL(`${ACME}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Welcome/);
  });
});
