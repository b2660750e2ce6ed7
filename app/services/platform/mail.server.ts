import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { isOptionalCategory, MAIL_CATEGORIES, type MailCategory } from "~/lib/communication";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";

/**
 * Outgoing mail (password reset, email confirmation, later payment requests and receipts).
 *
 * With SMTP_URL: real SMTP through nodemailer, one transport per process (re-created only
 * if SMTP_URL changes, which happens in tests). Without it: each message is written as an
 * RFC 822 `.eml` file to DATA_DIR/outbox, so a developer can open what would have been sent.
 *
 * Message bodies carry one-time links: they are never logged, only the recipient is.
 */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the sender, e.g. the business name. */
  fromName?: string;
  /** Where replies go (the business's support address), since the sender is a no-reply address. */
  replyTo?: string;
  /**
   * What the message is about (decision 039): a contact's choice (statements, invoices, reminders,
   * marketing), a transactional message to a contact, or mail to someone who is not a contact.
   * Mail that is a contact's choice leaves only through `sendContactMail`
   * (communication/contact-mail.server.ts), which asks the contact's preferences first.
   */
  category: MailCategory;
  /** Set by `sendContactMail` alone, once it has found that the contact wants this message. */
  preferenceChecked?: boolean;
  /**
   * Extra header fields, from a short list (MAIL_HEADERS): RFC 2369 / RFC 8058's List-Unsubscribe
   * and List-Unsubscribe-Post. Each value one line of printable ASCII.
   */
  headers?: Partial<Record<MailHeader, string>>;
  /** Files the message carries (a receipt's PDF), made when it is sent. */
  attachments?: MailAttachment[];
};

/** A file a message carries: a PDF only, named plainly, at most MAX_ATTACHMENT_BYTES. */
export type MailAttachment = { filename: string; contentType: "application/pdf"; content: Buffer };

export const MAX_ATTACHMENTS = 3;
export const MAX_ATTACHMENT_BYTES = 5_000_000;
const ATTACHMENT_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,118}\.pdf$/u;

/**
 * The header fields a caller may add. A list, not a pattern: nothing a caller passes can name
 * From, To, Bcc, Content-Type or any field nodemailer writes itself.
 */
export const MAIL_HEADERS = ["List-Unsubscribe", "List-Unsubscribe-Post", "List-Id"] as const;
export type MailHeader = (typeof MAIL_HEADERS)[number];
const MAX_HEADER_VALUE = 2_000;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export type SentMail = { messageId: string; transport: "smtp" | "outbox" };

const DEFAULT_FROM_NAME = "Customer portal";
const DEFAULT_FROM_ADDRESS = "no-reply@portal.localhost";
const TIMEOUT_MS = 10_000;

type SmtpTransport = ReturnType<typeof createSmtpTransport>;
let smtp: { url: string; transport: SmtpTransport } | undefined;

function isLoopback(hostname: string) {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function createSmtpTransport(url: string) {
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  const loopback = isLoopback(parsed.hostname);
  return nodemailer.createTransport({
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    pool: false,
    // A catcher on this machine speaks plain SMTP. Anywhere else the message (which carries
    // one-time links) must not cross the network in clear text: STARTTLS is required.
    ignoreTLS: !secure && loopback,
    requireTLS: !secure && !loopback,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
}

function smtpTransport(url: string): SmtpTransport {
  if (smtp?.url !== url) {
    smtp?.transport.close();
    smtp = { url, transport: createSmtpTransport(url) };
  }
  return smtp.transport;
}

// One bare address: no display name, no list, no whitespace or control characters.
const SINGLE_ADDRESS = /^[^\s\x00-\x1f\x7f@,;:<>()[\]"\\]+@[^\s\x00-\x1f\x7f@,;:<>()[\]"\\]+$/;
const LINE_BREAK_OR_CONTROL = /[\x00-\x1f\x7f]/;

/** Throws unless the mail's header fields are safe single values (header injection guard). */
export function assertHeaderSafe(mail: OutgoingMail) {
  if (typeof mail.to !== "string" || mail.to.length > 254 || !SINGLE_ADDRESS.test(mail.to)) {
    throw new Error(
      `sendMail: "to" must be a single plain email address (no display name, commas or line breaks), got ${JSON.stringify(mail.to)}`,
    );
  }
  if (LINE_BREAK_OR_CONTROL.test(mail.subject)) {
    throw new Error("sendMail: the subject must not contain line breaks or control characters");
  }
  if (mail.replyTo !== undefined && (mail.replyTo.length > 254 || !SINGLE_ADDRESS.test(mail.replyTo))) {
    throw new Error('sendMail: "replyTo" must be a single plain email address');
  }
  if (mail.fromName !== undefined && LINE_BREAK_OR_CONTROL.test(mail.fromName)) {
    throw new Error("sendMail: the sender name must not contain line breaks or control characters");
  }
  if (!(MAIL_CATEGORIES as readonly string[]).includes(mail.category)) {
    throw new Error(`sendMail: unknown mail category ${JSON.stringify(mail.category)}`);
  }
  if (isOptionalCategory(mail.category) && mail.preferenceChecked !== true) {
    throw new Error(`sendMail: ${mail.category} mail is the contact's choice: send it with sendContactMail`);
  }
  const attachments = mail.attachments ?? [];
  if (attachments.length > MAX_ATTACHMENTS) throw new Error(`sendMail: at most ${MAX_ATTACHMENTS} attachments`);
  for (const attachment of attachments) {
    if (!ATTACHMENT_NAME.test(attachment.filename)) {
      throw new Error("sendMail: an attachment's name is letters, digits, dots, hyphens and underscores, ending .pdf");
    }
    if (attachment.contentType !== "application/pdf") throw new Error("sendMail: attachments are PDFs");
    if (!Buffer.isBuffer(attachment.content) || attachment.content.length > MAX_ATTACHMENT_BYTES) {
      throw new Error(`sendMail: an attachment is at most ${MAX_ATTACHMENT_BYTES} bytes`);
    }
  }
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!(MAIL_HEADERS as readonly string[]).includes(name)) {
      throw new Error(`sendMail: the header ${JSON.stringify(name.slice(0, 40))} may not be set`);
    }
    if (typeof value !== "string" || value.length > MAX_HEADER_VALUE || !PRINTABLE_ASCII.test(value)) {
      throw new Error(`sendMail: the ${name} header must be one line of printable ASCII`);
    }
  }
}

// eslint-disable-next-line no-restricted-syntax -- a file's name on disk, ordered by when it was written (like a log line's stamp)
function outboxFileName(now = new Date()) {
  // ISO 8601 with ":" and "." replaced, so the name is valid on every file system and sorts by time.
  return `${now.toISOString().replace(/[:.]/g, "-")}-${randomBytes(6).toString("hex")}.eml`;
}

/** The domain of the portal's Message-IDs: the sender address's. */
export function messageIdDomain(): string {
  return (getEnv().MAIL_FROM ?? DEFAULT_FROM_ADDRESS).split("@")[1]!;
}

/**
 * Hands one message to the mail server (or the file outbox) now. The portal's code sends through
 * the mail outbox (mail-outbox.server.ts), which calls this once the cause has committed;
 * `messageId` is then the outbox's stable one, so a resend after a crash is the same message.
 */
export async function sendMail(mail: OutgoingMail, options: { messageId?: string } = {}): Promise<SentMail> {
  try {
    assertHeaderSafe(mail);
  } catch (error) {
    logger.warn("mail refused", { to: mail.to, error });
    throw error;
  }
  const env = getEnv();
  const message = {
    from: { name: mail.fromName ?? DEFAULT_FROM_NAME, address: env.MAIL_FROM ?? DEFAULT_FROM_ADDRESS },
    to: mail.to,
    ...(mail.replyTo !== undefined ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    ...(options.messageId ? { messageId: options.messageId } : {}),
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    ...(mail.headers && Object.keys(mail.headers).length ? { headers: { ...mail.headers } } : {}),
    ...(mail.attachments?.length
      ? {
          attachments: mail.attachments.map((attachment) => ({
            filename: attachment.filename,
            content: attachment.content,
            contentType: attachment.contentType,
          })),
        }
      : {}),
  };
  const via = env.SMTP_URL ? "smtp" : "outbox";
  try {
    if (env.SMTP_URL) {
      const info = await smtpTransport(env.SMTP_URL).sendMail(message);
      logger.info("mail sent", { to: mail.to, category: mail.category, messageId: info.messageId });
      return { messageId: info.messageId, transport: "smtp" };
    }
    const info = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
    if (!Buffer.isBuffer(info.message)) throw new Error("sendMail: the stream transport did not return a buffer");
    const outbox = path.join(env.DATA_DIR, "outbox");
    await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
    const file = path.join(outbox, outboxFileName());
    // Written under a temporary name first, so whoever watches the folder never reads half a message.
    const partial = `${file}.partial`;
    await fs.writeFile(partial, info.message, { mode: 0o600 });
    await fs.rename(partial, file);
    logger.info("mail written to outbox", { to: mail.to, file });
    return { messageId: info.messageId, transport: "outbox" };
  } catch (error) {
    logger.error("mail could not be sent", { to: mail.to, transport: via, error });
    throw error;
  }
}
