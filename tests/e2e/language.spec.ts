import { DEMO_PASSWORD } from "../../db/seed/demo";
import { e2eEmail } from "../support/e2e-users";
import { waitForMailVia } from "../support/mailbox";
import { ACME, expect, expectAccessible, KIWI, MAILBOX, test } from "./fixtures";

/** The language cookie as the portal itself writes it (Remix's cookie encoding of "ID"). */
const CHOSE_ID = encodeURIComponent(Buffer.from(JSON.stringify("ID")).toString("base64"));
// No \b at the ends: a list's text runs on into the next item ("17 Des 2026Lihat faktur").
const INDONESIAN_DATE = /\d{1,2} (Jan|Feb|Mar|Apr|Mei|Jun|Jul|Agu|Sep|Okt|Nov|Des) \d{4}/;
const ENGLISH_DATE = /(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}/;

test.describe("languages (spec §3, §6)", () => {
  test("Bahasa Indonesia is offered where the Language toggle is on, kept, and applied on the server", async ({
    page,
  }) => {
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
    // The amount due leads the dashboard (issue 31), then the tiles.
    await expect(page.getByRole("region", { name: "Jumlah terutang" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Ringkasan rekening" })).toContainText("Jatuh tempo berikutnya");
    // Dates in the page's language too (issue 32; decision 078): "13 Des 2026", no "Dec 13, 2026".
    await expect(page.getByRole("list", { name: "Ringkasan rekening" })).toContainText(INDONESIAN_DATE);
    await expect(page.locator("main")).not.toContainText(ENGLISH_DATE);
    await expectAccessible(page);
    await page.goto(`${KIWI}/statements`);
    await expect(page.getByRole("region", { name: "Baris laporan" }).locator("table")).toContainText(INDONESIAN_DATE);
    // The balance by age in the page's words, its date too (issue 34).
    await expect(page.getByRole("region", { name: "Saldo menurut umur" })).toContainText(INDONESIAN_DATE);
    await expect(page.locator("main")).not.toContainText(ENGLISH_DATE);
    await page.goto(`${KIWI}/`);

    // Kept across pages and reloads (a cookie), rendered by the server.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Selamat datang, Aroha");
    await page.getByLabel("Bahasa").selectOption("en-AU");
    await page.getByRole("button", { name: "Ganti" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Aroha");
  });

  test("no language choice where the toggle is off, and a forced cookie is ignored", async ({ page, context }) => {
    await context.addCookies([{ name: "portal_lang", value: CHOSE_ID, domain: "acme.localhost", path: "/" }]);
    await page.goto(`${ACME}/auth/signin`);
    await page.getByLabel("Email").fill("olivia@coastal.example");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ACME}/`);
    await expect(page.getByLabel("Language")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Olivia");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-AU");
  });

  test("signing in in Bahasa Indonesia: the page, its errors and the result are translated by the server", async ({
    page,
  }) => {
    const email = e2eEmail("other", test.info().project.name, "kiwi.localhost");
    await page.goto(`${KIWI}/auth/signin`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    // Signed out, the business's Language toggle decides whether the choice is offered.
    await page.getByLabel("Language").selectOption("ID");
    await page.getByRole("button", { name: "Change" }).click();
    await expect(page).toHaveURL(`${KIWI}/auth/signin`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Masuk");
    await expect(page.locator("html")).toHaveAttribute("lang", "id");
    await expect(page).toHaveTitle("Masuk · Kiwi Freight Co.");
    await expectAccessible(page);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Kata sandi").fill("not the password");
    await page.getByRole("button", { name: "Masuk" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Email dan kata sandi tersebut tidak cocok. Periksa lalu coba lagi.",
    );
    await expectAccessible(page);

    await page.getByLabel("Kata sandi").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Masuk" }).click();
    await expect(page).toHaveURL(`${KIWI}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Selamat datang, Test");
    await page.getByRole("link", { name: "Ubah kata sandi" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ubah kata sandi");
    await page.getByLabel("Kata sandi saat ini").fill("wrong current password");
    await page.getByLabel("Kata sandi baru", { exact: true }).fill("a brand new password");
    await page.getByLabel("Ulangi kata sandi baru").fill("a brand new password");
    await page.getByRole("button", { name: "Ubah kata sandi" }).click();
    await expect(page.getByText("Kata sandi Anda saat ini salah.")).toBeVisible();
    await expectAccessible(page);
  });

  test("resetting the password in Bahasa Indonesia, with the email in Bahasa Indonesia too", async ({
    page,
    context,
  }) => {
    const email = e2eEmail("reset", test.info().project.name, "kiwi.localhost");
    await context.addCookies([{ name: "portal_lang", value: CHOSE_ID, domain: "kiwi.localhost", path: "/" }]);
    await page.goto(`${KIWI}/auth/signin`);
    await page.getByRole("link", { name: "Lupa kata sandi?" }).click();
    await expect(page).toHaveURL(`${KIWI}/auth/password/reset`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Atur ulang kata sandi");
    await expectAccessible(page);
    const since = Date.now();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Kirim tautan atur ulang" }).click();
    await expect(page.getByRole("status").filter({ hasText: "tautan atur ulang sedang dikirim" })).toBeVisible();

    const mail = await waitForMailVia(MAILBOX, email, {
      since,
      subject: /Atur ulang kata sandi portal Kiwi Freight Co\./,
    });
    expect(mail.text).toContain("Pilih kata sandi baru di sini");
    // The HTML part in the brand and the same language: the button and its title.
    expect(mail.html).toMatch(/<h1[^>]*>Pilih kata sandi baru<\/h1>/);
    expect(mail.html).toMatch(/<img [^>]*src="[^"]*\/brands\/kiwi\/email-logo\.png"/);
    const link = mail.links.find((l) => l.includes("/auth/password/reset?token="));
    expect(link).toBeTruthy();

    const newPassword = "kata sandi baru yang panjang";
    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pilih kata sandi baru");
    await expect(page.getByText("Minimal 10 karakter.")).toBeVisible();
    await page.getByLabel("Kata sandi baru", { exact: true }).fill(newPassword);
    await page.getByLabel("Ulangi kata sandi baru").fill("sesuatu yang lain sama sekali");
    await page.getByRole("button", { name: "Simpan kata sandi baru" }).click();
    await expect(page.getByText("Kedua kata sandi tidak sama.")).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("Kata sandi baru", { exact: true }).fill(newPassword);
    await page.getByLabel("Ulangi kata sandi baru").fill(newPassword);
    await page.getByRole("button", { name: "Simpan kata sandi baru" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?error=ResetDone/);
    await expect(page.getByRole("status").filter({ hasText: "Kata sandi Anda telah diatur ulang." })).toBeVisible();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Kata sandi").fill(newPassword);
    await page.getByRole("button", { name: "Masuk" }).click();
    await expect(page).toHaveURL(`${KIWI}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Selamat datang, Test");

    // The spent link, in Bahasa Indonesia.
    await page.goto(link!);
    await expect(page.getByRole("alert")).toContainText("sudah kedaluwarsa atau sudah pernah digunakan");
  });

  test("the sign-in page stays English where the toggle is off, whatever the cookie says", async ({
    page,
    context,
  }) => {
    await context.addCookies([{ name: "portal_lang", value: CHOSE_ID, domain: "acme.localhost", path: "/" }]);
    await page.goto(`${ACME}/auth/password/reset`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your password");
    await expect(page.getByLabel("Language")).toHaveCount(0);
  });
});
