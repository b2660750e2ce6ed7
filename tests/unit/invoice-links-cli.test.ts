import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { runInProcess, useCliDataDir } from "../support/cli";
import { withSeededDatabase } from "../support/seeded-db";

/**
 * `portal invoice-link create|revoke|list` (scripts/portal/invoice-links.ts; issue 31, decision 074), run
 * in-process on a migrated and seeded embedded database, mail to DATA_DIR/outbox in a temporary DATA_DIR.
 */
const run = (args: string[]) => runInProcess(args);
const HOST = ["--host", "acme.localhost"];
const INVOICE = "ACME-1000-INV-024";

describe("portal invoice-link … (scripts/portal/invoice-links.ts), in-process", () => {
  const dataDir = useCliDataDir("portal-invoice-links-cli-");
  const { db } = withSeededDatabase();
  const linkCount = async () =>
    Number(
      (
        await db()
          .selectFrom("link_tokens")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const outbox = () => {
    const folder = path.join(dataDir(), "outbox");
    return fs.existsSync(folder) ? fs.readdirSync(folder).filter((file) => file.endsWith(".eml")) : [];
  };

  it("creates and emails a link, prints it only when asked, lists it and revokes it", async () => {
    const created = await run([
      "invoice-link",
      "create",
      ...HOST,
      "--invoice",
      INVOICE,
      "--to",
      "olivia@coastal.example",
      "--expires",
      "7d",
      "--print-link",
    ]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Invoice ${INVOICE} (`);
    expect(created.stdout).toContain("emailed: olivia@coastal.example");
    const link = /link for olivia@coastal\.example: (\S+)/.exec(created.stdout)![1]!;
    expect(link).toMatch(/^http:\/\/acme\.localhost:3000\/customer\/invoices-and-payments\/[A-Za-z0-9_-]{59}$/);

    const files = outbox();
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(dataDir(), "outbox", files[0]!)));
    expect(mail.subject).toContain(INVOICE);
    expect(mail.subject).toMatch(/\$[\d,]+\.\d{2} due [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(mail.text).toContain(link);
    expect(mail.html || "").toContain("Pay now");

    const listed = await run(["invoice-link", "list", ...HOST, "--invoice", INVOICE, "--state", "live", "--json"]);
    expect([listed.code, listed.stderr]).toEqual([0, ""]);
    const page = JSON.parse(listed.stdout) as { items: { contact: { email: string }; state: string }[] };
    expect(page.items).toEqual([
      expect.objectContaining({ contact: expect.objectContaining({ email: "olivia@coastal.example" }), state: "live" }),
    ]);
    // Without --print-link the link is in the email only.
    expect(listed.stdout).not.toContain(link.split("/").pop());

    const text = await run(["invoice-link", "list", ...HOST, "--invoice", INVOICE]);
    expect(text.stdout).toMatch(new RegExp(`^${INVOICE} {2}live {2}olivia@coastal\\.example`, "m"));

    const revoked = await run([
      "invoice-link",
      "revoke",
      ...HOST,
      "--invoice",
      INVOICE,
      "--contact",
      "olivia@coastal.example",
    ]);
    expect([revoked.code, revoked.stderr]).toEqual([0, ""]);
    expect(revoked.stdout).toContain(
      `Revoked 1 link(s) of olivia@coastal.example to invoice ${INVOICE}: they no longer work.`,
    );
    const again = await run(["invoice-link", "revoke", ...HOST, "--invoice", INVOICE, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ revoked: 0, contact: null });
  });

  it("refuses what the service refuses with exit 1 and its message; nothing changes", async () => {
    const before = await linkCount();
    const mail = outbox();
    const notContact = await run([
      "invoice-link",
      "create",
      ...HOST,
      "--invoice",
      INVOICE,
      "--to",
      "sam@coastal.example",
    ]);
    expect(notContact.code).toBe(1);
    expect(notContact.stderr).toContain('recipients.0: "sam@coastal.example" is not a contact of account ACME-1000.');
    const paid = await run([
      "invoice-link",
      "create",
      ...HOST,
      "--invoice",
      "ACME-1000-INV-016",
      "--to",
      "olivia@coastal.example",
    ]);
    expect(paid.code).toBe(1);
    expect(paid.stderr).toContain("cannot be paid online");
    const kiwi = await run([
      "invoice-link",
      "create",
      "--host",
      "kiwi.localhost",
      "--invoice",
      INVOICE,
      "--to",
      "olivia@coastal.example",
    ]);
    expect([kiwi.code, kiwi.stderr.trim()]).toEqual([1, "No such invoice."]);
    expect(await linkCount()).toBe(before);
    expect(outbox()).toEqual(mail);
  });

  it("refuses mistakes in what was typed with exit 2 before opening the database; --help names the options", async () => {
    const before = await linkCount();
    for (const [args, message] of [
      [["invoice-link", "create", ...HOST, "--to", "olivia@coastal.example"], /--invoice is required\./],
      [["invoice-link", "create", ...HOST, "--invoice", INVOICE], /--to is required/],
      [
        [
          "invoice-link",
          "create",
          ...HOST,
          "--invoice",
          INVOICE,
          "--to",
          "o@c.example",
          "--expires",
          "2026-12-31T00:00:00Z",
        ],
        /in days/,
      ],
      [["invoice-link", "create", "--invoice", INVOICE, "--to", "o@c.example"], /--host is required\./],
      [["invoice-link", "list", ...HOST, "--state", "open"], /--state must be one of live, expired, revoked/],
      [["invoice-link", "list", ...HOST, "--limit", "lots"], /--limit must be a whole number/],
      [["invoice-link", "revoke", ...HOST, "--invoice", INVOICE, "--bogus"], /unknown option '--bogus'/],
      [["invoice-link", "send"], /unknown command 'send'/],
    ] as const) {
      const result = await run([...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
    expect(await linkCount()).toBe(before);
    const help = await run(["invoice-link", "create", "--help"]);
    expect(help.code).toBe(0);
    for (const option of [
      "--host <host>",
      "--invoice <number|id>",
      "--to <contact>",
      "--expires <days>",
      "--print-link",
    ]) {
      expect(help.stdout).toContain(option);
    }
  });
});
