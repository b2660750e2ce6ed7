import { redactLinkPath } from "~/lib/link-paths";
import { z } from "zod";
import { logger as defaultLogger, type Logger } from "./logger.server";
import type { Limit } from "./rate-limit.server";

/**
 * Log lines sent by the browser (spec §7 `_log` under the auth base; decision 025). Anyone can
 * send them, so everything in them is untrusted: a small body, a few known fields, control and
 * direction characters removed (they could forge or hide log lines), anything that looks like a
 * secret masked, and a limit per address and per session so the log cannot be flooded.
 */
export const CLIENT_LOG_MAX_BYTES = 4 * 1024;
const MESSAGE_MAX = 1000;
/** Per client address (an office shares one) and, lower, per session: lines a minute. */
export const CLIENT_LOG_PER_ADDRESS = { max: 60, windowMs: 60_000 };
export const CLIENT_LOG_PER_SESSION = { max: 20, windowMs: 60_000 };

export function clientLogLimits(address: string, sessionLogId: string | null): Limit[] {
  const limits: Limit[] = [{ key: `client-log:ip:${address}`, ...CLIENT_LOG_PER_ADDRESS }];
  if (sessionLogId) limits.push({ key: `client-log:session:${sessionLogId}`, ...CLIENT_LOG_PER_SESSION });
  return limits;
}

// C0 and C1 controls, DEL, line/paragraph separators and bidirectional overrides and isolates.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;
const SECRET_PATTERNS: [RegExp, string][] = [
  // First, so that "Authorization: Bearer x" does not leave x behind as the next word.
  [/\bBearer\s+[^\s"]+/gi, "Bearer [redacted]"],
  // key=value or "key": "value" where the key names a secret.
  [
    /\b(pass(?:word)?|secret|token|csrf\w*|authorization|cookie|session|cvn|cvv|cvc|api[_-]?key)("?\s*[:=]\s*"?)[^\s"&,;]+/gi,
    "$1$2[redacted]",
  ],
  // A card-number-like run: 12 to 19 digits, spaces or dashes allowed between them.
  [/\b\d(?:[ -]?\d){11,18}\b/g, "[number removed]"],
  // Long opaque strings (tokens, session ids, keys).
  [/[A-Za-z0-9_+/=-]{32,}/g, "[redacted]"],
];

export function cleanClientText(value: string, max: number): string {
  let text = value.replace(CONTROL, " ");
  for (const [pattern, replacement] of SECRET_PATTERNS) text = text.replace(pattern, replacement);
  text = text.trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const ClientLogSchema = z.object({
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string().min(1).max(CLIENT_LOG_MAX_BYTES),
  code: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
    .optional(),
  // Where the page was: kept as a path only, so a query string (which may hold a token) is dropped.
  url: z.string().max(2048).optional(),
});

export type ClientLogEntry = {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  code?: string;
  path?: string;
};

/** Checks a parsed body; other fields are accepted and not logged. */
export function parseClientLog(body: unknown): { ok: true; entry: ClientLogEntry } | { ok: false; message: string } {
  const parsed = ClientLogSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      message:
        'Send a JSON object {"level": "debug" | "info" | "warn" | "error", "message": "…"}; "code" (letters, digits, _.:-) and "url" are optional.',
    };
  }
  const { level, message, code, url } = parsed.data;
  const entry: ClientLogEntry = { level, message: cleanClientText(message, MESSAGE_MAX) };
  if (code) entry.code = code;
  const path = url ? pathOf(url) : null;
  if (path) entry.path = path;
  if (entry.message === "") return { ok: false, message: "The message is empty once control characters are removed." };
  return { ok: true, entry };
}

function pathOf(url: string): string | null {
  try {
    // A link page's path carries its token (decision 031): cut short, as in the request log.
    return cleanClientText(redactLinkPath(new URL(url, "http://client.invalid").pathname), 200);
  } catch {
    return null;
  }
}

/**
 * Writes one client line through the structured logger, tagged `client`. A browser's "error" is
 * written as a warning: it is not a fault of the server and must not page anyone by itself.
 */
export function writeClientLog(
  entry: ClientLogEntry,
  context: { businessId: string; sessionLogId: string | null },
  log: Logger = defaultLogger,
) {
  const level = entry.level === "error" ? "warn" : entry.level;
  log[level]("client log", {
    tag: "client",
    clientLevel: entry.level,
    message: entry.message,
    ...(entry.code ? { code: entry.code } : {}),
    ...(entry.path ? { path: entry.path } : {}),
    businessId: context.businessId,
    ...(context.sessionLogId ? { sessionLogId: context.sessionLogId } : {}),
  });
}
