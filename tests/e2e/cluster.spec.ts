import fs from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { startCluster, type Cluster } from "../../scripts/cluster-lib";
import { expect, openSection, signInAs, test } from "./fixtures";

/**
 * A person's journey through the real HAProxy in front of two portal processes on PostgreSQL
 * (issue 18, decision 045), with JavaScript and without: sign in, the dashboard, pay an invoice
 * with the saved card. Round robin spreads the journey's requests over both processes, so the
 * session and the payment form cross between them. Each project starts its own cluster and
 * database. Needs TEST_DATABASE_URL, and HAProxy (required in CI).
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const HAPROXY = process.env.HAPROXY || "/usr/sbin/haproxy";
const E2E_PORT = Number(process.env.E2E_PORT ?? 4310);

test.describe("through HAProxy, two processes", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (a PostgreSQL it may create a database on)");
  test.skip(!fs.existsSync(HAPROXY) && !process.env.CI, "needs HAProxy (apt-get install haproxy)");
  test.describe.configure({ mode: "serial" });

  let cluster: Cluster;
  let databaseName = "";
  let origin = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const offset = test.info().project.name === "js" ? 0 : 4;
    const proxyPort = E2E_PORT + 30 + offset;
    databaseName = `portal_cluster_e2e_${randomBytes(4).toString("hex")}`;
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${databaseName}`;
    cluster = await startCluster({
      processes: 2,
      basePort: proxyPort + 1,
      proxyPort,
      databaseUrl: url.toString(),
      env: { LOG_LEVEL: "warn", SANDBOX_GATEWAY_DELAY_MS: "20" },
    });
    origin = `http://acme.localhost:${proxyPort}`;
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    await cluster?.stop();
    if (!databaseName) return;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });

  test("sign in, the dashboard, and a payment with the saved card, answered by both processes", async ({ page }) => {
    const before = await cluster.serverSessions();
    await signInAs(page, origin, "olivia@coastal.example", DEMO_PASSWORD);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("banner")).toContainText("Coastal Builders Group");

    await openSection(page, "Invoices and payments");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoices and payments");
    await page
      .getByRole("checkbox", { name: /^Pay invoice / })
      .first()
      .check();
    await page.getByRole("button", { name: "Pay selected invoices" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL(/\/payment\/complete\//);

    const after = await cluster.serverSessions();
    expect(after.p0! - before.p0!, "requests answered by p0").toBeGreaterThan(1);
    expect(after.p1! - before.p1!, "requests answered by p1").toBeGreaterThan(1);
  });
});
