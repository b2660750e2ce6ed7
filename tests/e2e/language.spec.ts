import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, expectAccessible, KIWI, test } from "./fixtures";

test.describe("languages (spec §3, §6)", () => {
  test("Bahasa Indonesia is offered where the Language toggle is on, kept, and applied on the server", async ({ page }) => {
    await page.goto(`${KIWI}/auth/signin`);
    await page.getByLabel("Email").fill("aroha@orchards.example");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${KIWI}/`);

    const picker = page.getByLabel("Language");
    await expect(picker.locator("option")).toHaveText(["English (AU)", "Bahasa Indonesia"]);
    await picker.selectOption("ID");
    await page.getByRole("button", { name: "Change" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Selamat datang, Aroha");
    await expect(page.locator("html")).toHaveAttribute("lang", "id");
    await expect(page.getByRole("list", { name: "Ringkasan rekening" })).toContainText("Saldo terutang");
    await expectAccessible(page);

    // Kept across pages and reloads (a cookie), rendered by the server.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Selamat datang, Aroha");
    await page.getByLabel("Bahasa").selectOption("en-AU");
    await page.getByRole("button", { name: "Ganti" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Aroha");
  });

  test("no language choice where the toggle is off, and a forced cookie is ignored", async ({ page, context }) => {
    await context.addCookies([{ name: "portal_lang", value: "ID", domain: "acme.localhost", path: "/" }]);
    await page.goto(`${ACME}/auth/signin`);
    await page.getByLabel("Email").fill("olivia@coastal.example");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/`);
    await expect(page.getByLabel("Language")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Olivia");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-AU");
  });
});
