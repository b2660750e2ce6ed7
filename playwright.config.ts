import { defineConfig } from "@playwright/test";

/**
 * End-to-end journeys in Debian's Chromium (browser downloads are impossible here),
 * each run twice: with JavaScript and with JavaScript disabled.
 * The built app is served by remix-serve on a fresh embedded database seeded with the
 * demo hosts; *.localhost names resolve to loopback inside Chromium.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4310);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const dataDir = `.tmp/e2e-data-${E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--host-resolver-rules=MAP *.localhost 127.0.0.1",
      ],
    },
    trace: "retain-on-failure",
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && exec node node_modules/@remix-run/serve/dist/cli.js ./build/index.js`,
    url: `http://127.0.0.1:${E2E_PORT}/api/host/heartbeat`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      ...(process.env as Record<string, string>),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
  },
});
