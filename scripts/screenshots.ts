/**
 * `npm run screenshots`: what a customer sees, for both demo brands, on a phone and a desktop.
 *
 * Starts the built portal (run `npx remix build` first) on a fresh embedded database seeded with
 * the demo hosts, signs in as a demo contact on each brand, and takes Chromium screenshots of the
 * main pages at 360 × 740 and 1280 × 800 into .tmp/screenshots/ (git-ignored). It then composes
 * docs/images/brands-360.png: the two brands' dashboards side by side at 360 px, for the README.
 *
 * Options (environment): SCREENSHOTS_PORT (default 4399) for the portal it starts;
 * SCREENSHOTS_URL_PORT to use a portal that is already running on that port instead (it must
 * hold the demo data); CHROMIUM_PATH (default /usr/bin/chromium).
 * Nothing is paid or changed: every page is a GET, apart from signing in.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../db/seed/demo";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, ".tmp/screenshots");
const README_IMAGE = path.join(ROOT, "docs/images/brands-360.png");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const existingPort = process.env.SCREENSHOTS_URL_PORT ? Number(process.env.SCREENSHOTS_URL_PORT) : null;
const PORT = existingPort ?? Number(process.env.SCREENSHOTS_PORT ?? 4399);

const BRANDS = [
  { slug: "acme", host: "acme.localhost", email: "olivia@coastal.example", label: "Acme (navy-blue)" },
  { slug: "kiwi", host: "kiwi.localhost", email: "liam@tasman.example", label: "Kiwi (english-holly)" },
] as const;

const VIEWPORTS = [
  { name: "360", width: 360, height: 740 },
  { name: "1280", width: 1280, height: 800 },
] as const;

/** The pages a customer uses most, in the order a visit goes. The first is seen signed out. */
const PAGES = [
  { slug: "sign-in", path: "/auth/signin" },
  { slug: "dashboard", path: "/" },
  { slug: "statements", path: "/statements" },
  { slug: "invoices", path: "/customer/invoices-and-payments/invoices" },
  { slug: "pay", path: "/customer/invoices-and-payments/pay?all=1" },
  { slug: "payment-methods", path: "/payment-methods" },
  { slug: "add-card", path: "/payment-methods/cards/new" },
] as const;

async function waitForPortal(url: string, server: ChildProcess | null) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`The portal exited with code ${server.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The portal did not answer ${url} within 90 s`);
}

async function startPortal(): Promise<ChildProcess | null> {
  if (existingPort) return null;
  const dataDir = path.join(ROOT, `.tmp/screenshots-data-${PORT}`);
  await rm(dataDir, { recursive: true, force: true });
  const server = spawn(process.execPath, ["scripts/serve.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return server;
}

async function signIn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${origin}/`);
}

async function shoot(browser: Browser) {
  for (const brand of BRANDS) {
    const origin = `http://${brand.host}:${PORT}`;
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      for (const target of PAGES) {
        if (target.slug === "dashboard") await signIn(page, origin, brand.email);
        else await page.goto(`${origin}${target.path}`);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        const file = path.join(OUT, `${brand.slug}-${target.slug}-${viewport.name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        process.stdout.write(`${path.relative(ROOT, file)}\n`);
        if (target.slug === "pay" && viewport.width < 900) {
          // The phone's first screen: the amount and the action must be in it (issue 12).
          const first = path.join(OUT, `${brand.slug}-${target.slug}-${viewport.name}-first-screen.png`);
          await page.screenshot({ path: first });
          process.stdout.write(`${path.relative(ROOT, first)}\n`);
        }
        if (target.slug === "dashboard" && viewport.width < 900) {
          // The phone's menu, open: what the Menu button shows.
          await page.getByRole("banner").getByText("Menu", { exact: true }).click();
          const menu = path.join(OUT, `${brand.slug}-menu-${viewport.name}.png`);
          await page.screenshot({ path: menu });
          await page.getByRole("banner").getByText("Menu", { exact: true }).click();
          process.stdout.write(`${path.relative(ROOT, menu)}\n`);
        }
      }
      await context.close();
    }
  }
}

/** The two brands' dashboards, first screen at 360 × 740, side by side on a plain page. */
async function compose(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 820, height: 860 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const shots: { label: string; data: string }[] = [];
  for (const brand of BRANDS) {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const phonePage = await phone.newPage();
    await signIn(phonePage, `http://${brand.host}:${PORT}`, brand.email);
    const png = await phonePage.screenshot();
    shots.push({ label: brand.label, data: png.toString("base64") });
    await phone.close();
  }
  const figures = shots
    .map(
      (shot) =>
        `<figure><img src="data:image/png;base64,${shot.data}" width="360" height="740" alt=""><figcaption>${shot.label}</figcaption></figure>`,
    )
    .join("");
  await page.setContent(
    `<!doctype html><html><head><style>
      body { margin: 0; padding: 24px 20px; background: #e9edf1; font: 15px system-ui, sans-serif; color: #1f2933; }
      main { display: flex; gap: 60px; justify-content: center; }
      figure { margin: 0; text-align: center; }
      img { display: block; border: 1px solid #9aa5b1; border-radius: 12px; box-shadow: 0 4px 16px rgb(0 0 0 / 15%); }
      figcaption { margin-top: 12px; font-weight: 600; }
    </style></head><body><main>${figures}</main></body></html>`,
  );
  await mkdir(path.dirname(README_IMAGE), { recursive: true });
  await page.locator("main").screenshot({ path: README_IMAGE });
  process.stdout.write(`${path.relative(ROOT, README_IMAGE)}\n`);
  await context.close();
}

const server = await startPortal();
try {
  await waitForPortal(`http://127.0.0.1:${PORT}/api/host/heartbeat`, server);
  await mkdir(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP *.localhost 127.0.0.1"],
  });
  try {
    await shoot(browser);
    await compose(browser);
  } finally {
    await browser.close();
  }
} finally {
  server?.kill("SIGTERM");
}
