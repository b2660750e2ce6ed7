import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildEnv, ConfigurationError, loadOrCreateSecrets, parseEnv } from "./env.server";

const GOOD_SECRET = "s".repeat(32);

/** Runs fn expecting a ConfigurationError and returns it. */
function configurationError(fn: () => unknown): ConfigurationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError, but nothing was thrown");
}

describe("parseEnv: mail and Auth0 variables", () => {
  it.each([
    ["SMTP_URL", "http://mail.example"],
    ["SMTP_URL", "smtp:// spaced"],
    ["MAIL_FROM", "not an address"],
    ["MAIL_FROM", "Portal <no-reply@portal.example>"],
    ["AUTH0_CLIENT_SECRETS", "not json"],
    ["AUTH0_CLIENT_SECRETS", '["a"]'],
    ["AUTH0_CLIENT_SECRETS", '{"abc":""}'],
    ["DOCUMENT_STORAGE", "s3"],
  ])("%s=%j stops start-up naming the variable", (name, value) => {
    const error = configurationError(() => parseEnv({ [name]: value }));
    expect(error.problems.join("\n")).toContain(name);
  });
});

describe("parseEnv", () => {
  it("gives defaults for an empty environment", () => {
    const env = parseEnv({});
    expect(env).toEqual({
      NODE_ENV: "production",
      DATA_DIR: "./data",
      TRUST_PROXY: false,
      LOG_LEVEL: "info",
      SEED_DEMO_DATA: true,
      CSS_DELIVERY: "inline",
      BENCH_QUERY_COUNT: false,
      PORTAL_TEST_CLOCK: "off",
      DATABASE_URL: undefined,
      AUTH0_CLIENT_SECRETS: {},
      DOCUMENT_STORAGE: "filesystem",
      DOCUMENTS_DIR: undefined,
      CARD_GATEWAY: "sandbox",
      SANDBOX_GATEWAY_DELAY_MS: 250,
      PAYTO_PROVIDER: "sandbox",
      PAYTO_POLL_MS: 30000,
      RECONCILE_EVERY_MS: 60000,
      EXPIRY_EVERY_MS: 3600000,
      SANDBOX_PAYTO_DELAY_MS: 250,
      SANDBOX_PAYTO_SETTLE_MS: 5000,
      SANDBOX_PAYTO_EXPIRE_MS: 600000,
      SANDBOX_PAYTO_SUSPEND_MS: 10000,
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      DATABASE_STATEMENT_TIMEOUT_MS: 15000,
      CARD_GATEWAY_TIMEOUT_MS: 15000,
      PAYTO_PROVIDER_TIMEOUT_MS: 15000,
      PORT_BREAKER_FAILURES: 5,
      PORT_BREAKER_WINDOW_MS: 30000,
      PORT_BREAKER_COOLDOWN_MS: 10000,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
  });

  it("ignores unrelated variables", () => {
    const env = parseEnv({ PATH: "/usr/bin", HOME: "/root" });
    expect(env).not.toHaveProperty("PATH");
    expect(env).not.toHaveProperty("HOME");
  });

  it("accepts valid values of every variable", () => {
    const env = parseEnv({
      NODE_ENV: "development",
      DATABASE_URL: "postgresql://u@127.0.0.1:5432/db",
      DATA_DIR: "/var/lib/portal",
      SESSION_SECRET: GOOD_SECRET,
      TRUST_PROXY: "true",
      LOG_LEVEL: "debug",
      SEED_DEMO_DATA: "false",
      CSS_DELIVERY: "link",
      BENCH_QUERY_COUNT: "1",
      PORTAL_TEST_CLOCK: "off",
      SMTP_URL: "smtp://127.0.0.1:2525",
      MAIL_FROM: "no-reply@portal.example",
      AUTH0_CLIENT_SECRETS: '{"abc":"shh"}',
      DOCUMENT_STORAGE: "filesystem",
      DOCUMENTS_DIR: "/var/lib/portal-documents",
      CARD_GATEWAY: "sandbox",
      SANDBOX_GATEWAY_DELAY_MS: "40",
      PAYTO_PROVIDER: "sandbox",
      PAYTO_WEBHOOK_SECRET: GOOD_SECRET,
      PAYTO_POLL_MS: "500",
      RECONCILE_EVERY_MS: "5000",
      EXPIRY_EVERY_MS: "600000",
      SANDBOX_PAYTO_DELAY_MS: "0",
      SANDBOX_PAYTO_SETTLE_MS: "100",
      SANDBOX_PAYTO_EXPIRE_MS: "2000",
      SANDBOX_PAYTO_SUSPEND_MS: "300",
      SANDBOX_PAYTO_WEBHOOK_URL: "http://127.0.0.1:4310/api/payTo/webhook",
      DATABASE_CONNECT_TIMEOUT_MS: "2000",
      DATABASE_STATEMENT_TIMEOUT_MS: "5000",
      CARD_GATEWAY_TIMEOUT_MS: "2500",
      PAYTO_PROVIDER_TIMEOUT_MS: "3000",
      PORT_BREAKER_FAILURES: "3",
      PORT_BREAKER_WINDOW_MS: "10000",
      PORT_BREAKER_COOLDOWN_MS: "5000",
    });
    expect(env).toEqual({
      NODE_ENV: "development",
      DATABASE_URL: "postgresql://u@127.0.0.1:5432/db",
      DATA_DIR: "/var/lib/portal",
      SESSION_SECRET: GOOD_SECRET,
      TRUST_PROXY: true,
      LOG_LEVEL: "debug",
      SEED_DEMO_DATA: false,
      CSS_DELIVERY: "link",
      BENCH_QUERY_COUNT: true,
      PORTAL_TEST_CLOCK: "off",
      SMTP_URL: "smtp://127.0.0.1:2525",
      MAIL_FROM: "no-reply@portal.example",
      AUTH0_CLIENT_SECRETS: { abc: "shh" },
      DOCUMENT_STORAGE: "filesystem",
      DOCUMENTS_DIR: "/var/lib/portal-documents",
      CARD_GATEWAY: "sandbox",
      SANDBOX_GATEWAY_DELAY_MS: 40,
      PAYTO_PROVIDER: "sandbox",
      PAYTO_WEBHOOK_SECRET: GOOD_SECRET,
      PAYTO_POLL_MS: 500,
      RECONCILE_EVERY_MS: 5000,
      EXPIRY_EVERY_MS: 600000,
      SANDBOX_PAYTO_DELAY_MS: 0,
      SANDBOX_PAYTO_SETTLE_MS: 100,
      SANDBOX_PAYTO_EXPIRE_MS: 2000,
      SANDBOX_PAYTO_SUSPEND_MS: 300,
      SANDBOX_PAYTO_WEBHOOK_URL: "http://127.0.0.1:4310/api/payTo/webhook",
      DATABASE_CONNECT_TIMEOUT_MS: 2000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5000,
      CARD_GATEWAY_TIMEOUT_MS: 2500,
      PAYTO_PROVIDER_TIMEOUT_MS: 3000,
      PORT_BREAKER_FAILURES: 3,
      PORT_BREAKER_WINDOW_MS: 10000,
      PORT_BREAKER_COOLDOWN_MS: 5000,
    });
  });

  it("refuses the e2e test clock on a portal behind a proxy", () => {
    expect(() => parseEnv({ PORTAL_TEST_CLOCK: "on", TRUST_PROXY: "true" })).toThrow(
      /PORTAL_TEST_CLOCK: must be off when TRUST_PROXY is true/,
    );
    expect(parseEnv({ PORTAL_TEST_CLOCK: "on" }).PORTAL_TEST_CLOCK).toBe("on");
  });

  it.each([
    ["CARD_GATEWAY", "stripe", /CARD_GATEWAY: must be sandbox/],
    ["CARD_GATEWAY_TIMEOUT_MS", "0", /CARD_GATEWAY_TIMEOUT_MS: must be a whole number of milliseconds, 100/],
    ["PAYTO_PROVIDER_TIMEOUT_MS", "5s", /PAYTO_PROVIDER_TIMEOUT_MS: must be a whole number/],
    ["PORT_BREAKER_FAILURES", "0", /PORT_BREAKER_FAILURES: must be a whole number from 1 to 100/],
    ["PORT_BREAKER_FAILURES", "many", /PORT_BREAKER_FAILURES: must be a whole number from 1 to 100/],
    ["CSS_DELIVERY", "critical", /CSS_DELIVERY: must be inline or link/],
    ["PORT_BREAKER_COOLDOWN_MS", "-1", /PORT_BREAKER_COOLDOWN_MS: must be a whole number/],
    ["DATABASE_CONNECT_TIMEOUT_MS", "99", /DATABASE_CONNECT_TIMEOUT_MS: must be a whole number/],
    ["DATABASE_STATEMENT_TIMEOUT_MS", "1e4", /DATABASE_STATEMENT_TIMEOUT_MS: must be a whole number/],
    ["SANDBOX_GATEWAY_DELAY_MS", "-5", /SANDBOX_GATEWAY_DELAY_MS: must be a whole number/],
    ["SANDBOX_GATEWAY_DELAY_MS", "1e3", /SANDBOX_GATEWAY_DELAY_MS: must be a whole number/],
    ["PAYTO_PROVIDER", "zepto", /PAYTO_PROVIDER: must be sandbox/],
    ["PAYTO_WEBHOOK_SECRET", "short", /PAYTO_WEBHOOK_SECRET: must be at least 32/],
    ["PAYTO_POLL_MS", "50", /PAYTO_POLL_MS: must be a whole number of milliseconds, 100/],
    ["EXPIRY_EVERY_MS", "86400000", /EXPIRY_EVERY_MS: must be a whole number of milliseconds, 60000 to 43200000/],
    ["SANDBOX_PAYTO_EXPIRE_MS", "0", /SANDBOX_PAYTO_EXPIRE_MS: must be a whole number/],
    ["SANDBOX_PAYTO_SETTLE_MS", "soon", /SANDBOX_PAYTO_SETTLE_MS: must be a whole number/],
    ["SANDBOX_PAYTO_WEBHOOK_URL", "ftp://x", /SANDBOX_PAYTO_WEBHOOK_URL: must be an http/],
  ])("refuses %s=%j", (name, value, message) => {
    expect(() => parseEnv({ [name]: value })).toThrow(message);
  });

  it.each(["postgresql://u@127.0.0.1:5432/db", "postgres://u:p@db.internal/portal?sslmode=require"])(
    "accepts DATABASE_URL %j",
    (url) => {
      expect(parseEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    },
  );

  it("trims DATABASE_URL", () => {
    expect(parseEnv({ DATABASE_URL: "  postgres://h/db  " }).DATABASE_URL).toBe("postgres://h/db");
  });

  it.each(["", "   "])("treats DATABASE_URL %j as unset", (value) => {
    expect(parseEnv({ DATABASE_URL: value }).DATABASE_URL).toBeUndefined();
  });

  it.each(["mysql://x", "postgres://", "http://db/x", "postgres://host/db with space", "postgres"])(
    "rejects DATABASE_URL %j naming the variable",
    (url) => {
      const error = configurationError(() => parseEnv({ DATABASE_URL: url }));
      expect(error.message).toContain("DATABASE_URL");
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^DATABASE_URL: /);
    },
  );

  it("ConfigurationError has a useful name and message", () => {
    const error = configurationError(() => parseEnv({ DATABASE_URL: "mysql://x" }));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ConfigurationError");
    expect(error.message).toMatch(/^Invalid configuration:\n {2}- DATABASE_URL: must be a postgres/);
  });

  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["0", false],
    ["no", false],
  ])("TRUST_PROXY %j -> %j", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toBe(expected);
    expect(parseEnv({ SEED_DEMO_DATA: value }).SEED_DEMO_DATA).toBe(expected);
  });

  it.each(["maybe", "TRUE", "on", ""])("rejects TRUST_PROXY %j naming the variable", (value) => {
    const error = configurationError(() => parseEnv({ TRUST_PROXY: value }));
    expect(error.problems).toEqual(["TRUST_PROXY: must be true or false"]);
    expect(error.message).toContain("TRUST_PROXY");
  });

  it("rejects LOG_LEVEL 'loud' naming the variable", () => {
    const error = configurationError(() => parseEnv({ LOG_LEVEL: "loud" }));
    expect(error.problems).toEqual(["LOG_LEVEL: must be one of debug, info, warn, error, silent"]);
  });

  it("rejects an unknown NODE_ENV", () => {
    const error = configurationError(() => parseEnv({ NODE_ENV: "staging" }));
    expect(error.problems[0]).toMatch(/^NODE_ENV: /);
  });

  it("rejects an empty DATA_DIR", () => {
    const error = configurationError(() => parseEnv({ DATA_DIR: "  " }));
    expect(error.problems).toEqual(["DATA_DIR: must not be empty"]);
  });

  it("rejects a SESSION_SECRET shorter than 32 characters and accepts exactly 32", () => {
    const error = configurationError(() => parseEnv({ SESSION_SECRET: "s".repeat(31) }));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^SESSION_SECRET: must be at least 32 characters/);
    expect(parseEnv({ SESSION_SECRET: GOOD_SECRET }).SESSION_SECRET).toBe(GOOD_SECRET);
  });

  it("names every bad variable at once", () => {
    const error = configurationError(() =>
      parseEnv({
        DATABASE_URL: "mysql://x",
        TRUST_PROXY: "maybe",
        LOG_LEVEL: "loud",
        SESSION_SECRET: "short",
        SEED_DEMO_DATA: "perhaps",
        NODE_ENV: "prod",
      }),
    );
    const named = error.problems.map((problem) => problem.split(":")[0]).sort();
    expect(named).toEqual(
      ["DATABASE_URL", "LOG_LEVEL", "NODE_ENV", "SEED_DEMO_DATA", "SESSION_SECRET", "TRUST_PROXY"].sort(),
    );
    for (const name of named) expect(error.message).toContain(`  - ${name}: `);
  });
});

describe("buildEnv and loadOrCreateSecrets", () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "env-test-"));
  });

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const secretsFile = () => path.join(dataDir, "secrets.json");

  it("generates secrets.json with mode 0600 and a secret of at least 32 characters", () => {
    const env = buildEnv({ DATA_DIR: dataDir });
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(env.SESSION_SECRET).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fs.existsSync(secretsFile())).toBe(true);
    if (process.platform !== "win32") {
      expect(fs.statSync(secretsFile()).mode & 0o777).toBe(0o600);
    }
    const stored = JSON.parse(fs.readFileSync(secretsFile(), "utf8")) as { sessionSecret: string };
    expect(stored.sessionSecret).toBe(env.SESSION_SECRET);
  });

  it("returns the same secret on a second call", () => {
    const first = buildEnv({ DATA_DIR: dataDir });
    const second = buildEnv({ DATA_DIR: dataDir });
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(loadOrCreateSecrets(dataDir).sessionSecret).toBe(first.SESSION_SECRET);
  });

  it("generates different secrets for different data folders", () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "env-test-"));
    try {
      expect(loadOrCreateSecrets(other).sessionSecret).not.toBe(loadOrCreateSecrets(dataDir).sessionSecret);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("uses SESSION_SECRET when given and writes no file", () => {
    const secret = "x".repeat(40);
    const env = buildEnv({ DATA_DIR: dataDir, SESSION_SECRET: secret });
    expect(env.SESSION_SECRET).toBe(secret);
    expect(fs.existsSync(secretsFile())).toBe(false);
  });

  it("regenerates the secret when secrets.json is corrupt JSON", () => {
    fs.writeFileSync(secretsFile(), "{ not json", { mode: 0o600 });
    const env = buildEnv({ DATA_DIR: dataDir });
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    const stored = JSON.parse(fs.readFileSync(secretsFile(), "utf8")) as { sessionSecret: string };
    expect(stored.sessionSecret).toBe(env.SESSION_SECRET);
    expect(buildEnv({ DATA_DIR: dataDir }).SESSION_SECRET).toBe(env.SESSION_SECRET);
  });

  it.each([
    ["a too-short secret", JSON.stringify({ sessionSecret: "short" })],
    ["a non-string secret", JSON.stringify({ sessionSecret: 12345 })],
    ["an empty object", "{}"],
    ["JSON null", "null"],
  ])("regenerates the secret when secrets.json holds %s", (_label, content) => {
    fs.writeFileSync(secretsFile(), content, { mode: 0o600 });
    const { sessionSecret } = loadOrCreateSecrets(dataDir);
    expect(sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(sessionSecret).not.toBe("short");
  });

  it("keeps a valid existing secret", () => {
    const existing = "e".repeat(48);
    fs.writeFileSync(secretsFile(), JSON.stringify({ sessionSecret: existing }), { mode: 0o600 });
    expect(buildEnv({ DATA_DIR: dataDir }).SESSION_SECRET).toBe(existing);
  });

  it("creates a missing data folder", () => {
    const nested = path.join(dataDir, "a", "b");
    const env = buildEnv({ DATA_DIR: nested });
    expect(fs.existsSync(path.join(nested, "secrets.json"))).toBe(true);
    expect(env.DATA_DIR).toBe(nested);
  });

  it("resolves a relative DATA_DIR to an absolute path", () => {
    const relative = path.relative(process.cwd(), dataDir);
    const env = buildEnv({ DATA_DIR: relative });
    expect(path.isAbsolute(env.DATA_DIR)).toBe(true);
    expect(env.DATA_DIR).toBe(path.resolve(dataDir));
  });

  it("throws a ConfigurationError before touching the disk", () => {
    configurationError(() => buildEnv({ DATA_DIR: dataDir, LOG_LEVEL: "loud" }));
    expect(fs.existsSync(secretsFile())).toBe(false);
  });
});
