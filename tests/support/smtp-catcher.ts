import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on loopback that keeps what it receives, for tests to read. */
export type CaughtMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  date: string;
  receivedAt: number;
  links: string[];
};

function linksIn(text: string, html: string | null) {
  const found = new Set<string>();
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')]+/g)) found.add(match[0]);
  if (html) for (const match of html.matchAll(/href="(https?:\/\/[^"]+)"/g)) found.add(match[1]!.replace(/&amp;/g, "&"));
  return [...found];
}

export async function startSmtpCatcher(options: { smtpPort?: number; httpPort?: number } = {}) {
  const messages: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? "";
          const html = typeof parsed.html === "string" ? parsed.html : null;
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: parsed.from?.text ?? "",
            subject: parsed.subject ?? "",
            text,
            html,
            date: (parsed.date ?? new Date()).toISOString(),
            receivedAt: Date.now(),
            links: linksIn(text, html),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(options.smtpPort ?? 0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  let api: http.Server | undefined;
  if (options.httpPort !== undefined) {
    api = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/health") return void res.end("ok");
      if (url.pathname === "/messages" && req.method === "GET") {
        const to = url.searchParams.get("to")?.toLowerCase();
        res.setHeader("content-type", "application/json");
        return void res.end(JSON.stringify(to ? messages.filter((m) => m.to.includes(to)) : messages));
      }
      if (url.pathname === "/messages" && req.method === "DELETE") {
        messages.length = 0;
        res.statusCode = 204;
        return void res.end();
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => api!.listen(options.httpPort, "127.0.0.1", resolve));
  }

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    httpUrl: api ? `http://127.0.0.1:${(api.address() as AddressInfo).port}` : undefined,
    messages,
    async waitForMail(to: string, opts: { timeoutMs?: number; subject?: RegExp; since?: number } = {}) {
      const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
      for (;;) {
        const found = messages.find(
          (m) =>
            m.to.includes(to.toLowerCase()) &&
            (!opts.subject || opts.subject.test(m.subject)) &&
            (!opts.since || m.receivedAt >= opts.since),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within the time-out`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    clear() {
      messages.length = 0;
    },
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      if (api) await new Promise<void>((resolve) => api!.close(() => resolve()));
    },
  };
}
