import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it, vi } from "vitest";
import { isDatabaseOpen } from "../../app/services/platform/database.server";
import { resetEnvForTesting } from "../../app/services/platform/env.server";
import { runInProcess, runNpmScript, useCliDataDir, writeSeededDataDir } from "../support/cli";
import { withSeededDatabase } from "../support/seeded-db";
import { createSeededPostgresDatabase, TEST_DATABASE_URL } from "../support/test-db";

/**
 * `portal request|adhoc|communication|apikey …` (scripts/portal/requests.ts), its commands run in-process (issue 29) on a migrated
 * and seeded embedded database, mail to DATA_DIR/outbox in a temporary DATA_DIR; and once as
 * `npm run portal`, a real process on an embedded database in DATA_DIR.
 */
const run = (args: string[]) => runInProcess(args);

/** A temporary DATA_DIR for the portal's configuration (the outbox, the embedded database). */

describe("portal request … (scripts/portal/requests.ts), in-process", () => {
  const dataDir = useCliDataDir("portal-requests-cli-");
  withSeededDatabase();

  it("creates and emails a request, prints its link only when asked, and lists it", async () => {
    const created = await run([
      "request",
      "create",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-1000",
      "--amount",
      "1,204.50",
      "--description",
      "Deposit for the Wollongong order",
      "--to",
      "olivia@coastal.example",
      "--due",
      "2026-12-15",
      "--expires",
      "7d",
      "--part-payment",
      "--min",
      "100.00",
      "--print-link",
    ]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Created and sent:");
    expect(created.stdout).toContain("$1,204.50");
    expect(created.stdout).toContain("emailed: olivia@coastal.example");
    const reference = /^(PR-[0-9A-Z]{8}) {2}sent/m.exec(created.stdout)![1]!;
    const link = /link for olivia@coastal\.example: (\S+)/.exec(created.stdout)![1]!;
    expect(link).toMatch(/^http:\/\/acme\.localhost:3000\/customer\/payment-request\/[A-Za-z0-9_-]{59}$/);

    const outbox = path.join(dataDir(), "outbox");
    const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, files[0]!)));
    expect(mail.subject).toContain(reference);
    expect(mail.text).toContain(link);
    expect(mail.html || "").toContain("Pay now");

    const listed = await run(["request", "list", "--host", "acme.localhost", "--state", "sent", "--json"]);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { items: { reference: string; amountCents: number }[] };
    expect(page.items.find((item) => item.reference === reference)?.amountCents).toBe(1_204_50);
    // Without --print-link the link is in the email only.
    expect(listed.stdout).not.toContain(link.split("/").pop());
    // The test's database stays open: the command closes only a database it opened itself.
    expect(isDatabaseOpen()).toBe(true);
  });

  it("revokes a contact's ad-hoc links for an account, and says when there was nothing to revoke", async () => {
    const linked = await run([
      "adhoc",
      "link",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-1000",
      "--to",
      "olivia@coastal.example",
      "--json",
    ]);
    expect(linked.stderr).toBe("");
    expect(JSON.parse(linked.stdout)).toMatchObject({ replaced: 0, delivery: { sent: true } });
    const args = ["adhoc", "revoke", "--host", "acme.localhost", "--account", "ACME-1000", "--contact"];
    const revoked = await run([...args, "olivia@coastal.example"]);
    expect([revoked.code, revoked.stderr]).toEqual([0, ""]);
    expect(revoked.stdout).toContain("Revoked 1 ad-hoc link(s) of olivia@coastal.example for account ACME-1000");
    const again = await run([...args, "olivia@coastal.example", "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ revoked: 0, contact: { email: "olivia@coastal.example" } });
    const nobody = await run([...args, "nobody@elsewhere.example"]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('contact: No contact "nobody@elsewhere.example" at this business.');
  });

  it("says what is wrong and exits non-zero: bad amount, other account's contact, unknown command", async () => {
    const amount = await run([
      "request",
      "create",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-1000",
      "--amount",
      "1e3",
    ]);
    expect(amount.code).toBe(2);
    expect(amount.stderr).toContain("--amount");
    expect(amount.stderr).toContain("Enter an amount like 125.50");

    const contact = await run([
      "request",
      "create",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-1000",
      "--invoice",
      "ACME-1000-INV-024",
      "--to",
      "sam@coastal.example",
    ]);
    expect(contact.code).toBe(1);
    expect(contact.stderr).toContain('recipients.0: "sam@coastal.example" is not a contact of account ACME-1000.');

    const unknown = await run(["request", "refund"]);
    expect(unknown.code).toBe(2);
    // commander's words for an unknown verb, then the noun's verbs.
    expect(unknown.stderr).toContain("error: unknown command 'refund'");
    expect(unknown.stderr).toMatch(/^ {2}create \[options\]/m);
  });
});

describe("npm run portal -- request list, as a real process", () => {
  const dataDir = useCliDataDir("portal-requests-npm-");

  it("opens the embedded database in DATA_DIR, lists, and exits 0", { timeout: 90_000 }, async () => {
    await writeSeededDataDir(dataDir());
    const listed = await runNpmScript(["request", "list", "--host", "acme.localhost", "--json"], {
      DATA_DIR: dataDir(),
    });
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { items: { reference: string }[] };
    expect(page.items.map((item) => item.reference)).toContain("PR-DEMO0001");
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the CLI on PostgreSQL (TEST_DATABASE_URL)", () => {
  it("works on DATABASE_URL as on the embedded database", async () => {
    const database = await createSeededPostgresDatabase();
    try {
      // No database installed: the command opens the configured one, and closes it again.
      vi.stubEnv("DATABASE_URL", database.url);
      resetEnvForTesting();
      const cancelled = await run([
        "request",
        "cancel",
        "--host",
        "acme.localhost",
        "--request",
        "PR-DEMO0001",
        "--json",
      ]);
      expect(cancelled.stderr).toBe("");
      expect(JSON.parse(cancelled.stdout).request.state).toBe("cancelled");
      expect(isDatabaseOpen()).toBe(false);
      const row = await database.handle.db
        .selectFrom("payment_requests")
        .select("status")
        .where("reference", "=", "PR-DEMO0001")
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("cancelled");
    } finally {
      vi.unstubAllEnvs();
      resetEnvForTesting();
      await database.drop();
    }
  });
});
