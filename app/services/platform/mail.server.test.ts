import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { resetEnvForTesting } from "./env.server";
import { logger } from "./logger.server";
import { sendMail } from "./mail.server";

const ENV_KEYS = ["SMTP_URL", "MAIL_FROM", "DATA_DIR"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

let dataDir: string;
let catcher: SmtpCatcher;

function setEnv(values: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTesting();
}

function outboxFiles() {
  const outbox = path.join(dataDir, "outbox");
  return fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : [];
}

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});

afterAll(async () => {
  await catcher.close();
});

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-mail-test-"));
  setEnv({ DATA_DIR: dataDir, SMTP_URL: undefined, MAIL_FROM: undefined });
  catcher.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
  setEnv(saved);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("sendMail with SMTP_URL", () => {
  it("delivers over SMTP with the sender, recipient, subject, text and HTML", async () => {
    setEnv({ SMTP_URL: catcher.smtpUrl, MAIL_FROM: "billing@acme.example" });
    const link = "https://acme.localhost/auth/password/reset?token=abc&email=jo%40example.com";
    const result = await sendMail({
      category: "account",
      to: "Jo@Example.com",
      fromName: "Acme Plumbing",
      subject: "Reset your Acme Plumbing portal password",
      text: `Hello Jo,\n\nChoose a new password here:\n${link}\n`,
      html: `<p>Hello Jo,</p><p><a href="${link.replace(/&/g, "&amp;")}">Choose a new password</a></p>`,
    });

    expect(result.transport).toBe("smtp");
    expect(result.messageId).toMatch(/^<.+@.+>$/);
    const mail = await catcher.waitForMail("jo@example.com", { subject: /Reset your/ });
    expect(mail.to).toEqual(["jo@example.com"]);
    expect(mail.from).toBe('"Acme Plumbing" <billing@acme.example>');
    expect(mail.subject).toBe("Reset your Acme Plumbing portal password");
    expect(mail.text).toContain(link);
    expect(mail.html).toContain("<p>Hello Jo,</p>");
    expect(mail.links).toEqual([link]);
    expect(mail.messageId).toBe(result.messageId);
    // Nothing goes to the outbox when SMTP is configured.
    expect(outboxFiles()).toEqual([]);
  });

  it("uses the default sender without MAIL_FROM or a sender name, and sends text-only mail", async () => {
    setEnv({ SMTP_URL: catcher.smtpUrl });
    await sendMail({ category: "non-contact", to: "plain@example.com", subject: "Plain", text: "Just text" });
    const mail = await catcher.waitForMail("plain@example.com");
    expect(mail.from).toBe('"Customer portal" <no-reply@portal.localhost>');
    expect(mail.text.trim()).toBe("Just text");
    expect(mail.html).toBeNull();
  });

  it("follows a change of SMTP_URL (the transport is keyed by the URL)", async () => {
    const other = await startSmtpCatcher();
    try {
      setEnv({ SMTP_URL: catcher.smtpUrl });
      await sendMail({ category: "non-contact", to: "first@example.com", subject: "One", text: "1" });
      setEnv({ SMTP_URL: other.smtpUrl });
      await sendMail({ category: "non-contact", to: "second@example.com", subject: "Two", text: "2" });
      expect(catcher.messages.map((m) => m.subject)).toEqual(["One"]);
      expect(other.messages.map((m) => m.subject)).toEqual(["Two"]);
    } finally {
      await other.close();
    }
  });

  it("logs the recipient (never the body) and rethrows when the server cannot be reached", async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const errorLog = vi.spyOn(logger, "error");

    await expect(
      sendMail({ category: "non-contact", to: "down@example.com", subject: "Down", text: "secret-token-123" }),
    ).rejects.toThrow(/ECONNREFUSED|connect/i);
    expect(errorLog).toHaveBeenCalledTimes(1);
    const [message, fields] = errorLog.mock.calls[0]!;
    expect(message).toBe("mail could not be sent");
    expect(fields).toMatchObject({ to: "down@example.com", transport: "smtp" });
    expect(JSON.stringify(fields)).not.toContain("secret-token-123");
  });
});

describe("sendMail without SMTP_URL", () => {
  it("writes an .eml file to DATA_DIR/outbox and logs its path and recipient, not the body", async () => {
    setEnv({ MAIL_FROM: "hello@kiwi.example" });
    const infoLog = vi.spyOn(logger, "info");
    const result = await sendMail({
      category: "account",
      to: "sam@example.com",
      fromName: "Kiwi Gardens",
      subject: "Confirm your email for the Kiwi Gardens portal",
      text: "Open https://kiwi.localhost/auth/verify?token=one-time-secret",
      html: "<p>Open <a href='https://kiwi.localhost/auth/verify?token=one-time-secret'>this link</a></p>",
    });

    expect(result.transport).toBe("outbox");
    const files = outboxFiles();
    expect(files).toHaveLength(1);
    const name = files[0]!;
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]+\.eml$/);
    const file = path.join(dataDir, "outbox", name);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const raw = fs.readFileSync(file, "utf8");
    expect(raw).toContain("Subject: Confirm your email for the Kiwi Gardens portal");
    const parsed = await simpleParser(fs.readFileSync(file));
    expect(parsed.subject).toBe("Confirm your email for the Kiwi Gardens portal");
    expect(parsed.from?.text).toBe('"Kiwi Gardens" <hello@kiwi.example>');
    expect(parsed.text?.trim()).toBe("Open https://kiwi.localhost/auth/verify?token=one-time-secret");
    expect(parsed.html).toContain("this link");
    expect(parsed.messageId).toBe(result.messageId);

    expect(infoLog).toHaveBeenCalledWith("mail written to outbox", { to: "sam@example.com", file });
    expect(JSON.stringify(infoLog.mock.calls)).not.toContain("one-time-secret");
    expect(catcher.messages).toEqual([]);
  });

  it("gives every message its own file", async () => {
    await Promise.all(
      ["a", "b", "c"].map((n) =>
        sendMail({ category: "non-contact", to: `${n}@example.com`, subject: `Mail ${n}`, text: n }),
      ),
    );
    expect(outboxFiles().filter((f) => f.endsWith(".eml"))).toHaveLength(3);
    expect(outboxFiles().filter((f) => !f.endsWith(".eml"))).toEqual([]);
  });
});

describe("header injection guard", () => {
  const attempts = [
    "a@b.example\r\nBcc: x@y.example",
    "a@b.example\nBcc: x@y.example",
    "a@b.example, c@d.example",
    "a@b.example;c@d.example",
    '"Someone" <a@b.example>',
    "a@b.example c@d.example",
    "not-an-address",
    "",
  ];

  it.each(attempts)("refuses %j over SMTP and sends nothing", async (to) => {
    setEnv({ SMTP_URL: catcher.smtpUrl });
    await expect(sendMail({ category: "non-contact", to, subject: "Injected", text: "x" })).rejects.toThrow(
      /"to" must be a single plain email address/,
    );
    // A good mail sent afterwards is the only one the server sees.
    await sendMail({ category: "non-contact", to: "after@example.com", subject: "After", text: "y" });
    await catcher.waitForMail("after@example.com");
    expect(catcher.messages.map((m) => [m.to, m.subject])).toEqual([[["after@example.com"], "After"]]);
  });

  it.each(attempts)("refuses %j for the outbox and writes nothing", async (to) => {
    await expect(sendMail({ category: "non-contact", to, subject: "Injected", text: "x" })).rejects.toThrow(
      /"to" must be a single plain email address/,
    );
    expect(outboxFiles()).toEqual([]);
  });

  it("refuses line breaks in the subject and the sender name", async () => {
    await expect(
      sendMail({ category: "non-contact", to: "a@b.example", subject: "Hi\r\nBcc: x@y.example", text: "x" }),
    ).rejects.toThrow(/subject/);
    await expect(
      sendMail({
        category: "non-contact",
        to: "a@b.example",
        subject: "Hi",
        text: "x",
        fromName: "Acme\r\nBcc: x@y.example",
      }),
    ).rejects.toThrow(/sender name/);
    expect(outboxFiles()).toEqual([]);
  });

  it("adds only the listed header fields, each one line of printable ASCII", async () => {
    setEnv({ SMTP_URL: catcher.smtpUrl });
    const base = { category: "receipts", to: "a@b.example", subject: "Hi", text: "x" } as const;
    const refused: [Record<string, string>, RegExp][] = [
      [{ Bcc: "x@y.example" }, /may not be set/],
      [{ "Content-Type": "text/html" }, /may not be set/],
      [{ "List-Unsubscribe\r\nBcc": "x" }, /may not be set/],
      [{ "List-Unsubscribe": "<https://a.example/u>\r\nBcc: x@y.example" }, /one line of printable ASCII/],
      [{ "List-Unsubscribe": "<https://a.example/ü>" }, /one line of printable ASCII/],
      [{ "List-Unsubscribe": "" }, /one line of printable ASCII/],
      [{ "List-Unsubscribe": `<https://a.example/${"x".repeat(2_000)}>` }, /one line of printable ASCII/],
    ];
    for (const [headers, message] of refused) {
      await expect(sendMail({ ...base, headers: headers as never })).rejects.toThrow(message);
    }
    const url = "https://acme.localhost/communication/unsubscribe?token=abc.unsub-reminders.x.y";
    await sendMail({
      ...base,
      to: "list@example.com",
      headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    const mail = await catcher.waitForMail("list@example.com");
    expect(mail.headers["list-unsubscribe"]).toBe(`<${url}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(catcher.messages.map((m) => m.to)).toEqual([["list@example.com"]]);
  });

  it("carries PDFs only, plainly named and bounded in number and size, and sends nothing else", async () => {
    setEnv({ SMTP_URL: catcher.smtpUrl });
    const pdf = Buffer.from("%PDF-1.7\n%%EOF\n");
    const base = { category: "receipts", to: "a@b.example", subject: "Hi", text: "x" } as const;
    const file = (overrides: Record<string, unknown> = {}) =>
      ({ filename: "Acme-Receipt-PAY-1.pdf", contentType: "application/pdf", content: pdf, ...overrides }) as never;
    const refused: [unknown[], RegExp][] = [
      [[file({ filename: "receipt.exe" })], /name/],
      [[file({ filename: "../receipt.pdf" })], /name/],
      [[file({ filename: "Receipt\r\nBcc: x.pdf" })], /name/],
      [[file({ filename: `${"x".repeat(200)}.pdf` })], /name/],
      [[file({ contentType: "text/html" })], /PDFs/],
      [[file({ content: "not bytes" })], /at most/],
      [[file({ content: Buffer.alloc(5_000_001) })], /at most/],
      [[file(), file(), file(), file()], /at most 3/],
    ];
    for (const [attachments, message] of refused) {
      await expect(sendMail({ ...base, attachments: attachments as never })).rejects.toThrow(message);
    }
    await sendMail({
      ...base,
      to: "files@example.com",
      attachments: [file({ filename: "Kiwi-Freight-Receipt-PAY-Ā1.pdf" })],
    });
    const mail = await catcher.waitForMail("files@example.com");
    expect(
      mail.attachments.map((a) => [a.filename, a.contentType, Buffer.from(a.base64, "base64").equals(pdf)]),
    ).toEqual([["Kiwi-Freight-Receipt-PAY-Ā1.pdf", "application/pdf", true]]);
    expect(catcher.messages.map((m) => m.to)).toEqual([["files@example.com"]]);
  });

  it("refuses a message that is the contact's choice unless its preferences were asked, and unknown categories", async () => {
    for (const category of ["reminders", "statements", "invoices", "marketing"] as const) {
      await expect(sendMail({ category, to: "a@b.example", subject: "Hi", text: "x" })).rejects.toThrow(
        /sendContactMail/,
      );
    }
    await expect(sendMail({ category: "spam" as never, to: "a@b.example", subject: "Hi", text: "x" })).rejects.toThrow(
      /unknown mail category/,
    );
    expect(outboxFiles()).toEqual([]);
  });
});
