import type { Locator, Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { ACME, expect, expectAccessible, KIWI, PHONE, signInAs, test, waitForPageScripts } from "./fixtures";

/**
 * "What do I owe and how do I pay" (issue 31), at 360 × 740 with JavaScript on and off: the
 * dashboard leads with the amount due and a "Pay now" in the first screen, which opens the pay page
 * with the overdue invoices; the Overdue tile opens the list filtered to them; the list's rows are
 * whole-row labels; choosing none comes back with the error at the top. Taps are counted from the
 * dashboard. The journeys' contact has a ledger of its own (tests/support/e2e-seed.ts) and pays
 * nothing, so they change no data.
 */
const contact = () => e2eEmail("paynow", test.info().project.name);

/** A tap a person makes, counted. */
function tapCounter(page: Page) {
  let taps = 0;
  return {
    tap: async (target: Locator, options?: Parameters<Locator["click"]>[0]) => {
      await target.click(options);
      taps += 1;
    },
    get count() {
      return taps;
    },
    page,
  };
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "the element is laid out").not.toBeNull();
  return found!;
}

test.describe("pay now", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(PHONE);
  });

  test("dashboard: the amount and Pay now in the first screen; one tap to the pay page with the overdue invoices", async ({
    page,
    jsEnabled,
  }, testInfo) => {
    await signInAs(page, ACME, contact(), DEMO_PASSWORD);
    if (jsEnabled) await waitForPageScripts(page);
    const due = page.getByRole("region", { name: "Amount due" });
    const payNow = page.getByRole("link", { name: "Pay now", exact: true });
    await expect(due).toContainText(/\$[\d,]+\.\d\d/);
    await expect(due).toContainText("overdue");
    // Disputed and on-hold invoices are left out of Pay now, and the card says so.
    await expect(due).toContainText("2 invoices are disputed or on hold. They can't be paid online");

    const amount = await box(due.locator("p").first());
    const action = await box(payNow);
    await testInfo.attach("first-screen positions", {
      body: JSON.stringify({
        amountTop: amount.y,
        amountBottom: amount.y + amount.height,
        payNowTop: action.y,
        payNowBottom: action.y + action.height,
        payNowHeight: action.height,
        payNowWidth: action.width,
      }),
      contentType: "application/json",
    });
    expect(amount.y + amount.height, "the amount due is in the first screen").toBeLessThanOrEqual(PHONE.height);
    expect(action.y + action.height, "Pay now is in the first screen").toBeLessThanOrEqual(PHONE.height);
    expect(action.height).toBeGreaterThanOrEqual(44);
    // Full width: the card's width less its padding, on a 360 px phone.
    expect(action.width).toBeGreaterThanOrEqual(280);
    await expectAccessible(page);

    const note = await page.locator("#pay-now-note").innerText();
    const overdueCount = Number(/Pays your (\d+) overdue invoices?/.exec(note)?.[1]);
    expect(overdueCount).toBeGreaterThan(0);
    const taps = tapCounter(page);
    await taps.tap(payNow);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    expect(new URL(page.url()).searchParams.getAll("invoice")).toHaveLength(overdueCount);
    // The pay page leads with what it covers and the sum, in its first screen.
    const lead = page.getByText(`${overdueCount} invoices · Total to pay`);
    await expect(lead).toBeVisible();
    const leadBox = await box(lead);
    expect(leadBox.y + leadBox.height).toBeLessThanOrEqual(PHONE.height);
    expect(taps.count, "taps from the dashboard to the pay page").toBe(1);
    await expectAccessible(page);
  });

  test("the Overdue tile opens the balance by age, which opens the list filtered to overdue; whole-row labels; choosing none comes back with the error", async ({
    page,
    jsEnabled,
  }) => {
    await signInAs(page, ACME, contact(), DEMO_PASSWORD);
    if (jsEnabled) await waitForPageScripts(page);
    const taps = tapCounter(page);
    const tile = page.getByRole("link", { name: /^Overdue \$/ });
    const tileText = await tile.innerText();
    const count = Number(/(\d+) invoices past their due date/.exec(tileText)?.[1]);
    const overdue = /^Overdue (\$[\d,.]+)/.exec(tileText.replace(/\s+/g, " "))?.[1];
    await taps.tap(tile);
    // The statement, scrolled to its balance by age (decision 090): the bands past due add up to the tile.
    await expect(page).toHaveURL(/\/statements(\?[^#]*)?#ageing$/);
    const ageing = page.getByRole("region", { name: "Balance by age" });
    await expect(ageing.getByRole("heading", { level: 2 })).toBeInViewport();
    const table = ageing.getByRole("table", { name: "Balance by age" });
    await expect(table.getByRole("rowheader")).toHaveText([
      "Not yet due",
      "1–30 days overdue",
      "31–60 days overdue",
      "61–90 days overdue",
      "Over 90 days overdue",
      "Total owing",
    ]);
    const cents = async (band: string) =>
      Math.round(
        Number(
          (
            await table
              .getByRole("row", { name: new RegExp(`^${band}`) })
              .getByRole("cell")
              .innerText()
          ).replace(/[$,]/g, ""),
        ) * 100,
      );
    let late = 0;
    for (const band of ["1–30", "31–60", "61–90", "Over 90"]) late += await cents(band);
    expect(late).toBe(Math.round(Number(overdue!.replace(/[$,]/g, "")) * 100));
    await expectAccessible(page);
    await taps.tap(ageing.getByRole("link", { name: "See the overdue invoices" }));
    await expect(page).toHaveURL(/\/customer\/invoices-and-payments\/invoices\?status=overdue$/);
    await expect(page.getByLabel("Status")).toHaveValue("overdue");
    const list = page.getByRole("region", { name: "Invoices" });
    await expect(list.locator("tbody tr")).toHaveCount(count);
    // One status per row: nothing reads "Open" among overdue invoices; the ones that cannot be paid say why.
    await expect(list.getByRole("cell", { name: "Open", exact: true })).toHaveCount(0);
    await expect(list).toContainText("Can't be paid online: disputed (Goods arrived damaged)");
    await expect(list).toContainText("Can't be paid online: on hold");
    await expect(page.getByText("Leaves out 2 invoices that are disputed or on hold")).toBeVisible();
    await expectAccessible(page);

    // Choosing none: back to the list, the error at the top, in view (and focused with JavaScript).
    await taps.tap(page.getByRole("button", { name: "Pay selected invoices" }));
    const summary = page.getByRole("alert").filter({ hasText: "Choose at least one invoice to pay" });
    await expect(summary).toBeVisible();
    await expect(page).toHaveURL(/error=choose#errors$/);
    await expect(page.getByLabel("Status")).toHaveValue("overdue");
    await expect(summary).toBeInViewport();
    if (jsEnabled) {
      await expect
        .poll(() => page.evaluate(() => Boolean(document.activeElement?.querySelector("#errors"))))
        .toBe(true);
    }
    await expectAccessible(page);

    // The whole row is the checkbox's label: a tap on its due date ticks it.
    const rows = page.getByRole("region", { name: "Invoices" }).locator("tbody tr");
    const payable = rows.filter({ has: page.getByRole("checkbox") });
    const first = payable.first();
    const checkbox = first.getByRole("checkbox", { name: /^Pay invoice / });
    const rowBox = await box(first);
    const checkboxBox = await box(checkbox);
    expect(rowBox.height).toBeGreaterThanOrEqual(44);
    expect(checkboxBox.width).toBeGreaterThanOrEqual(24);
    expect(checkboxBox.height).toBeGreaterThanOrEqual(24);
    // Tapped low on the row, over its status line, away from the checkbox and the number's link.
    const lowOnRow = async (row: Locator) => {
      const { width, height } = await box(row);
      return { position: { x: width * 0.6, y: height - 8 } };
    };
    await taps.tap(first, await lowOnRow(first));
    await expect(checkbox).toBeChecked();
    await taps.tap(payable.nth(1), await lowOnRow(payable.nth(1)));
    await expect(payable.nth(1).getByRole("checkbox")).toBeChecked();
    // The sticky bar is in view at the foot of the screen.
    const bar = page.getByRole("button", { name: "Pay selected invoices" });
    await expect(bar).toBeInViewport();
    await taps.tap(bar);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await expect(page.getByText("2 invoices · Total to pay")).toBeInViewport();
    expect(taps.count, "tile, its overdue invoices, empty submit, two rows, pay selected").toBe(6);
  });

  test("screenshots of the dashboard and the list, both brands at 360 and 1280 px", async ({
    page,
    jsEnabled,
  }, testInfo) => {
    test.skip(!jsEnabled, "the same pages without JavaScript are checked above; one set of pictures is enough");
    test.setTimeout(90_000); // eight full-page screenshots on a shared 2-core machine
    for (const [name, origin, email] of [
      ["acme", ACME, contact()],
      ["kiwi", KIWI, "liam@tasman.example"],
    ] as const) {
      await signInAs(page, origin, email, DEMO_PASSWORD);
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
        for (const [what, path] of [
          ["dashboard", "/"],
          ["invoices", "/customer/invoices-and-payments/invoices?status=all"],
          ["choose-none", "/customer/invoices-and-payments/pay"],
        ] as const) {
          await page.goto(`${origin}${path}`);
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          const file = testInfo.outputPath(`${name}-${what}-${width}.png`);
          await page.screenshot({ path: file, fullPage: what !== "dashboard" });
          await testInfo.attach(`${name}-${what}-${width}`, { path: file, contentType: "image/png" });
        }
      }
      await page.context().clearCookies();
    }
  });
});
