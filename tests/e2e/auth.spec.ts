import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { waitForMailVia } from "../support/mailbox";
import { ACME, expect, expectAccessible, KIWI, MAILBOX, test, waitForPageScripts } from "./fixtures";

async function signIn(page: Page, origin: string, email: string, password = DEMO_PASSWORD) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("sign in and out with a password", () => {
  for (const { origin, email, name, account } of [
    { origin: ACME, email: "olivia@coastal.example", name: "Olivia Nguyen", account: "Coastal Builders Group" },
    { origin: KIWI, email: "aroha@orchards.example", name: "Aroha Williams", account: "Southern Orchards Ltd" },
  ]) {
    test(`on ${new URL(origin).hostname}`, async ({ page }) => {
      // A page that needs a session sends the visitor to sign-in, and back afterwards.
      await page.goto(`${origin}/`);
      await expect(page).toHaveURL(`${origin}/auth/signin?callbackUrl=%2F&error=SessionRequired`);
      await expect(page.getByRole("status").filter({ hasText: "Please sign in to continue." })).toBeVisible();
      await expectAccessible(page);

      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${origin}/`);
      await expect(page.getByRole("banner")).toContainText(`Signed in as ${name}`);
      await expect(page.getByRole("main")).toContainText(account);
      await expectAccessible(page);

      // A verified user on an auth route goes home (spec §4 step 6).
      await page.goto(`${origin}/auth/signin`);
      await expect(page).toHaveURL(`${origin}/`);

      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(`${origin}/auth/signin`);
      await page.goto(`${origin}/`);
      await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=%2F/);
    });
  }

  test("a wrong password is explained, the email kept, the password not", async ({ page }) => {
    await signIn(page, ACME, "olivia@coastal.example", "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("That email and password don't match. Check them and try again.");
    await expect(page.getByLabel("Email")).toHaveValue("olivia@coastal.example");
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expectAccessible(page);
    // An unknown email gets the very same answer.
    await signIn(page, ACME, "nobody@nowhere.example", "whatever-it-is");
    await expect(page.getByRole("alert")).toHaveText("That email and password don't match. Check them and try again.");
  });

  test("hostile input in the form is refused without an error page", async ({ page }) => {
    await signIn(page, ACME, "olivia@coastal.example", "' OR 1=1 --");
    await expect(page.getByRole("alert")).toContainText("don't match");
    await page.goto(`${ACME}/auth/signin?error=${encodeURIComponent("<script>alert(1)</script>")}`);
    await expect(page.getByRole("alert")).toHaveText("Sign-in didn't work. Please try again.");
  });
});

test.describe("callbackUrl", () => {
  test("a same-origin path is honoured after sign-in", async ({ page }) => {
    await page.goto(`${ACME}/auth/signin?callbackUrl=${encodeURIComponent("/privacy-policy")}`);
    await page.getByLabel("Email").fill("olivia@coastal.example");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/privacy-policy`);
  });

  for (const target of [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
    "http://kiwi.localhost:4310/",
  ]) {
    test(`an open-redirect attempt (${target}) lands on the home page`, async ({ page }) => {
      await page.goto(`${ACME}/auth/signin?callbackUrl=${encodeURIComponent(target)}`);
      await page.getByLabel("Email").fill("olivia@coastal.example");
      await page.getByLabel("Password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${ACME}/`);
    });
  }
});

test.describe("access", () => {
  test("a contact without accessCustomerPortal lands on their own home, gets 'Page not found' on portal routes, public pages still work", async ({
    page,
  }) => {
    await signIn(page, ACME, "sam@coastal.example");
    // Decision 033: their home, not "Page not found".
    await expect(page).toHaveURL(`${ACME}/payment/payment-request/all`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your payments");
    const response = await page.goto(`${ACME}/statements`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expectAccessible(page);
    const policy = await page.goto(`${ACME}/privacy-policy`);
    expect(policy?.status()).toBe(200);
    await expect(page.getByRole("banner")).toContainText("Signed in as Sam Taylor");
  });

  test("an unverified contact is asked to confirm their email, and can", async ({ page }) => {
    const email = e2eEmail("unverified", test.info().project.name);
    await signIn(page, ACME, email);
    await expect(page).toHaveURL(`${ACME}/auth/verify`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your email");
    await expectAccessible(page);
    const blocked = await page.goto(`${ACME}/`);
    expect(blocked?.status()).toBe(404);

    await page.goto(`${ACME}/auth/verify`);
    const since = Date.now();
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "We've sent a confirmation link" })).toBeVisible();
    const mail = await waitForMailVia(MAILBOX, email, { since, subject: /Confirm your email/ });
    const link = mail.links.find((l) => l.includes("/auth/verify?token="));
    expect(link).toBeTruthy();
    // Opening the link spends nothing (mail scanners open links); the button does.
    await page.goto(link!);
    await page.goto(link!);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(page).toHaveURL(`${ACME}/`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Welcome");
    await page.goto(link!);
    await expect(page.getByRole("alert")).toContainText("expired or has already been used");
  });

  test("a session of one host is not accepted on another", async ({ page, context }) => {
    await signIn(page, ACME, "olivia@coastal.example");
    await expect(page).toHaveURL(`${ACME}/`);
    const cookie = (await context.cookies(ACME)).find((c) => c.name === "portal_session");
    expect(cookie).toBeTruthy();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe("Lax");
    // Spec §9: 30 days.
    expect(Math.abs(cookie!.expires - (Date.now() / 1000 + 2_592_000))).toBeLessThan(120);
    await context.addCookies([{ ...cookie!, domain: "kiwi.localhost" }]);
    await page.goto(`${KIWI}/`);
    await expect(page).toHaveURL(/kiwi\.localhost:\d+\/auth\/signin\?callbackUrl=%2F/);
  });

  test("a cross-origin POST is refused and signs no one in", async ({ hostRequest }) => {
    const response = await hostRequest.post(`${ACME}/auth/signin`, {
      headers: { origin: "http://kiwi.localhost:4310" },
      form: { email: "olivia@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/" },
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"] ?? "").not.toContain("portal_session=");
  });
});

test.describe("abuse", () => {
  test("after 10 failures the account is locked for 15 minutes, even with the right password", async ({ page }) => {
    const email = e2eEmail("locked", test.info().project.name);
    for (let attempt = 1; attempt <= 10; attempt++) {
      await signIn(page, ACME, email, `wrong-password-${attempt}`);
      await expect(page.getByRole("alert")).toContainText("don't match");
    }
    await signIn(page, ACME, email, DEMO_PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(
      "Too many attempts. Please wait 15 minutes and try again, or reset your password.",
    );
    await expect(page).toHaveURL(/\/auth\/signin/);

    // The owner's own reset lifts the lock at this very address (decision 024).
    const since = Date.now();
    await page.goto(`${ACME}/auth/password/reset`);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "a reset link is on its way" })).toBeVisible();
    const mail = await waitForMailVia(MAILBOX, email, { since, subject: /Reset your/ });
    const link = mail.links.find((l) => l.includes("/auth/password/reset?token="));
    // Built from the host's configured base URL (the e2e seed points it at this server).
    expect(link?.startsWith(`${ACME}/auth/password/reset?token=`)).toBe(true);
    await page.goto(link!);
    await page.getByLabel("New password", { exact: true }).fill("unlocked by a reset 42");
    await page.getByLabel("New password again").fill("unlocked by a reset 42");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?error=ResetDone/);
    await signIn(page, ACME, email, "unlocked by a reset 42");
    await expect(page).toHaveURL(`${ACME}/`);
  });
});

test.describe("passwords", () => {
  test("forgot → mail → reset → sign in with the new password; the link works once", async ({ page }) => {
    const email = e2eEmail("reset", test.info().project.name);
    await page.goto(`${ACME}/auth/signin`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(`${ACME}/auth/password/reset`);
    await expectAccessible(page);
    const since = Date.now();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "a reset link is on its way" })).toBeVisible();

    const mail = await waitForMailVia(MAILBOX, email, { since, subject: /Reset your/ });
    expect(mail.from).toContain("Acme Plumbing Supplies");
    const link = mail.links.find((l) => l.includes("/auth/password/reset?token="));
    expect(link).toBeTruthy();

    const newPassword = "new pass %+& ünïcødé 🔑";
    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
    await expectAccessible(page);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("New password again").fill("something else entirely");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("The two passwords don't match.")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("New password again").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?error=ResetDone/);
    await expect(page.getByRole("status").filter({ hasText: "Your password has been reset." })).toBeVisible();

    await signIn(page, ACME, email, DEMO_PASSWORD);
    await expect(page.getByRole("alert")).toContainText("don't match");
    await signIn(page, ACME, email, newPassword);
    await expect(page).toHaveURL(`${ACME}/`);

    // The same link again: refused.
    await page.goto(link!);
    await expect(page.getByRole("alert")).toContainText("expired or has already been used");
  });

  test("forgot-password answers the same for an unknown email, and sends nothing", async ({ page }) => {
    await page.goto(`${ACME}/auth/password/reset`);
    await page.getByLabel("Email").fill("nobody-here@nowhere.example");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "a reset link is on its way" })).toBeVisible();
  });

  test("/auth/password is public: signed out it asks for a reset link, signed in it changes the password", async ({
    page,
  }) => {
    await page.goto(`${ACME}/auth/password`);
    await expect(page).toHaveURL(`${ACME}/auth/password`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your password");
    await expect(page.getByLabel("Current password")).toHaveCount(0);
    await expectAccessible(page);
    await page.getByLabel("Email").fill("nobody-at-all@nowhere.example");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "a reset link is on its way" })).toBeVisible();
    await expect(page).toHaveURL(`${ACME}/auth/password`);

    await signIn(page, ACME, "olivia@coastal.example");
    await expect(page).toHaveURL(`${ACME}/`);
    await page.goto(`${ACME}/auth/password`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Change password");
    await expect(page.getByLabel("Current password")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveCount(0);
    // The new-password fields are the shared ones: the rules are native constraints with a hint.
    const fresh = page.getByLabel("New password", { exact: true });
    await expect(fresh).toHaveAttribute("minlength", "10");
    await expect(fresh).toHaveAttribute("aria-describedby", "newPassword-hint");
    await page.getByLabel("Current password").fill(DEMO_PASSWORD);
    await fresh.fill("mismatched password one");
    await page.getByLabel("New password again").fill("mismatched password two");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("The two passwords don't match.")).toBeVisible();
    await expect(page.getByLabel("New password again")).toHaveAttribute("aria-describedby", "confirm-error");
  });

  test("changing the password ends the user's session in another browser", async ({ page, browser }) => {
    const email = e2eEmail("change", test.info().project.name);
    const other = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const otherPage = await other.newPage();
    try {
      await signIn(otherPage, ACME, email);
      await expect(otherPage).toHaveURL(`${ACME}/`);

      await signIn(page, ACME, email);
      await page.getByRole("link", { name: "Change password" }).click();
      await expect(page).toHaveURL(`${ACME}/auth/password`);
      await expectAccessible(page);
      await page.getByLabel("Current password").fill("not my password");
      await page.getByLabel("New password", { exact: true }).fill("a brand new password");
      await page.getByLabel("New password again").fill("a brand new password");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByText("Your current password isn't right.")).toBeVisible();

      await page.getByLabel("Current password").fill(DEMO_PASSWORD);
      await page.getByLabel("New password", { exact: true }).fill("a brand new password");
      await page.getByLabel("New password again").fill("a brand new password");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Your password has been changed" })).toBeVisible();

      // This browser stays signed in; the other one is sent to sign in, told why.
      await page.goto(`${ACME}/`);
      await expect(page).toHaveURL(`${ACME}/`);
      await otherPage.goto(`${ACME}/`);
      await expect(otherPage).toHaveURL(/\/auth\/signin\?callbackUrl=%2F&error=SessionExpired/);
      await expect(otherPage.getByRole("alert")).toHaveText("Your session has ended. Please sign in again.");
    } finally {
      await other.close();
    }
  });
});

test.describe("tabs", () => {
  test("signing out in one tab signs out the others (with JS at once, without JS at the next request)", async ({
    context,
    jsEnabled,
  }) => {
    const first = await context.newPage();
    await signIn(first, ACME, "olivia@coastal.example");
    await expect(first).toHaveURL(`${ACME}/`);
    const second = await context.newPage();
    await second.goto(`${ACME}/`);
    await expect(second.getByRole("banner")).toContainText("Signed in as Olivia Nguyen");
    // The other tab listens once its script runs (the dashboard's shared conveniences, decision 084).
    if (jsEnabled) await waitForPageScripts(second);

    await first.getByRole("button", { name: "Sign out" }).click();
    await expect(first).toHaveURL(`${ACME}/auth/signin`);
    if (jsEnabled) {
      // The other tab hears about it and re-checks, without anyone touching it.
      await expect(second).toHaveURL(/\/auth\/signin\?callbackUrl=%2F/);
    } else {
      await second.reload();
      await expect(second).toHaveURL(/\/auth\/signin\?callbackUrl=%2F/);
    }
  });
});

test.describe("sign-in error page", () => {
  test("/error explains a provider that cannot be used, and leads back to sign-in", async ({ page }) => {
    await page.goto(`${ACME}/error?error=Configuration`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't sign you in");
    await expect(page.getByText("Sign-in isn't set up correctly for this portal yet.")).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Back to sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/auth/signin`);
  });
});
