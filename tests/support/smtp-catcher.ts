import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on loopback that keeps what it receives, for tests to read: in the
 * same process through `messages` / `waitForMail`, or from another process through an
 * optional HTTP API (see tests/support/mailbox.ts):
 *
 *   GET    /messages?to=<email>[&since=<epoch ms>]  JSON array of CaughtMail, newest last
 *   DELETE /messages                                 forget everything caught so far
 *   GET    /health                                   200 "ok"
 */
export type CaughtMail = {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  /** The From header as text, e.g. `"Acme" <no-reply@portal.test>`. */
  from: string;
  subject: string;
  text: string;
  html: string | null;
  /** The Date header (or the time of receipt), ISO 8601. */
  date: string;
  /** Every http(s) URL in the text, and every http(s) href in the HTML, in order, without duplicates. */
  links: string[];
  /** When the catcher received it, epoch ms (the catcher's clock). */
  receivedAt: number;
  messageId: string | null;
  /** Every header field by its lower-cased name, unfolded (the last one where a name repeats). */
  headers: Record<string, string>;
  /** The files the message carries, in order: name, type, and the bytes as base64 (JSON carries them). */
  attachments: { filename: string | null; contentType: string; size: number; base64: string }[];
};

export type WaitForMailOptions = {
  /** Default 10 s. */
  timeoutMs?: number;
  subject?: RegExp;
  /**
   * Only mail caught after this point: an index into `messages` (values below 10^12, e.g.
   * `catcher.messages.length` taken before the action) or an epoch-ms timestamp (e.g.
   * `Date.now()` taken before the action), compared with `receivedAt`.
   */
  after?: number;
};

export type SmtpCatcher = {
  /** e.g. smtp://127.0.0.1:40123, ready to use as SMTP_URL. */
  smtpUrl: string;
  /** e.g. http://127.0.0.1:40124, when started with `httpPort`. */
  httpUrl?: string;
  /** Everything caught so far, oldest first (a live array). */
  messages: CaughtMail[];
  /**
   * Addresses the server refuses at RCPT TO (550), as a mail server refuses an unknown mailbox:
   * a sender sees a real SMTP failure for that recipient. Lower-case; a live set.
   */
  refused: Set<string>;
  waitForMail(to: string, options?: WaitForMailOptions): Promise<CaughtMail>;
  clear(): void;
  close(): Promise<void>;
};

const INDEX_LIMIT = 1e12;

function trimUrl(url: string) {
  // Sentence punctuation after a link in prose is not part of it.
  return url.replace(/[.,;:!?'"]+$/, "");
}

function decodeEntities(value: string) {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export function linksIn(text: string, html: string | null): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/https?:\/\/[^\s<>"'()[\]{}]+/gi)) found.add(trimUrl(match[0]));
  if (html) {
    for (const match of html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      const href = decodeEntities((match[1] ?? match[2] ?? match[3] ?? "").trim());
      if (/^https?:\/\//i.test(href)) found.add(href);
    }
  }
  return [...found];
}

/** Does this mail match a waitForMail query? `index` is its position in `messages`. */
export function mailMatches(mail: CaughtMail, index: number, to: string, options: WaitForMailOptions = {}) {
  if (!mail.to.includes(to.trim().toLowerCase())) return false;
  if (options.subject && !options.subject.test(mail.subject)) return false;
  if (options.after !== undefined) {
    if (options.after < INDEX_LIMIT ? index < options.after : mail.receivedAt < options.after) return false;
  }
  return true;
}

function listen(
  server: { listen(port: number, host: string, cb: () => void): unknown },
  emitter: EventEmitter,
  port: number,
) {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    emitter.once("error", onError);
    server.listen(port, "127.0.0.1", () => {
      emitter.off("error", onError);
      resolve();
    });
  });
}

export async function startSmtpCatcher(options: { smtpPort?: number; httpPort?: number } = {}): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const refused = new Set<string>();
  const arrivals = new EventEmitter();

  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    // Accept any credentials in clear text, so an SMTP_URL with user:pass works too.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "test" });
    },
    logger: false,
    banner: "smtp catcher",
    size: 25 * 1024 * 1024,
    closeTimeout: 2_000,
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address.toLowerCase())) return callback();
      const error = new Error("No such mailbox here") as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? "";
          const html = typeof parsed.html === "string" ? parsed.html : null;
          const mail: CaughtMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: parsed.from?.text ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ""),
            subject: parsed.subject ?? "",
            text,
            html,
            date: (parsed.date ?? new Date()).toISOString(),
            links: linksIn(text, html),
            receivedAt: Date.now(),
            messageId: parsed.messageId ?? null,
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [
                key.toLowerCase(),
                line
                  .slice(line.indexOf(":") + 1)
                  .replace(/\r?\n[ \t]+/g, " ")
                  .trim(),
              ]),
            ),
            attachments: parsed.attachments.map((attachment) => ({
              filename: attachment.filename ?? null,
              contentType: attachment.contentType,
              size: attachment.content.length,
              base64: attachment.content.toString("base64"),
            })),
          };
          messages.push(mail);
          arrivals.emit("mail", mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // Without a listener, an SMTP client that misbehaves would crash the test process.
  smtp.on("error", () => {});
  await listen(smtp, smtp, options.smtpPort ?? 0);
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  let api: http.Server | undefined;
  if (options.httpPort !== undefined) {
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      res.setHeader("cache-control", "no-store");
      if (url.pathname === "/health" && (req.method === "GET" || req.method === "HEAD")) {
        res.setHeader("content-type", "text/plain");
        return void res.end("ok");
      }
      if (url.pathname === "/messages" && req.method === "GET") {
        const to = url.searchParams.get("to")?.trim().toLowerCase();
        const since = Number(url.searchParams.get("since") ?? "");
        const found = messages.filter(
          (m) => (!to || m.to.includes(to)) && (!Number.isFinite(since) || since <= 0 || m.receivedAt >= since),
        );
        res.setHeader("content-type", "application/json");
        return void res.end(JSON.stringify(found));
      }
      if (url.pathname === "/messages" && req.method === "DELETE") {
        messages.length = 0;
        res.statusCode = 204;
        return void res.end();
      }
      res.statusCode = url.pathname === "/messages" || url.pathname === "/health" ? 405 : 404;
      res.end();
    });
    try {
      await listen(server, server, options.httpPort);
    } catch (error) {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      throw error;
    }
    api = server;
  }

  let closing: Promise<void> | undefined;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    httpUrl: api ? `http://127.0.0.1:${(api.address() as AddressInfo).port}` : undefined,
    messages,
    refused,
    waitForMail(to, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 10_000;
      const existing = messages.find((m, i) => mailMatches(m, i, to, opts));
      if (existing) return Promise.resolve(existing);
      return new Promise<CaughtMail>((resolve, reject) => {
        const onMail = (mail: CaughtMail) => {
          if (!mailMatches(mail, messages.indexOf(mail), to, opts)) return;
          clearTimeout(timer);
          arrivals.off("mail", onMail);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          arrivals.off("mail", onMail);
          const seen = messages.map((m) => `${m.to.join(",")}: ${m.subject}`).join("; ") || "none";
          reject(
            new Error(
              `no mail to ${to}${opts.subject ? ` matching ${opts.subject}` : ""} within ${timeoutMs} ms (caught: ${seen})`,
            ),
          );
        }, timeoutMs);
        arrivals.on("mail", onMail);
      });
    },
    clear() {
      messages.length = 0;
    },
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => smtp.close(() => resolve()));
        if (api) {
          const server = api;
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
        }
      })();
      return closing;
    },
  };
}
