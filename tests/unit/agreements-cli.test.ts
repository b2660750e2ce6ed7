import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { DEMO_AGREEMENT_REFERENCE } from "../../db/seed/agreements";
import { runInProcess, runNpmScript, useCliDataDir, writeSeededDataDir } from "../support/cli";
import { withSeededDatabase } from "../support/seeded-db";

/**
 * `portal agreement …` (scripts/portal/agreements.ts; decision 036), its commands run in-process (issue 29)
 * on a migrated and seeded embedded database, mail to DATA_DIR/outbox in a temporary DATA_DIR; and
 * once as `npm run portal`, a real process on an embedded database in DATA_DIR.
 */
const run = (args: string[]) => runInProcess(args);

const dataDirPath = useCliDataDir("portal-agreements-cli-");
withSeededDatabase();

/** A text file for --file, in the temporary DATA_DIR. */
function textFile(name: string, text: string): string {
  const file = path.join(dataDirPath(), name);
  fs.writeFileSync(file, text);
  return file;
}

describe("portal agreement … (scripts/portal/agreements.ts), in-process", () => {
  it("creates a document, publishes a version, offers it by email, lists and withdraws the offer", async () => {
    const host = ["--host", "acme.localhost"];
    const created = await run([
      "agreement",
      "create",
      ...host,
      "--kind",
      "card-authority",
      "--title",
      "Card authority",
      "--file",
      textFile("v1.md", "# Card authority\n\nI authorise Acme to charge my card.\n"),
      "--json",
    ]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const document = (JSON.parse(created.stdout) as { document: { id: string; latestVersion: { version: number } } })
      .document;
    expect(document.latestVersion.version).toBe(1);

    const published = await run([
      "agreement",
      "version",
      ...host,
      "--document",
      document.id,
      "--file",
      textFile("v2.md", "# Card authority\n\nI authorise Acme to charge my card on its due date.\n"),
    ]);
    expect([published.code, published.stderr]).toEqual([0, ""]);
    expect(published.stdout).toContain("Published:\nCard authority  (card-authority)");
    expect(published.stdout).toMatch(/^ {2}version: {3}2, published /m);

    const listed = await run(["agreement", "list", ...host]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`  id:        ${document.id}`);
    expect(listed.stdout).toContain("Terms of trade  (terms-of-trade)");

    const offered = await run([
      "agreement",
      "offer",
      ...host,
      "--document",
      document.id,
      "--account",
      "ACME-1000",
      "--to",
      "olivia@coastal.example",
      "--print-link",
    ]);
    expect(offered.stderr).toBe("");
    expect(offered.code).toBe(0);
    expect(offered.stdout).toContain("Offered:");
    expect(offered.stdout).toContain("  emailed");
    const reference = /^(AG-[0-9A-Z]{6,12}) {2}offered {2}Card authority$/m.exec(offered.stdout)![1]!;
    const link = /link for olivia@coastal\.example: (\S+)/.exec(offered.stdout)![1]!;
    const outbox = path.join(dataDirPath(), "outbox");
    const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, files[0]!)));
    expect(mail.text).toContain(link);

    const offers = await run([
      "agreement",
      "offers",
      ...host,
      "--account",
      "ACME-1000",
      "--state",
      "offered",
      "--json",
    ]);
    expect(offers.code).toBe(0);
    const references = (JSON.parse(offers.stdout) as { items: { reference: string }[] }).items.map((o) => o.reference);
    expect(references).toEqual(expect.arrayContaining([reference, DEMO_AGREEMENT_REFERENCE]));
    // Without --print-link the link is in the email only.
    expect(offers.stdout).not.toContain(link.split("/").pop());

    const withdrawn = await run(["agreement", "withdraw", ...host, "--offer", reference, "--json"]);
    expect(withdrawn.stderr).toBe("");
    expect(JSON.parse(withdrawn.stdout).offer.state).toBe("withdrawn");
  });

  it("says what is wrong and exits non-zero: bad kind, missing or unreadable file, bad expiry, unknown command", async () => {
    const create = ["agreement", "create", "--host", "acme.localhost", "--title", "x"];
    const kind = await run([...create, "--kind", "lease", "--file", textFile("x.md", "x\n")]);
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain("kind: Use one of terms-of-trade, direct-debit, card-authority, other.");

    const noFile = await run([...create, "--kind", "other"]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain("--file is required.");

    const unreadable = await run([...create, "--kind", "other", "--file", path.join(dataDirPath(), "missing.md")]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("missing.md");

    const expires = await run([
      "agreement",
      "offer",
      "--host",
      "acme.localhost",
      "--document",
      "x",
      "--account",
      "ACME-1000",
      "--to",
      "olivia@coastal.example",
      "--expires",
      "soon",
    ]);
    expect(expires.code).toBe(2);
    expect(expires.stderr).toContain('--expires "soon": give days, e.g. 30d.');

    const unknown = await run(["agreement", "sign"]);
    expect(unknown.code).toBe(2);
    // commander's words for an unknown verb, then the noun's verbs.
    expect(unknown.stderr).toContain("error: unknown command 'sign'");
    expect(unknown.stderr).toMatch(/^ {2}withdraw \[options\]/m);
  });
});

describe("npm run portal -- agreement list, as a real process", () => {
  it("opens the embedded database in DATA_DIR, lists, and exits 0", { timeout: 90_000 }, async () => {
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-agreements-npm-"));
    try {
      await writeSeededDataDir(ownDataDir);
      const listed = await runNpmScript(["agreement", "list", "--host", "acme.localhost"], { DATA_DIR: ownDataDir });
      expect(listed.stderr).toBe("");
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain("Terms of trade  (terms-of-trade)");
    } finally {
      fs.rmSync(ownDataDir, { recursive: true, force: true });
    }
  });
});
