import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { ACME, expect, expectAccessible, KIWI, test } from "./fixtures";

async function signIn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${origin}/`);
}

test.describe("accounts", () => {
  test("dashboard of the first account → switch → search and choose → details", async ({ page }) => {
    await signIn(page, ACME, "olivia@coastal.example");
    const summary = page.getByRole("list", { name: "Account summary" });
    await expect(page.getByRole("main")).toContainText("Coastal Builders Group");
    // The amount due leads the page, above the tiles (issue 31).
    await expect(page.getByRole("region", { name: "Amount due" })).toContainText(/\$[\d,]+\.\d\d/);
    await expect(summary).toContainText("Overdue");
    await expect(summary).toContainText("Last payment");
    await expectAccessible(page);

    // Switch from the shell: a plain form.
    await page.getByLabel("Account", { exact: true }).selectOption({ label: "Hillside Renovations (ACME-2000)" });
    await page.getByRole("button", { name: "Switch" }).click();
    await expect(page.getByRole("main")).toContainText("Hillside Renovations");

    // Search.
    await page.getByRole("link", { name: "Find an account" }).click();
    await expect(page).toHaveURL(`${ACME}/accounts`);
    await expect(page.getByRole("status").filter({ hasText: "4 accounts" })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("Name or number").fill("wollon");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 account" })).toBeVisible();
    await expect(page).toHaveURL(/q=wollon/);
    await page.getByRole("button", { name: "Choose Coastal Builders – Wollongong" }).click();
    await expect(page).toHaveURL(`${ACME}/`);
    await expect(page.getByRole("main")).toContainText("Coastal Builders – Wollongong");
    await expect(page.getByRole("main")).toContainText("a branch account");

    await page.getByRole("link", { name: "Details" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Coastal Builders – Wollongong");
    await expect(page.getByRole("main")).toContainText("88 Crown St");
    await expectAccessible(page);
  });

  test("statements: paged, filtered, sorted, remembered, downloaded", async ({ page, jsEnabled, hostRequest }) => {
    await signIn(page, KIWI, "liam@tasman.example");
    await page.getByRole("link", { name: "Statements" }).first().click();
    await expect(page).toHaveURL(`${KIWI}/statements`);
    await expect(page.getByRole("status").filter({ hasText: /Showing 1–20 of \d+ lines/ })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText("Page 2 of")).toBeVisible();

    await page.getByLabel("Type").selectOption("payment");
    await page.getByLabel("Sort").selectOption("amount-desc");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/type=payment/);
    await expect(page).toHaveURL(/sort=amount-desc/);
    // Without JavaScript the URL changes as the new page starts to arrive: wait for all of it,
    // or the last row may be read with only its first cell parsed.
    await page.waitForLoadState("load");
    const rows = page.getByRole("region", { name: "Statement lines" }).locator("tbody tr");
    await expect(rows.first()).toContainText("Payment");
    for (const text of await rows.allInnerTexts()) expect(text).toContain("Payment");

    // The pager state is remembered in the session: /statements comes back to it.
    await page.goto(`${KIWI}/`);
    await page.goto(`${KIWI}/statements`);
    await expect(page).toHaveURL(/type=payment/);

    // Download what is shown.
    if (jsEnabled) {
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download these lines (CSV)" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("statement-KF-700.csv");
    }
    const cookie = (await page.context().cookies(KIWI)).find((c) => c.name === "portal_session")!;
    const csv = await hostRequest.get(`${KIWI}/statements/download?type=payment`, {
      headers: { cookie: `portal_session=${cookie.value}` },
    });
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    // The lines, one empty row, then the balance by age (issue 34).
    const [lines, ageing] = text.replace(/^\uFEFF/, "").split("\n\n");
    const [header, ...csvRows] = lines!.split("\n");
    expect(header).toBe("Date,Type,Reference,Description,Charges (NZD),Credits (NZD)");
    expect(csvRows.length).toBeGreaterThan(0);
    for (const row of csvRows) expect(row).toMatch(/^\d{4}-\d{2}-\d{2},payment,/);
    const bands = ageing!.trim().split("\n");
    expect(bands[0]).toMatch(/^Balance by age on \d{4}-\d{2}-\d{2},Amount \(NZD\)$/);
    expect(bands.slice(1).map((row) => row.split(",")[0])).toEqual([
      "Not yet due",
      "1–30 days overdue",
      "31–60 days overdue",
      "61–90 days overdue",
      "Over 90 days overdue",
      "Total owing",
    ]);
    for (const row of bands.slice(1)) expect(row).toMatch(/,\d+\.\d{2}$/);
    // Without a session: sign-in, not a file.
    const anonymous = await hostRequest.get(`${KIWI}/statements/download`);
    expect(anonymous.status()).toBe(302);
  });

  test("the account list searches with its Search button, a plain GET form (no React on the page, decision 084)", async ({
    page,
  }) => {
    await signIn(page, ACME, "olivia@coastal.example");
    await page.goto(`${ACME}/accounts`);
    await expect(page.locator('script[type="module"]')).toHaveCount(0);
    await page.getByLabel("Name or number").fill("hillside");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=hillside/);
    await expect(page.getByRole("status").filter({ hasText: "1 account" })).toBeVisible();
    // What was typed is still there on the answer.
    await expect(page.getByLabel("Name or number")).toHaveValue("hillside");
  });

  test("a contact with no accounts sees 'Accounts not found' and can sign out", async ({ page }) => {
    const email = e2eEmail("orphan", test.info().project.name);
    await page.goto(`${ACME}/auth/signin`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Accounts not found");
    await expect(page.getByText("We could not find any accounts joined to your login.")).toBeVisible();
    await expectAccessible(page);
    // The same on the account search, not an empty list.
    await page.goto(`${ACME}/accounts`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Accounts not found");
    await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(`${ACME}/auth/signin`);
  });

  test("switching to another contact's account changes nothing", async ({ page, hostRequest }) => {
    await signIn(page, ACME, "olivia@coastal.example");
    const cookie = (await page.context().cookies(ACME)).find((c) => c.name === "portal_session")!;
    const kiwiAccount = await hostRequest.get(`${KIWI}/api/host/bootstrap?hostname=kiwi.localhost`);
    expect(kiwiAccount.status()).toBe(200);
    const response = await hostRequest.post(`${ACME}/select-account`, {
      headers: { origin: ACME, cookie: `portal_session=${cookie.value}` },
      form: { accountId: "00000000-0000-4000-8000-000000000000", redirectTo: "/" },
    });
    expect(response.status()).toBe(404);
    await page.reload();
    await expect(page.getByRole("main")).toContainText("Coastal Builders Group");
  });
});
