import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { runInProcess, useCliDataDir } from "../support/cli";
import { withSeededDatabase } from "../support/seeded-db";

/**
 * The one command line (scripts/portal.ts; decision 062), in-process: --help at every level, and bad
 * input — an unknown noun or verb, an unknown or malformed option — refused with exit code 2 and a
 * message, every table of the database as it was and no email written.
 */
const dataDir = useCliDataDir("portal-cli-");
const { db } = withSeededDatabase();

const NOUNS: Record<string, string[]> = {
  request: ["create", "list", "send", "resend", "remind", "cancel"],
  adhoc: ["link", "revoke"],
  "invoice-link": ["create", "revoke", "list"],
  communication: ["link"],
  apikey: ["create"],
  agreement: ["create", "version", "list", "offer", "offers", "resend", "withdraw"],
  schedule: ["create", "list", "show", "send", "resend", "withdraw", "cancel"],
  jobs: ["list", "failed", "stuck", "show", "retry"],
  db: ["migrate", "seed", "backup", "restore"],
  sandbox: ["faults"],
};

/** Every table of the portal's and pg-boss's schemas with its row count. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
    WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE' ORDER BY 1`.execute(db());
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const [schema, table] = name.split(".") as [string, string];
    const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(`${schema}.${table}`)}`.execute(
      db(),
    );
    counts[name] = result.rows[0]!.n;
  }
  return counts;
}

const outbox = () => {
  const folder = path.join(dataDir(), "outbox");
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
};

describe("--help at every level", () => {
  it("the top level lists every noun and exits 0", async () => {
    const result = await runInProcess(["--help"]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    for (const noun of Object.keys(NOUNS)) expect(result.stdout).toMatch(new RegExp(`^ {2}${noun}\\b`, "m"));
  });

  it.each(Object.entries(NOUNS))("%s --help lists its verbs and exits 0", async (noun, verbs) => {
    const result = await runInProcess([noun, "--help"]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(result.stdout).toContain(`Usage: portal ${noun} <verb> [options]`);
    for (const verb of verbs) expect(result.stdout).toMatch(new RegExp(`^ {2}${verb}\\b`, "m"));
  });

  it.each(Object.entries(NOUNS).flatMap(([noun, verbs]) => verbs.map((verb) => [noun, verb])))(
    "%s %s --help prints its usage and exits 0",
    async (noun, verb) => {
      const result = await runInProcess([noun, verb, "--help"]);
      expect([result.code, result.stderr]).toEqual([0, ""]);
      expect(result.stdout).toContain(`Usage: portal ${noun} ${verb}`);
      expect(result.stdout).toContain("-h, --help");
    },
  );

  it("a verb's help names its options", async () => {
    const result = await runInProcess(["request", "create", "--help"]);
    for (const option of ["--host <host>", "--account", "--invoice", "--amount", "--to", "--no-send", "--print-link"]) {
      expect(result.stdout).toContain(option);
    }
  });
});

describe("bad input: exit code 2, a message, nothing changed", () => {
  const valid = ["--host", "acme.localhost", "--account", "ACME-1000", "--amount", "10.00", "--description", "x"];
  it.each([
    [["refund"], /unknown command 'refund'/],
    [["request"], /Usage: portal request <verb>/],
    [["request", "refund", ...valid], /unknown command 'refund'/],
    [["request", "create", ...valid, "--to", "olivia@coastal.example", "--bogus"], /unknown option '--bogus'/],
    [["request", "create", ...valid, "--to", "olivia@coastal.example", "--state", "sent"], /unknown option '--state'/],
    [["request", "create", ...valid, "--to", "olivia@coastal.example", "--amount", "ten"], /--amount "ten"/],
    [["request", "create", ...valid, "--to", "olivia@coastal.example", "--expires", "soon"], /--expires "soon"/],
    [["request", "create", ...valid.slice(2), "--to", "olivia@coastal.example"], /--host is required\./],
    [["request", "create", ...valid, "--to"], /option '--to <contact>' argument missing/],
    [["request", "cancel", "--host", "acme.localhost", "--request", "PR-DEMO0001", "extra"], /too many arguments/],
    [["request", "list", "--host", "acme.localhost", "--limit", "many"], /--limit must be a whole number/],
    [["schedule", "withdraw", "--host", "acme.localhost"], /--schedule is required\./],
    [
      ["invoice-link", "create", "--host", "acme.localhost", "--to", "olivia@coastal.example"],
      /--invoice is required\./,
    ],
    [["invoice-link", "create", "--host", "acme.localhost", "--invoice", "ACME-1000-INV-023"], /--to is required/],
    [
      [
        "invoice-link",
        "create",
        "--host",
        "acme.localhost",
        "--invoice",
        "ACME-1000-INV-023",
        "--to",
        "o@c.example",
        "--expires",
        "120d",
      ],
      /--expires must be from 1d to 90d/,
    ],
    [["invoice-link", "revoke", "--host", "acme.localhost"], /--invoice is required\./],
    [
      ["invoice-link", "list", "--host", "acme.localhost", "--state", "gone"],
      /--state must be one of live, expired, revoked/,
    ],
    [
      ["schedule", "create", "--host", "acme.localhost", "--account", "ACME-2000", "--to", "x@y.example"],
      /instalments/,
    ],
    [["agreement", "withdraw", "--host", "acme.localhost", "--offer"], /argument missing/],
    [["apikey", "create", "--host", "acme.localhost", "--scope", "payment-requests:read"], /--name is required\./],
    [["jobs", "retry", "not-a-job"], /is not a job id/],
    [["db", "restore", "--from", "x.dump"], /exactly one of --into/],
    [["sandbox", "faults", "gateway", "slow", "soon"], /usage: portal sandbox faults/],
  ])("%j", async (args, message) => {
    const before = await rowCounts();
    const mail = outbox();
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(await rowCounts()).toEqual(before);
    expect(outbox()).toEqual(mail);
  });

  it("the same command, typed right, does change the database (the counts above can see a change)", async () => {
    const before = await rowCounts();
    const result = await runInProcess([
      "request",
      "create",
      ...valid,
      "--to",
      "olivia@coastal.example",
      "--no-send",
      "--json",
    ]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect((await rowCounts())["public.payment_requests"]).toBe(before["public.payment_requests"]! + 1);
  });
});
