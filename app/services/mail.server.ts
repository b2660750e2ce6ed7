import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";

/**
 * Outgoing mail (password reset, email confirmation, later payment requests and receipts).
 * With SMTP_URL: real SMTP through nodemailer. Without it: each message is written as an
 * .eml file to DATA_DIR/outbox, so a developer can open what would have been sent.
 * Message bodies carry one-time links: they are never logged.
 */
export type OutgoingMail = { to: string; subject: string; text: string; html?: string; fromName?: string };

let smtp: { url: string; transport: Transporter } | undefined;

function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) {
    const parsed = new URL(url);
    const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname);
    smtp = {
      url,
      transport: nodemailer.createTransport({
        host: parsed.hostname.replace(/^\[|\]$/g, ""),
        port: Number(parsed.port || (parsed.protocol === "smtps:" ? 465 : 587)),
        secure: parsed.protocol === "smtps:",
        auth: parsed.username
          ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
          : undefined,
        // A local catcher speaks plain SMTP; anything else must offer STARTTLS.
        ignoreTLS: loopback && parsed.protocol === "smtp:",
        requireTLS: !loopback && parsed.protocol === "smtp:",
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 15_000,
      }),
    };
  }
  return smtp.transport;
}

const SINGLE_ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

export async function sendMail(mail: OutgoingMail): Promise<{ messageId: string; transport: "smtp" | "outbox" }> {
  // One plain address only: no header injection, no extra recipients.
  if (!SINGLE_ADDRESS.test(mail.to) || /[\r\n]/.test(mail.subject) || (mail.fromName && /[\r\n]/.test(mail.fromName))) {
    throw new Error("sendMail: refused a recipient, subject or sender name that is not a single plain value");
  }
  const env = getEnv();
  const message = {
    from: { name: mail.fromName ?? "Customer portal", address: env.MAIL_FROM ?? "no-reply@portal.localhost" },
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
  try {
    if (env.SMTP_URL) {
      const info = await smtpTransport(env.SMTP_URL).sendMail(message);
      logger.info("mail sent", { to: mail.to, messageId: info.messageId });
      return { messageId: info.messageId, transport: "smtp" };
    }
    const outbox = path.join(env.DATA_DIR, "outbox");
    fs.mkdirSync(outbox, { recursive: true });
    const info = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
    const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
    fs.writeFileSync(file, info.message as Buffer, { mode: 0o600 });
    logger.info("mail written to outbox", { to: mail.to, file });
    return { messageId: info.messageId, transport: "outbox" };
  } catch (error) {
    logger.error("mail could not be sent", { to: mail.to, error });
    throw error;
  }
}
