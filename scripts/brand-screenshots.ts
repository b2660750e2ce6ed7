/**
 * `npm run screenshots:brands` (issue 16): the two demo brands side by side, at 360 and 1280 px,
 * for the README, in docs/screenshots/:
 * - brands-360.png and brands-1280.png: each brand's dashboard as its customers see it;
 * - admin-branding-360.png: each brand's /admin/branding page, as its host admin sees it.
 *
 * Starts the built portal (run `npx remix build` first) on a fresh embedded database seeded with
 * the demo hosts and their host admins, signs in, and takes Chromium screenshots. Options
 * (environment): BRAND_SCREENSHOTS_PORT (default 4398); SCREENSHOTS_URL_PORT to use a portal
 * already running on that port (it must hold the demo data); CHROMIUM_PATH (default
 * /usr/bin/chromium). Nothing is saved or published: every page is a GET, apart from signing in.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../db/seed/demo";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "docs/screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const existingPort = process.env.SCREENSHOTS_URL_PORT ? Number(process.env.SCREENSHOTS_URL_PORT) : null;
const PORT = existingPort ?? Number(process.env.BRAND_SCREENSHOTS_PORT ?? 4398);

const BRANDS = [
  {
    host: "acme.localhost",
    customer: "olivia@coastal.example",
    admin: "admin@acme.example",
    label: "Acme Plumbing Supplies (navy-blue)",
  },
  {
    host: "kiwi.localhost",
    customer: "liam@tasman.example",
    admin: "admin@kiwi.example",
    label: "Kiwi Freight Co. (english-holly)",
  },
] as const;

const VIEWPORTS = { 360: { width: 360, height: 740 }, 1280: { width: 1280, height: 800 } } as const;

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
  const dataDir = path.join(ROOT, `.tmp/brand-screenshots-data-${PORT}`);
  await rm(dataDir, { recursive: true, force: true });
  return spawn(process.execPath, ["scripts/serve.js"], {
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
}

async function signIn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/payment/payment-request/all");
}

/** One screenshot per brand of `path` at a width, signed in as `who`. */
async function shots(browser: Browser, width: 360 | 1280, who: "customer" | "admin", pagePath: string) {
  const images: { label: string; data: string; width: number; height: number }[] = [];
  for (const brand of BRANDS) {
    const viewport = VIEWPORTS[width];
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const origin = `http://${brand.host}:${PORT}`;
    await signIn(page, origin, brand[who]);
    if (pagePath !== "/") await page.goto(`${origin}${pagePath}`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    const png = await page.screenshot();
    images.push({ label: brand.label, data: png.toString("base64"), ...viewport });
    await context.close();
  }
  return images;
}

/** The brands' screenshots side by side on a plain page, each shown at `scale`. */
async function compose(browser: Browser, file: string, images: Awaited<ReturnType<typeof shots>>, scale: number) {
  const gap = 48;
  const pageWidth = images.reduce((sum, image) => sum + image.width * scale, 0) + gap * (images.length + 1);
  const context = await browser.newContext({ viewport: { width: Math.ceil(pageWidth), height: 900 } });
  const page = await context.newPage();
  const figures = images
    .map(
      (image) =>
        `<figure><img src="data:image/png;base64,${image.data}" width="${image.width * scale}" height="${image.height * scale}" alt=""><figcaption>${image.label}</figcaption></figure>`,
    )
    .join("");
  await page.setContent(
    `<!doctype html><html><head><style>
      body { margin: 0; padding: 24px ${gap}px; background: #e9edf1; font: 15px system-ui, sans-serif; color: #1f2933; }
      main { display: flex; gap: ${gap}px; justify-content: center; }
      figure { margin: 0; text-align: center; }
      img { display: block; border: 1px solid #9aa5b1; border-radius: 8px; box-shadow: 0 4px 16px rgb(0 0 0 / 15%); }
      figcaption { margin-top: 12px; font-weight: 600; }
    </style></head><body><main>${figures}</main></body></html>`,
  );
  const target = path.join(OUT, file);
  await page.locator("main").screenshot({ path: target });
  process.stdout.write(`${path.relative(ROOT, target)}\n`);
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
    await compose(browser, "brands-360.png", await shots(browser, 360, "customer", "/"), 1);
    await compose(browser, "brands-1280.png", await shots(browser, 1280, "customer", "/"), 0.5);
    await compose(browser, "admin-branding-360.png", await shots(browser, 360, "admin", "/admin/branding"), 1);
  } finally {
    await browser.close();
  }
} finally {
  server?.kill("SIGTERM");
}
