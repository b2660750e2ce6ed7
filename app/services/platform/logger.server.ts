/**
 * Structured logs: one JSON object per line on stdout (stderr for errors).
 * Keys that could carry secrets or card data are replaced before writing, at any depth,
 * so a careless call site cannot leak them (PCI DSS 3.3.1.2, ASVS 7.1.1).
 */
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const SENSITIVE_KEY =
  /pass(word)?|secret|token|authorization|cookie|card.?number|^pan$|cvn|cvv|cvc|security.?code|account.?number/i;

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
    out[key] = SENSITIVE_KEY.test(key) ? "[redacted]" : redact(inner, depth + 1);
  }
  return out;
}

export type LogSink = (line: string, level: Level) => void;

const defaultSink: LogSink = (line, level) => {
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
};

export function createLogger(options: { level?: Level | "silent"; sink?: LogSink } = {}) {
  const threshold = ORDER[options.level ?? (process.env.LOG_LEVEL as Level | undefined) ?? "info"] ?? ORDER.info;
  const sink = options.sink ?? defaultSink;
  function write(level: Level, msg: string, fields?: Record<string, unknown>) {
    if (ORDER[level] < threshold) return;
    const entry = { time: new Date().toISOString(), level, msg, ...(redact(fields ?? {}) as object) };
    sink(JSON.stringify(entry), level);
  }
  return {
    debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
    info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
    warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
    error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
  };
}

export type Logger = ReturnType<typeof createLogger>;

export const logger: Logger = createLogger();
