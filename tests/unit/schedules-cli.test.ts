import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { todayIn } from "../../app/lib/dates";
import { addDays } from "../../app/lib/instalments";
import { DEMO_SCHEDULE_REFERENCE } from "../../db/seed/schedules";
import { runInProcess, runNpmScript, useCliDataDir, writeSeededDataDir } from "../support/cli";
import { withSeededDatabase } from "../support/seeded-db";

/**
 * `portal schedule …` (scripts/portal/schedules.ts), its commands run in-process (issue 29) on a
 * migrated and seeded embedded database, mail to DATA_DIR/outbox in a temporary DATA_DIR; and
 * once as `npm run portal`, a real process.
 */
const run = (args: string[]) => runInProcess(args);

const dataDirPath = useCliDataDir("portal-schedules-cli-");
withSeededDatabase();

const day = (n: number) => addDays(todayIn("Australia/Sydney", new Date()), n);

describe("portal schedule … (scripts/portal/schedules.ts), in-process", () => {
  it("proposes and emails a schedule, prints its link only when asked, lists, shows and withdraws it", async () => {
    const created = await run([
      "schedule",
      "create",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-2000",
      "--to",
      "olivia@coastal.example",
      "--amount",
      "1,000.00",
      "--description",
      "Katoomba deck in three parts",
      "--count",
      "3",
      "--frequency",
      "fortnightly",
      "--first",
      day(3),
      "--print-link",
    ]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Proposed and sent:");
    expect(created.stdout).toContain("$333.33");
    expect(created.stdout).toContain("$333.34");
    expect(created.stdout).toContain("emailed: olivia@coastal.example");
    const reference = /^(PS-[0-9A-Z]{8}) {2}proposed/m.exec(created.stdout)![1]!;
    const link = /link for olivia@coastal\.example: (\S+)/.exec(created.stdout)![1]!;
    expect(link).toMatch(/^http:\/\/acme\.localhost:3000\/payment-schedule\/acceptance\/[A-Za-z0-9_-]{59}$/);

    const outbox = path.join(dataDirPath(), "outbox");
    const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, files[0]!)));
    expect(mail.subject).toContain(reference);
    expect(mail.text).toContain(link);
    expect(mail.html || "").toContain("Review and accept");

    const listed = await run(["schedule", "list", "--host", "acme.localhost", "--state", "proposed", "--json"]);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { items: { reference: string; totalCents: number }[] };
    expect(page.items.find((item) => item.reference === reference)?.totalCents).toBe(1_000_00);
    expect(listed.stdout).not.toContain(link.split("/").pop());

    const shown = await run(["schedule", "show", "--host", "acme.localhost", "--schedule", reference]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(` 3. ${day(31)}`);

    const withdrawn = await run([
      "schedule",
      "withdraw",
      "--host",
      "acme.localhost",
      "--schedule",
      reference,
      "--json",
    ]);
    expect(withdrawn.stderr).toBe("");
    expect(JSON.parse(withdrawn.stdout).schedule.state).toBe("withdrawn");
  });

  it("takes explicit instalments, and says what is wrong and exits non-zero otherwise", async () => {
    const base = [
      "schedule",
      "create",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-1000",
      "--to",
      "olivia@coastal.example",
    ];
    const explicit = await run([
      ...base,
      "--amount",
      "300.00",
      "--description",
      "Two parts",
      "--instalment",
      `${day(2)}=100.00`,
      "--instalment",
      `${day(9)}=150.00`,
      "--no-send",
    ]);
    expect(explicit.code).toBe(1);
    expect(explicit.stderr).toContain(
      "instalments: The instalments add up to $250.00, but the schedule is for $300.00",
    );

    const past = await run([...base, "--amount", "300.00", "--description", "x", "--instalment", `${day(-1)}=300.00`]);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("instalments.0.dueDate");

    const frequency = await run([
      ...base,
      "--amount",
      "300.00",
      "--description",
      "x",
      "--count",
      "3",
      "--frequency",
      "daily",
      "--first",
      day(1),
    ]);
    expect(frequency.code).toBe(1);
    expect(frequency.stderr).toContain("instalments.frequency: Use one of weekly, fortnightly, monthly, quarterly.");

    const contact = await run([
      "schedule",
      "create",
      "--host",
      "acme.localhost",
      "--account",
      "ACME-2000",
      "--to",
      "sam@coastal.example",
      "--amount",
      "10.00",
      "--description",
      "x",
      "--instalment",
      `${day(1)}=10.00`,
    ]);
    expect(contact.code).toBe(1);
    expect(contact.stderr).toContain("contact: sam@coastal.example may not act for account ACME-2000");

    const malformed = await run([...base, "--amount", "1e3", "--instalment", "tomorrow"]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("--amount");

    const unknown = await run(["schedule", "pause"]);
    expect(unknown.code).toBe(2);
    // commander's words for an unknown verb, then the noun's verbs.
    expect(unknown.stderr).toContain("error: unknown command 'pause'");
    expect(unknown.stderr).toMatch(/^ {2}create \[options\]/m);
  });
});

describe("npm run portal -- schedule list, as a real process", () => {
  it("opens the embedded database in DATA_DIR, lists, and exits 0", { timeout: 90_000 }, async () => {
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-schedules-npm-"));
    try {
      await writeSeededDataDir(ownDataDir);
      const listed = await runNpmScript(["schedule", "list", "--host", "acme.localhost", "--json"], {
        DATA_DIR: ownDataDir,
      });
      expect(listed.stderr).toBe("");
      expect(listed.code).toBe(0);
      const page = JSON.parse(listed.stdout) as { items: { reference: string }[] };
      expect(page.items.map((item) => item.reference)).toContain(DEMO_SCHEDULE_REFERENCE);
    } finally {
      fs.rmSync(ownDataDir, { recursive: true, force: true });
    }
  });
});
