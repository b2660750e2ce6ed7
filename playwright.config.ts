import { defineConfig } from "@playwright/test";
import { heapLimitArgs } from "./scripts/heap-limit.js";
import { ensureStandinCertificate } from "./tests/support/oidc-standin";
import { HARBOUR_CLIENT } from "./tests/support/oidc-standin-demo";

/**
 * End-to-end journeys in Debian's Chromium (browser downloads are impossible here),
 * each run twice: with JavaScript and with JavaScript disabled.
 *
 * Three servers start first: a real SMTP server that catches the portal's mail (with a
 * small HTTP API the tests read it from), a stand-in OpenID provider playing Auth0 over
 * HTTPS, and the built portal (scripts/serve.js: remix-serve's set-up behind the portal's front door) on a fresh embedded database seeded with the
 * demo hosts and the tests' own contacts. *.localhost names resolve to loopback inside
 * Chromium.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4310);
const OIDC_PORT = E2E_PORT + 1;
const SMTP_PORT = E2E_PORT + 15;
const MAILBOX_PORT = E2E_PORT + 16;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const dataDir = `.tmp/e2e-data-${E2E_PORT}`;
const certDir = ".tmp/oidc";
// The portal trusts the stand-in's self-signed certificate through NODE_EXTRA_CA_CERTS,
// so it must exist before the portal starts.
const { certPath } = ensureStandinCertificate(certDir);

const env = process.env as Record<string, string>;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // The JSON report is what `npm run test:slowest` reads (each journey's duration and limit).
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: ".tmp/reports/e2e.json" }]]
    : [["list"], ["html", { open: "never" }], ["json", { outputFile: ".tmp/reports/e2e.json" }]],
  timeout: 45_000,
  expect: { timeout: 7_000 },
  use: {
    browserName: "chromium",
    // The stand-in identity provider's certificate is self-signed.
    ignoreHTTPSErrors: true,
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
    // Kept for a failed test only, with DOM snapshots but without the screencast: recording every
    // test's screencast cost about a tenth of the suite's time (issue 29, docs/testing.md).
    trace: { mode: "retain-on-failure", screenshots: false },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: [
    {
      command: "node --import tsx tests/support/smtp-catcher-cli.ts",
      url: `http://127.0.0.1:${MAILBOX_PORT}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...env, SMTP_CATCHER_PORT: String(SMTP_PORT), SMTP_CATCHER_HTTP_PORT: String(MAILBOX_PORT) },
    },
    {
      command: "node --import tsx tests/support/oidc-standin-cli.ts",
      url: `https://127.0.0.1:${OIDC_PORT}/health`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...env, OIDC_PORT: String(OIDC_PORT), OIDC_CERT_DIR: certDir },
    },
    {
      // The server's output goes to a file the card-data test searches (no card number may appear).
      // The heap limit on the command line (decision 058), so `exec` leaves the server itself as the process.
      command: `rm -rf ${dataDir} && node --import tsx tests/support/e2e-seed.ts && exec node ${heapLimitArgs().join(" ")} scripts/serve.js ./build/index.js >> ${dataDir}/server.log 2>&1`,
      url: `http://127.0.0.1:${E2E_PORT}/api/host/heartbeat`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        ...env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(E2E_PORT),
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        LOG_LEVEL: "info",
        SANDBOX_GATEWAY_DELAY_MS: "20",
        SANDBOX_PAYTO_SETTLE_MS: "1500",
        SANDBOX_PAYTO_EXPIRE_MS: "600000",
        SANDBOX_PAYTO_SUSPEND_MS: "3000",
        SANDBOX_PAYTO_DELAY_MS: "20",
        PAYTO_POLL_MS: "2000",
        // The e2e suite moves the portal's clock and runs due instalments now (decision 035).
        PORTAL_TEST_CLOCK: "on",
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: "no-reply@portal.test",
        DEMO_AUTH0_DOMAIN: `127.0.0.1:${OIDC_PORT}`,
        AUTH0_CLIENT_SECRETS: JSON.stringify({ [HARBOUR_CLIENT.clientId]: HARBOUR_CLIENT.clientSecret }),
        NODE_EXTRA_CA_CERTS: certPath,
      },
    },
  ],
});
