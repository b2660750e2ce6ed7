import { pino, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger } from "pino";
import { redactLinkPath } from "~/lib/link-paths";

/**
 * Structured logs: one JSON object per line on stdout (stderr for errors), written by pino
 * (decision 061). Keys that could carry secrets or card data are replaced before writing, at any
 * depth, so a careless call site cannot leak them (PCI DSS 3.3.1.2, ASVS 7.1.1); pino's own
 * path-based `redact` is a second net for the well-known places (headers, URLs, card fields).
 */
type Level = "debug" | "info" | "warn" | "error";
const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
type Threshold = (typeof LEVELS)[number];

const SENSITIVE_KEY =
  /pass(word)?|secret|token|authorization|cookie|card.?number|^pan$|cvn|cvv|cvc|security.?code|account.?number/i;

const REDACTED = "[redacted]";

export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  // Past the depth limit the value is dropped, not passed through: returned raw it would
  // skip redaction of the keys below it, and a circular structure would make
  // JSON.stringify (and so the log call) throw.
  if (depth > 6) return "[truncated]";
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redact(inner, depth + 1);
  }
  return out;
}

/** Keys whose value is a URL or path: kept, but without a query string and with a link's token cut short. */
const URL_KEYS = new Set(["url", "path", "originalUrl"]);

/**
 * pino's `redact` paths (decision 061). The key rule above already catches most of these by
 * name; the paths also cover a header object logged whole and a URL logged under a usual key.
 */
export const REDACT_PATHS = [
  ...["headers", "req.headers", "request.headers", "*.headers"].flatMap((headers) => [
    `${headers}.authorization`,
    `${headers}.cookie`,
    `${headers}["set-cookie"]`,
  ]),
  ...["res.headers", "response.headers"].map((headers) => `${headers}["set-cookie"]`),
  ...[...URL_KEYS].flatMap((key) => [key, `*.${key}`]),
  ...["cardNumber", "card_number", "pan", "cvn", "cvv", "cvc", "securityCode", "password", "token"].flatMap((key) => [
    key,
    `*.${key}`,
  ]),
];

/** A URL or path as a log may keep it; an absolute URL keeps its origin. */
function loggableUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return redactLinkPath(value);
  try {
    const url = new URL(value);
    return `${url.origin}${redactLinkPath(url.pathname)}`;
  } catch {
    return REDACTED;
  }
}

function censor(value: unknown, path: string[]): unknown {
  const key = path[path.length - 1] ?? "";
  if (URL_KEYS.has(key) && typeof value === "string") return loggableUrl(value);
  return REDACTED;
}

export type LogSink = (line: string, level: Level) => void;

const LABELS: Record<number, Level> = { 20: "debug", 30: "info", 40: "warn", 50: "error" };

/**
 * pino's destination: it tells a stream that asks for metadata the level of each line, so the
 * line can go to stderr (errors) or stdout, or to a test's sink, as it always has.
 */
function destination(sink: LogSink | undefined): DestinationStream {
  const stream = {
    [Symbol.for("pino.metadata")]: true,
    lastLevel: 30,
    write(line: string) {
      const level = stream.lastLevel >= 50 ? "error" : (LABELS[stream.lastLevel] ?? "debug");
      if (sink) sink(line.endsWith("\n") ? line.slice(0, -1) : line, level);
      else (level === "error" ? process.stderr : process.stdout).write(line);
    },
  };
  return stream;
}

function thresholdFrom(value: string | undefined): Threshold {
  // An unknown LOG_LEVEL is reported by the configuration check (env.server.ts); the logger itself
  // must not throw while that check is still to run, so it falls back to info.
  return (LEVELS as readonly string[]).includes(value ?? "") ? (value as Threshold) : "info";
}

type Fields = Record<string, unknown>;

export type Logger = {
  debug: (msg: string, fields?: Fields) => void;
  info: (msg: string, fields?: Fields) => void;
  warn: (msg: string, fields?: Fields) => void;
  error: (msg: string, fields?: Fields) => void;
  /** The pino logger underneath, for pino-http (request-log.server.ts). */
  readonly pino: PinoLogger;
};

export function createLogger(options: { level?: Threshold; sink?: LogSink } = {}): Logger {
  const base = pino(
    {
      level: thresholdFrom(options.level ?? process.env.LOG_LEVEL),
      // No pid or hostname: the supervisor's log store knows where a line came from.
      base: null,
      timestamp: stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => redact(bindings) as Fields,
        log: (fields) => redact(fields) as Fields,
      },
      redact: { paths: REDACT_PATHS, censor },
    },
    destination(options.sink),
  );
  // The portal's call sites write the message first and the fields second; pino takes them the other way round.
  return {
    debug: (msg, fields) => base.debug(fields ?? {}, msg),
    info: (msg, fields) => base.info(fields ?? {}, msg),
    warn: (msg, fields) => base.warn(fields ?? {}, msg),
    error: (msg, fields) => base.error(fields ?? {}, msg),
    pino: base,
  };
}

export const logger: Logger = createLogger();
