import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { waitForMailVia } from "./mailbox";
import { linksIn, startSmtpCatcher, type CaughtMail, type SmtpCatcher } from "./smtp-catcher";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let catcher: SmtpCatcher;
let httpUrl: string;

function send(smtpUrl: string, to: string | string[], subject: string, text = "hello", html?: string) {
  return nodemailer
    .createTransport({ url: smtpUrl, ignoreTLS: true })
    .sendMail({ from: '"Tester" <tester@example.com>', to, subject, text, ...(html ? { html } : {}) });
}

async function getMessages(query = ""): Promise<CaughtMail[]> {
  const response = await fetch(`${httpUrl}/messages${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return (await response.json()) as CaughtMail[];
}

beforeAll(async () => {
  catcher = await startSmtpCatcher({ httpPort: 0 });
  httpUrl = catcher.httpUrl!;
});

afterAll(async () => {
  await catcher.close();
});

beforeEach(() => {
  catcher.clear();
});

describe("SMTP catcher", () => {
  it("listens on loopback and parses what it receives", async () => {
    expect(catcher.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await send(
      catcher.smtpUrl,
      ["One@Example.com", "two@example.com"],
      "Welcome",
      "See https://a.localhost/x?y=1. And http://b.localhost/z",
      '<a href="https://c.localhost/p?a=1&amp;b=2">c</a> <a href=\'https://d.localhost/\'>d</a> <a href="mailto:x@y.z">m</a>',
    );
    const mail = await catcher.waitForMail("one@example.com");
    expect(mail.to).toEqual(["one@example.com", "two@example.com"]);
    expect(mail.from).toBe('"Tester" <tester@example.com>');
    expect(mail.subject).toBe("Welcome");
    expect(mail.html).toContain("c.localhost");
    expect(Date.parse(mail.date)).not.toBeNaN();
    expect(mail.links).toEqual([
      "https://a.localhost/x?y=1",
      "http://b.localhost/z",
      "https://c.localhost/p?a=1&b=2",
      "https://d.localhost/",
    ]);
  });

  it("accepts clients that log in", async () => {
    const url = catcher.smtpUrl.replace("smtp://", "smtp://user:pass@");
    await send(url, "auth@example.com", "With login");
    expect((await catcher.waitForMail("auth@example.com")).subject).toBe("With login");
  });

  it("waitForMail filters by subject and by `after` (an index or a timestamp)", async () => {
    await send(catcher.smtpUrl, "w@example.com", "First");
    const mark = catcher.messages.length;
    const since = catcher.messages[0]!.receivedAt + 1;
    expect((await catcher.waitForMail("W@example.com")).subject).toBe("First");

    const pending = catcher.waitForMail("w@example.com", { after: mark });
    const pendingBySubject = catcher.waitForMail("w@example.com", { subject: /^Third$/ });
    const pendingByTime = catcher.waitForMail("w@example.com", { after: since });
    await send(catcher.smtpUrl, "w@example.com", "Second");
    await send(catcher.smtpUrl, "w@example.com", "Third");
    expect((await pending).subject).toBe("Second");
    expect((await pendingBySubject).subject).toBe("Third");
    expect((await pendingByTime).subject).toBe("Second");
    expect((await catcher.waitForMail("w@example.com", { after: mark + 1 })).subject).toBe("Third");
  });

  it("waitForMail rejects after its time-out, naming what was caught", async () => {
    await send(catcher.smtpUrl, "someone@example.com", "Unrelated");
    await expect(catcher.waitForMail("nobody@example.com", { timeoutMs: 150 })).rejects.toThrow(
      /no mail to nobody@example.com within 150 ms \(caught: someone@example.com: Unrelated\)/,
    );
  });

  it("extracts links from text and HTML", () => {
    expect(linksIn("Go to (https://x.localhost/a), then https://x.localhost/b!", null)).toEqual([
      "https://x.localhost/a",
      "https://x.localhost/b",
    ]);
    expect(
      linksIn("", '<a class="b" href = "https://x.localhost/?q=&#x27;1&#x27;">x</a><a href=https://y.localhost/>y</a>'),
    ).toEqual(["https://x.localhost/?q='1'", "https://y.localhost/"]);
  });
});

describe("HTTP API", () => {
  it("answers /health", async () => {
    const response = await fetch(`${httpUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  it("lists mail per recipient, newest last, and clears on DELETE", async () => {
    await send(catcher.smtpUrl, "api@example.com", "A");
    await send(catcher.smtpUrl, "other@example.com", "B");
    await sleep(5); // so that C's receivedAt differs from A's
    await send(catcher.smtpUrl, "API@example.com", "C");

    expect((await getMessages()).map((m) => m.subject)).toEqual(["A", "B", "C"]);
    const mine = await getMessages(`?${new URLSearchParams({ to: "Api@Example.com" })}`);
    expect(mine.map((m) => m.subject)).toEqual(["A", "C"]);
    expect(mine[0]).toMatchObject({ to: ["api@example.com"], from: '"Tester" <tester@example.com>', html: null });
    expect(mine[0]!.text.trim()).toBe("hello");
    expect(await getMessages("?to=none@example.com")).toEqual([]);

    const since = mine[1]!.receivedAt;
    expect((await getMessages(`?to=api%40example.com&since=${since}`)).map((m) => m.subject)).toEqual(["C"]);

    const deleted = await fetch(`${httpUrl}/messages`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await getMessages()).toEqual([]);
    expect(catcher.messages).toEqual([]);
  });

  it("answers 404 for unknown paths and 405 for other methods", async () => {
    expect((await fetch(`${httpUrl}/nope`)).status).toBe(404);
    expect((await fetch(`${httpUrl}/messages`, { method: "POST" })).status).toBe(405);
  });

  it("waitForMailVia polls the API, honouring subject and since", async () => {
    await send(catcher.smtpUrl, "via@example.com", "Old reset");
    await sleep(5);
    const since = Date.now();
    const waiting = waitForMailVia(httpUrl, "Via@example.com", { since, subject: /reset/, timeoutMs: 5_000 });
    setTimeout(() => {
      void send(catcher.smtpUrl, "via@example.com", "Unrelated").then(() =>
        send(catcher.smtpUrl, "via@example.com", "New reset", "https://x.localhost/r?token=t"),
      );
    }, 250);
    const mail = await waiting;
    expect(mail.subject).toBe("New reset");
    expect(mail.links).toEqual(["https://x.localhost/r?token=t"]);
  });

  it("waitForMailVia times out with a clear message", async () => {
    await expect(waitForMailVia(httpUrl, "none@example.com", { timeoutMs: 300 })).rejects.toThrow(
      /no mail to none@example.com within 300 ms \(mail to that address: none\)/,
    );
  });

  it("waitForMailVia keeps trying while the catcher is not reachable, then gives up", async () => {
    await expect(waitForMailVia("http://127.0.0.1:9", "x@example.com", { timeoutMs: 300 })).rejects.toThrow(
      /within 300 ms .*last error/,
    );
  });
});

describe("the catcher as a process (smtp-catcher-cli.ts)", () => {
  it("prints where it listens, catches mail, and exits cleanly on SIGTERM", async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/smtp-catcher-cli.ts"], {
      cwd: root,
      env: { ...process.env, SMTP_CATCHER_PORT: "0", SMTP_CATCHER_HTTP_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      let output = "";
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("\n")) resolve(output.split("\n")[0]!);
        });
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        void exited.then((code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const match = /SMTP (smtp:\/\/127\.0\.0\.1:\d+), HTTP (http:\/\/127\.0\.0\.1:\d+)\/messages$/.exec(line);
      expect(match, line).not.toBeNull();
      const [, smtpUrl, apiUrl] = match!;

      expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
      await send(smtpUrl!, "cli@example.com", "From the CLI");
      expect((await waitForMailVia(apiUrl!, "cli@example.com", { timeoutMs: 5_000 })).subject).toBe("From the CLI");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
