import { ACME, expect, expectAccessible, KIWI, test } from "./fixtures";

test.describe("app shell", () => {
  test("has landmarks and a skip link that moves focus to the main content", async ({ page }) => {
    await page.goto(`${ACME}/`);
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("main")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();

    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#main$/);
    await expect(page.locator("main")).toBeFocused();
    await expectAccessible(page);
  });

  test("keyboard focus is visible", async ({ page }) => {
    await page.goto(`${ACME}/`);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab"); // the brand link in the header
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { tag: el.tagName, width: parseFloat(style.outlineWidth), style: style.outlineStyle };
    });
    expect(outline.tag).toBe("A");
    expect(outline.style).not.toBe("none");
    expect(outline.width).toBeGreaterThanOrEqual(2);
  });

  test("the heartbeat page reports a working portal", async ({ page }) => {
    const response = await page.goto(`${KIWI}/heartbeat`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Portal status");
    await expect(page.getByText("All systems working.")).toBeVisible();
    await expectAccessible(page);
  });

  test("a slow navigation shows progress: a bar with JavaScript, the browser's own without", async ({
    page,
    jsEnabled,
  }) => {
    await page.goto(`${ACME}/`);
    const bar = page.locator('[data-state][aria-hidden="true"]').first();
    if (jsEnabled) {
      await expect(bar).toHaveAttribute("data-state", "idle");
      // Hold the data request for the next page so the pending state is observable.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/terms-and-conditions.data*", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("link", { name: "Terms and conditions" }).click();
      await expect(bar).toHaveAttribute("data-state", "busy");
      await expect(page.getByRole("status").filter({ hasText: "Loading" })).toHaveCount(1);
      release();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms and conditions");
      await expect(bar).toHaveAttribute("data-state", "idle");
    } else {
      // No script: the link is a plain document navigation and the page still works.
      await page.getByRole("link", { name: "Terms and conditions" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms and conditions");
      expect(await page.locator("script[type=module]").count()).toBeGreaterThan(0); // sent, but not run
    }
  });
});

test.describe("JSON API over HTTP", () => {
  test("bootstrap answers with the five fields, and clear errors for bad input", async ({ hostRequest }) => {
    const ok = await hostRequest.get(`${ACME}/api/host/bootstrap?hostname=kiwi.localhost`);
    expect(ok.status()).toBe(200);
    const body = await ok.json();
    expect(Object.keys(body).sort()).toEqual(["businessId", "businessLabel", "businessName", "logoDirectory", "theme"]);
    expect(body).toMatchObject({
      theme: "english-holly",
      businessName: "Kiwi Freight Co.",
      logoDirectory: "/brands/kiwi",
    });

    const missing = await hostRequest.get(`${ACME}/api/host/bootstrap`);
    expect(missing.status()).toBe(400);
    expect((await missing.json()).message).toMatch(/Missing hostname/);

    const unknown = await hostRequest.get(`${ACME}/api/host/bootstrap?hostname=nowhere.localhost`);
    expect(unknown.status()).toBe(404);

    const hostile = await hostRequest.get(`${ACME}/api/host/bootstrap?hostname=${encodeURIComponent("x' OR 1=1 --")}`);
    expect(hostile.status()).toBe(400);

    const post = await hostRequest.post(`${ACME}/api/host/bootstrap?hostname=acme.localhost`);
    expect(post.status()).toBe(405);
  });

  test("heartbeat answers 200 with the database up", async ({ hostRequest }) => {
    const response = await hostRequest.get(`${ACME}/api/host/heartbeat`);
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", database: "up" });
    expect(response.headers()["cache-control"]).toBe("no-store");
  });
});
