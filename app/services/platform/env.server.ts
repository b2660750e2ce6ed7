import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The portal's whole configuration, read once from `process.env`.
 * Every variable has a default so that `npm start` works with none set;
 * a variable that is set but wrong stops start-up with a message naming it.
 */
const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    errorMap: () => ({ message: "must be true or false" }),
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/**
 * Bounds on the variables' raw values, far above any working setting: a file path (PATH_MAX), a
 * URL, a secret (the minimum is 32), a number written out, an email address (RFC 5321's path),
 * and the Auth0 secrets' JSON (Linux's limit on one variable, MAX_ARG_STRLEN).
 */
const PATH_MAX = 4096;
const URL_MAX = 2048;
const SECRET_MAX = 1024;
const NUMBER_MAX = 32;
const EMAIL_MAX = 320;
const JSON_MAX = 128 * 1024;
const CLIENTS_MAX = 1000;

/** A whole number of milliseconds between `min` and `max`, given as a string. */
function millis(fallback: string, min: number, max: number) {
  return z
    .string()
    .max(NUMBER_MAX)
    .trim()
    .regex(/^\d{1,9}$/, `must be a whole number of milliseconds, ${min} to ${max}`)
    .default(fallback)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be a whole number of milliseconds, ${min} to ${max}`);
}

export const EnvSchema = z.object({
  NODE_ENV: z
    .enum(["production", "development", "test"], {
      errorMap: () => ({ message: "must be production, development or test" }),
    })
    .default("production"),
  DATABASE_URL: z
    .string()
    .max(URL_MAX)
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine(
      (value) => value === undefined || /^postgres(ql)?:\/\/[^\s]+$/.test(value),
      "must be a postgres:// or postgresql:// URL (leave it unset for the embedded database)",
    ),
  /**
   * PostgreSQL only (decision 046): how long to wait for a connection, and the most one statement
   * may run, so that a lost or stuck database makes pages fail fast with a 503 instead of hanging.
   */
  DATABASE_CONNECT_TIMEOUT_MS: millis("5000", 100, 60_000),
  DATABASE_STATEMENT_TIMEOUT_MS: millis("15000", 100, 3_600_000),
  DATA_DIR: z.string().max(PATH_MAX).trim().min(1, "must not be empty").default("./data"),
  SESSION_SECRET: z
    .string()
    .max(SECRET_MAX)
    .min(32, "must be at least 32 characters (leave it unset to generate one in DATA_DIR)")
    .optional(),
  TRUST_PROXY: booleanString.default("false"),
  LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error", "silent"], {
      errorMap: () => ({ message: "must be one of debug, info, warn, error, silent" }),
    })
    .default("info"),
  SEED_DEMO_DATA: booleanString.default("true"),
  /**
   * The e2e suite's switch (decision 035): `on` opens POST /__test/clock and
   * /__test/run-due-instalments to loopback callers, so a test can move the portal's clock and run
   * the instalment runner now. Never on in production; said loudly at start when on.
   */
  PORTAL_TEST_CLOCK: z
    .enum(["on", "off"], { errorMap: () => ({ message: "must be on or off (leave it unset: off)" }) })
    .default("off"),
  /**
   * How pages get the CSS bundle (decision 049): `inline` (the default) sends its text inside every
   * document, so the first paint waits for no second request; `link` links the file as before (the
   * benchmark measures both).
   */
  CSS_DELIVERY: z
    .enum(["inline", "link"], { errorMap: () => ({ message: "must be inline or link (leave it unset: inline)" }) })
    .default("inline"),
  /** The benchmark's switch: send the number of SQL statements a page ran as X-Query-Count. */
  BENCH_QUERY_COUNT: booleanString.default("false"),
  /** Outgoing mail server, e.g. smtp://127.0.0.1:2525. Unset: mail is written to DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .max(URL_MAX)
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine(
      (value) => value === undefined || /^smtps?:\/\/[^\s]+$/.test(value),
      "must be an smtp:// or smtps:// URL (leave it unset to write mail to DATA_DIR/outbox)",
    ),
  /** The sender address of the portal's mail; the business name is used as the display name. */
  MAIL_FROM: z
    .string()
    .max(EMAIL_MAX)
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine(
      (value) => value === undefined || /^[^\s@<>]+@[^\s@<>]+$/.test(value),
      "must be a plain email address such as no-reply@portal.example",
    ),
  /**
   * Where credit applications' supporting documents are kept (decision 038): the storage port's
   * adapter. `filesystem` (files under DOCUMENTS_DIR) is the only one in this build.
   */
  DOCUMENT_STORAGE: z
    .enum(["filesystem"], {
      errorMap: () => ({ message: "must be filesystem (the only document storage adapter in this build)" }),
    })
    .default("filesystem"),
  /** The filesystem adapter's folder. Unset: DATA_DIR/documents. */
  DOCUMENTS_DIR: z
    .string()
    .max(PATH_MAX)
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value)),
  /** Which card gateway adapter to use. Only the sandbox ships here (decision 015). */
  CARD_GATEWAY: z
    .enum(["sandbox"], {
      errorMap: () => ({ message: "must be sandbox (the only card gateway adapter in this build)" }),
    })
    .default("sandbox"),
  /** The sandbox gateway's answer time, like a real gateway's round trip. */
  SANDBOX_GATEWAY_DELAY_MS: z
    .string()
    .max(NUMBER_MAX)
    .trim()
    .regex(/^\d{1,5}$/, "must be a whole number of milliseconds, 0 to 99999")
    .default("250")
    .transform(Number),
  /**
   * How long a call to the card gateway may take before the portal stops waiting (decision 046).
   * A charge that times out is recorded as pending and settled later from the gateway's record.
   */
  CARD_GATEWAY_TIMEOUT_MS: millis("15000", 100, 120_000),
  /** The same for the PayTo provider. */
  PAYTO_PROVIDER_TIMEOUT_MS: millis("15000", 100, 120_000),
  /**
   * The ports' circuit breakers (decision 046): this many failures or timeouts in a row, within
   * PORT_BREAKER_WINDOW_MS, and calls fail at once for PORT_BREAKER_COOLDOWN_MS; then one call
   * probes. Each process keeps its own breakers.
   */
  PORT_BREAKER_FAILURES: z
    .string()
    .max(NUMBER_MAX)
    .trim()
    .regex(/^\d{1,3}$/, "must be a whole number from 1 to 100")
    .default("5")
    .transform(Number)
    .refine((value) => value >= 1 && value <= 100, "must be a whole number from 1 to 100"),
  PORT_BREAKER_WINDOW_MS: millis("30000", 100, 3_600_000),
  PORT_BREAKER_COOLDOWN_MS: millis("10000", 100, 3_600_000),
  /** Which PayTo provider adapter to use. Only the sandbox ships here (decision 027). */
  PAYTO_PROVIDER: z
    .enum(["sandbox"], {
      errorMap: () => ({ message: "must be sandbox (the only PayTo provider adapter in this build)" }),
    })
    .default("sandbox"),
  /**
   * The secret the PayTo provider signs webhooks with (HMAC-SHA256). Unset: derived from
   * SESSION_SECRET, which is what the in-process sandbox uses too.
   */
  PAYTO_WEBHOOK_SECRET: z
    .string()
    .max(SECRET_MAX)
    .min(32, "must be at least 32 characters (leave it unset to derive one)")
    .optional(),
  /**
   * The key of the signed preference and unsubscribe links in emails (decision 039). Unset: derived
   * from SESSION_SECRET. Set it in production, so that rotating SESSION_SECRET does not turn every
   * unsubscribe link already in people's inboxes into "This link isn't valid".
   */
  COMMUNICATION_LINK_SECRET: z
    .string()
    .max(SECRET_MAX)
    .min(32, "must be at least 32 characters (leave it unset to derive one)")
    .optional(),
  /**
   * The key that seals messages waiting in the mail outbox (decision 044; AES-256-GCM, derived
   * with HKDF). Unset: derived from SESSION_SECRET. Rotating it leaves messages still waiting
   * unreadable: they are dropped with the reason, never sent garbled.
   */
  MAIL_OUTBOX_SECRET: z
    .string()
    .max(SECRET_MAX)
    .min(32, "must be at least 32 characters (leave it unset to derive one)")
    .optional(),
  /**
   * How often the provider is asked about PayTo agreements and payments still moving: one job
   * per interval across all portal processes (decision 043), counted in whole seconds.
   */
  PAYTO_POLL_MS: millis("30000", 100, 3_600_000),
  /** How often card payments whose outcome was lost are settled from the gateway: one job per interval. */
  RECONCILE_EVERY_MS: millis("60000", 1_000, 3_600_000),
  /**
   * How often expired sessions, link sessions, old rate-limit hits and expired drafts are deleted:
   * one job per interval, at most 12 hours (pg-boss keeps a slot's job that long).
   */
  EXPIRY_EVERY_MS: millis("3600000", 60_000, 43_200_000),
  /** The sandbox provider's answer time, like a real provider's round trip. */
  SANDBOX_PAYTO_DELAY_MS: millis("250", 0, 99_999),
  /** How long after it is accepted a sandbox PayTo payment settles (or is rejected). */
  SANDBOX_PAYTO_SETTLE_MS: millis("5000", 0, 86_400_000),
  /** How long an agreement nobody answers stays pending before the sandbox expires it. */
  SANDBOX_PAYTO_EXPIRE_MS: millis("600000", 1, 604_800_000),
  /** How long after approval the sandbox's suspend@payto.test payer suspends the agreement. */
  SANDBOX_PAYTO_SUSPEND_MS: millis("10000", 0, 86_400_000),
  /**
   * Where the sandbox delivers webhooks (the Host header names the business's host).
   * Unset: this process, http://127.0.0.1:$PORT/api/payTo/webhook.
   */
  SANDBOX_PAYTO_WEBHOOK_URL: z
    .string()
    .max(URL_MAX)
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine((value) => value === undefined || /^https?:\/\/[^\s]+$/.test(value), "must be an http(s):// URL"),
  /**
   * Auth0 client secrets, as a JSON object from client id to secret. Client ids and
   * domains are per business in the database; secrets never are.
   */
  AUTH0_CLIENT_SECRETS: z
    .string()
    .max(JSON_MAX)
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return {} as Record<string, string>;
      try {
        const parsed: unknown = JSON.parse(value);
        const record = z
          .record(z.string().max(256), z.string().min(1).max(SECRET_MAX))
          .refine((secrets) => Object.keys(secrets).length <= CLIENTS_MAX)
          .parse(parsed);
        return record;
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON object such as {"clientId":"secret"}' });
        return z.NEVER;
      }
    }),
});

export type Env = z.infer<typeof EnvSchema> & { SESSION_SECRET: string; DATA_DIR: string };

export class ConfigurationError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigurationError";
  }
}

/** Parse an environment object; throws a ConfigurationError naming each bad variable. */
export function parseEnv(source: Record<string, string | undefined>) {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`);
    throw new ConfigurationError(problems);
  }
  if (result.data.PORTAL_TEST_CLOCK === "on" && result.data.TRUST_PROXY) {
    // A portal behind a reverse proxy is a deployment that serves other machines: the test
    // clock, which trusts callers on loopback, is for the e2e suite's own portal only.
    throw new ConfigurationError([
      "PORTAL_TEST_CLOCK: must be off when TRUST_PROXY is true (the test clock is for the e2e suite's own portal, never one behind a proxy)",
    ]);
  }
  return result.data;
}

type Secrets = { sessionSecret: string };

/**
 * Development secrets: generated once and kept in the data folder (which is
 * git-ignored), so a newcomer needs no configuration and sessions survive restarts.
 */
export function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
    if (typeof parsed.sessionSecret === "string" && parsed.sessionSecret.length >= 32) {
      return { sessionSecret: parsed.sessionSecret };
    }
  } catch {
    // Missing or unreadable: generate below.
  }
  const secrets: Secrets = { sessionSecret: randomBytes(32).toString("base64url") };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function buildEnv(source: Record<string, string | undefined>): Env {
  const parsed = parseEnv(source);
  const dataDir = path.resolve(parsed.DATA_DIR);
  const sessionSecret = parsed.SESSION_SECRET ?? loadOrCreateSecrets(dataDir).sessionSecret;
  return { ...parsed, DATA_DIR: dataDir, SESSION_SECRET: sessionSecret };
}

let cached: Env | undefined;

/** The validated configuration; on a bad variable, prints which one and exits. */
export function getEnv(): Env {
  if (cached) return cached;
  try {
    cached = buildEnv(process.env);
    return cached;
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`\n${error.message}\n\nThe portal did not start. Fix the variables above and try again.\n`);
      process.exit(1);
    }
    throw error;
  }
}

export function resetEnvForTesting() {
  cached = undefined;
}
