import { ACME, expect, expectAccessible, KIWI, test, UNKNOWN } from "./fixtures";

const BRANDS = [
  { origin: ACME, name: "Acme Plumbing Supplies", logoDirectory: "/brands/acme" },
  { origin: KIWI, name: "Kiwi Freight Co.", logoDirectory: "/brands/kiwi" },
];

test.describe("host branding", () => {
  test("two demo hosts show two themes, titles, favicons and logos", async ({ page, hostRequest }) => {
    const seen: { themeClass: string; bannerColour: string }[] = [];
    for (const brand of BRANDS) {
      // The sign-in page: the first page anyone sees on a portal.
      const response = await page.goto(`${brand.origin}/auth/signin`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`Sign in · ${brand.name}`);

      const favicon = page.locator('link[rel="icon"]');
      await expect(favicon).toHaveAttribute("href", `${brand.logoDirectory}/favicon.svg`);
      const logo = page.locator("header img");
      await expect(logo).toHaveAttribute("src", `${brand.logoDirectory}/logo.svg`);
      await expect(page.locator("header")).toContainText(brand.name);

      // The brand's files are really there and are images.
      for (const file of ["favicon.svg", "logo.svg"]) {
        const asset = await hostRequest.get(`${brand.origin}${brand.logoDirectory}/${file}`);
        expect(asset.status()).toBe(200);
        expect(asset.headers()["content-type"]).toContain("image/svg+xml");
      }
      // The logo actually rendered (not a broken image).
      expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      const themeClass = (await page.locator("html").getAttribute("class")) ?? "";
      expect(themeClass).not.toBe("");
      const bannerColour = await page.locator("header").evaluate((el) => getComputedStyle(el).backgroundColor);
      seen.push({ themeClass, bannerColour });
      await expectAccessible(page);
    }
    expect(seen[0]!.themeClass).not.toBe(seen[1]!.themeClass);
    expect(seen[0]!.bannerColour).not.toBe(seen[1]!.bannerColour);
  });

  test("the branding is in the server's HTML, before any script runs", async ({ hostRequest }) => {
    const html = await (await hostRequest.get(`${KIWI}/auth/signin`)).text();
    expect(html).toContain("<title>Sign in · Kiwi Freight Co.</title>");
    expect(html).toContain('href="/brands/kiwi/favicon.svg"');
    expect(html).toMatch(/<html lang="en-AU" class="[^"]+"/);
  });

  test("an unknown host gets a plain, unbranded 404", async ({ page }) => {
    const response = await page.goto(`${UNKNOWN}/`);
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Page not found");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page.locator("header")).toHaveCount(0);
    await expect(page.locator("img")).toHaveCount(0);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
    const text = await page.locator("body").innerText();
    for (const brand of BRANDS) expect(text).not.toContain(brand.name);
    await expectAccessible(page);

    // Every path on the unknown host is the same neutral page.
    const deep = await page.goto(`${UNKNOWN}/privacy-policy`);
    expect(deep?.status()).toBe(404);
    expect(await page.locator("body").innerText()).not.toContain("Acme");
  });

  test("a known host's unknown page is the branded 'Page not found' with Go home and Go back", async ({ page }) => {
    await page.goto(`${ACME}/privacy-policy`);
    const response = await page.goto(`${ACME}/no/such/page`, { referer: `${ACME}/privacy-policy` });
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(
      page.getByText("The page you're looking for doesn't exist or you do not have permission to access."),
    ).toBeVisible();
    await expect(page.locator("header")).toContainText("Acme Plumbing Supplies");
    await expectAccessible(page);

    await page.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(`${ACME}/privacy-policy`);

    await page.goto(`${ACME}/no/such/page`);
    // Home needs a session: a visitor who is not signed in lands on sign-in.
    await page.getByRole("link", { name: "Go home" }).click();
    await expect(page).toHaveURL(/acme\.localhost:\d+\/auth\/signin\?callbackUrl=%2F/);
    await expect(page).toHaveTitle("Sign in · Acme Plumbing Supplies");
  });
});

test.describe("per-host legal pages", () => {
  for (const [path, acmeHeading, kiwiHeading] of [
    ["/privacy-policy", "Privacy policy", "Privacy statement"],
    ["/terms-and-conditions", "Terms and conditions", "Customer terms"],
  ] as const) {
    test(`${path} renders each host's own text`, async ({ page }) => {
      await page.goto(`${ACME}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(acmeHeading);
      await expect(page.locator("main")).toContainText("Acme");
      await expect(page.locator("main")).not.toContainText("Kiwi");
      await expectAccessible(page);

      await page.goto(`${KIWI}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(kiwiHeading);
      await expect(page.locator("main")).not.toContainText("Acme");
      await expectAccessible(page);
    });
  }

  test("the footer links reach both legal pages", async ({ page }) => {
    await page.goto(`${KIWI}/`);
    await page.getByRole("link", { name: "Terms and conditions" }).click();
    await expect(page).toHaveURL(`${KIWI}/terms-and-conditions`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Customer terms");
    await page.getByRole("link", { name: "Privacy policy" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy statement");
  });
});
