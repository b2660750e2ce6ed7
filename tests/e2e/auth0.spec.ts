import { expect, expectAccessible, HARBOUR, test } from "./fixtures";
import { HARBOUR_USERS } from "../support/oidc-standin-demo";

const mia = HARBOUR_USERS.find((u) => u.email === "mia@harbour.example")!;
const tamper = HARBOUR_USERS.find((u) => u.email === "tamper@harbour.example")!;
const stranger = HARBOUR_USERS.find((u) => u.email === "stranger@harbour.example")!;

test.describe("Auth0 sign-in (stand-in provider)", () => {
  test("the whole round trip: provider sign-in, back to the portal, sign out through the provider", async ({
    page,
  }) => {
    await page.goto(`${HARBOUR}/privacy-policy`);
    await page.goto(`${HARBOUR}/`);
    await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=%2F/);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Continue to sign in" }).click();

    // At the provider: PKCE and state went along.
    await expect(page).toHaveURL(/^https:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    const authorize = new URL(page.url());
    // Spec §9: the state and PKCE cookie lives 900 s.
    const stateCookie = (await page.context().cookies(HARBOUR)).find((c) => c.name.startsWith("portal_auth0"));
    expect(stateCookie?.httpOnly).toBe(true);
    expect(Math.abs(stateCookie!.expires - (Date.now() / 1000 + 900))).toBeLessThan(60);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("state")).toBeTruthy();
    await page.getByLabel("Email").fill(mia.email);
    await page.getByLabel("Password").fill(mia.password);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(`${HARBOUR}/`);
    await expect(page.getByRole("banner")).toContainText("Signed in as Mia Chen");
    // The used state and verifier are gone.
    expect((await page.context().cookies(HARBOUR)).filter((c) => c.name.startsWith("portal_auth0"))).toEqual([]);
    await expect(page.getByRole("main")).toContainText("Bayside Cafe");
    // An Auth0 login has no portal password to change.
    await expect(page.getByRole("link", { name: "Change password" })).toHaveCount(0);

    await page.getByRole("button", { name: "Sign out" }).click();
    // Through the provider's logout and back to this host's origin, signed out.
    await expect(page).toHaveURL(/harbour\.localhost:\d+\/auth\/signin/);
    await page.goto(`${HARBOUR}/`);
    await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=%2F/);
  });

  test("cancelling at the provider comes back with a readable message", async ({ page }) => {
    await page.goto(`${HARBOUR}/auth/signin`);
    await page.getByRole("button", { name: "Continue to sign in" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/harbour\.localhost:\d+\/auth\/signin\?error=AccessDenied/);
    await expect(page.getByRole("alert")).toHaveText("Sign-in was cancelled. You can try again when you're ready.");
    await expectAccessible(page);
  });

  test("an id token with a bad signature is refused", async ({ page }) => {
    await page.goto(`${HARBOUR}/auth/signin`);
    await page.getByRole("button", { name: "Continue to sign in" }).click();
    await page.getByLabel("Email").fill(tamper.email);
    await page.getByLabel("Password").fill(tamper.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?error=TokenInvalid/);
    await expect(page.getByRole("alert")).toHaveText("We couldn't verify your sign-in. Please try again.");
    await page.goto(`${HARBOUR}/`);
    await expect(page).toHaveURL(/\/auth\/signin/);
  });

  test("a provider login with no contact on this portal is told so", async ({ page }) => {
    await page.goto(`${HARBOUR}/auth/signin`);
    await page.getByRole("button", { name: "Continue to sign in" }).click();
    await page.getByLabel("Email").fill(stranger.email);
    await page.getByLabel("Password").fill(stranger.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?error=NoContact/);
    await expect(page.getByRole("alert")).toContainText("isn't linked to any contact");
  });

  test("a callback without the state cookie is refused", async ({ page }) => {
    await page.goto(`${HARBOUR}/api/auth/callback/auth0?code=forged&state=forged`);
    await expect(page).toHaveURL(/\/auth\/signin\?error=OAuthCallback/);
  });

  test("auth config tells how the host signs in", async ({ hostRequest }) => {
    const harbour = await (await hostRequest.get(`${HARBOUR}/api/auth/config`)).json();
    expect(harbour.authProvider).toBe("auth0");
    expect(harbour.auth0.clientId).toBe("harbour-portal");
  });
});
