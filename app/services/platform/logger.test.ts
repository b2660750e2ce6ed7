import { describe, expect, it } from "vitest";
import { createLogger, redact } from "./logger.server";

type Captured = { line: string; level: string };

function capture(level?: "debug" | "info" | "warn" | "error" | "silent") {
  const lines: Captured[] = [];
  // Without a level the logger reads LOG_LEVEL (the test run sets it to silent): these
  // cases are about the logger's own default, so read it with LOG_LEVEL unset.
  const saved = process.env.LOG_LEVEL;
  delete process.env.LOG_LEVEL;
  const logger = createLogger({ level, sink: (line, lineLevel) => lines.push({ line, level: lineLevel }) });
  if (saved !== undefined) process.env.LOG_LEVEL = saved;
  const entries = () => lines.map(({ line }) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, entries };
}

describe("createLogger", () => {
  it("writes one JSON line per call with time, level, msg and the fields", () => {
    const { logger, lines, entries } = capture("debug");
    const before = Date.now();
    logger.info("hello", { userId: "u1", count: 3, nested: { ok: true } });
    const after = Date.now();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line).not.toContain("\n");
    expect(lines[0]!.level).toBe("info");
    const entry = entries()[0]!;
    expect(entry).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "hello",
      userId: "u1",
      count: 3,
      nested: { ok: true },
    });
    expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const time = Date.parse(entry.time as string);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
  });

  it("puts level and time first and msg last (pino's order)", () => {
    const { logger, lines } = capture();
    logger.warn("careful", { a: 1 });
    expect(Object.keys(JSON.parse(lines[0]!.line) as object)).toEqual(["level", "time", "a", "msg"]);
  });

  it("works without fields", () => {
    const { logger, entries } = capture();
    logger.error("boom");
    expect(entries()).toEqual([{ time: expect.any(String), level: "error", msg: "boom" }]);
  });

  it("passes each method's level to the sink", () => {
    const { logger, lines } = capture("debug");
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(lines.map((l) => l.level)).toEqual(["debug", "info", "warn", "error"]);
    expect(lines.map((l) => (JSON.parse(l.line) as { level: string }).level)).toEqual([
      "debug",
      "info",
      "warn",
      "error",
    ]);
  });

  it.each([
    ["debug", ["d", "i", "w", "e"]],
    ["info", ["i", "w", "e"]],
    ["warn", ["w", "e"]],
    ["error", ["e"]],
    ["silent", []],
  ] as const)("at level %s writes %j", (level, expected) => {
    const { logger, entries } = capture(level);
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(entries().map((e) => e.msg)).toEqual(expected);
  });

  it("reads an unknown LOG_LEVEL as info rather than throwing (the configuration check names it)", () => {
    const saved = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "loud";
    try {
      const lines: string[] = [];
      const logger = createLogger({ sink: (line) => lines.push(line) });
      logger.debug("d");
      logger.info("i");
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["i"]);
    } finally {
      if (saved === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = saved;
    }
  });

  it("drops debug at the info level", () => {
    const { logger, lines } = capture("info");
    logger.debug("noise", { a: 1 });
    expect(lines).toEqual([]);
  });

  it("redacts sensitive fields before writing", () => {
    const { logger, lines } = capture();
    logger.info("login", { email: "a@b.c", password: "hunter2", headers: { cookie: "sid=abc" } });
    expect(lines[0]!.line).not.toContain("hunter2");
    expect(lines[0]!.line).not.toContain("sid=abc");
    expect(JSON.parse(lines[0]!.line)).toMatchObject({
      email: "a@b.c",
      password: "[redacted]",
      headers: { cookie: "[redacted]" },
    });
  });

  it("does not throw on a circular structure and still writes a line", () => {
    const { logger, lines } = capture();
    const node: Record<string, unknown> = { name: "root" };
    node.self = node;
    expect(() => logger.info("circular", { node })).not.toThrow();
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]!.line) as { node: { name: string } }).node.name).toBe("root");
  });

  it("serialises an Error field with name, message and stack", () => {
    const { logger, entries } = capture();
    logger.error("failed", { error: new TypeError("bad thing") });
    const error = entries()[0]!.error as Record<string, unknown>;
    expect(error.name).toBe("TypeError");
    expect(error.message).toBe("bad thing");
    expect(error.stack).toContain("bad thing");
  });
});

describe("the emitted line's redaction", () => {
  const token = "AbCdEf0123456789ghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU_-";

  it.each([
    ["an authorization header", { headers: { authorization: "Bearer secret-bearer" } }, "secret-bearer"],
    ["a cookie header", { req: { headers: { cookie: "portal_session=secret-cookie" } } }, "secret-cookie"],
    ["a set-cookie header", { res: { headers: { "set-cookie": ["portal_session=secret-set"] } } }, "secret-set"],
    ["a card number", { payment: { cardNumber: "4111111111111111" } }, "4111111111111111"],
    ["a PAN", { pan: "5555555555554444" }, "5555555555554444"],
    ["a CVN", { card: { cvn: "737" } }, '"737"'],
    ["a CVV", { cvv: "8642" }, "8642"],
    ["a password", { form: { password: "hunter2" } }, "hunter2"],
    ["a one-time token", { reset: { token: "secret-reset" } }, "secret-reset"],
  ])("never shows %s", (_what, fields, secret) => {
    const { logger, lines } = capture();
    logger.info("event", fields);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line).not.toContain(secret);
    expect(lines[0]!.line).toContain('"[redacted]"');
  });

  it("keeps a URL or path without its query string and with an emailed link's token cut short", () => {
    const { logger, entries } = capture();
    logger.info("event", {
      url: `https://acme.example/customer/payment-request/${token}?reset=secret-query`,
      path: `/customer/adhoc/${token}/pay?x=secret-query`,
      link: { url: `/agreements/acceptance/${token}` },
    });
    expect(entries()[0]).toMatchObject({
      url: "https://acme.example/customer/payment-request/AbCdEf…",
      path: "/customer/adhoc/AbCdEf…/pay",
      link: { url: "/agreements/acceptance/AbCdEf…" },
    });
    expect(JSON.stringify(entries()[0])).not.toContain("secret-query");
    expect(JSON.stringify(entries()[0])).not.toContain(token.slice(0, 7));
  });

  it("leaves other paths and URLs as they are", () => {
    const { logger, entries } = capture();
    logger.info("event", { path: "/customer/invoices-and-payments/invoices", url: "https://acme.example/pay" });
    expect(entries()[0]).toMatchObject({
      path: "/customer/invoices-and-payments/invoices",
      url: "https://acme.example/pay",
    });
  });

  it("redacts what is logged through the pino logger underneath too", () => {
    const { logger, lines } = capture();
    logger.pino.info({ headers: { cookie: "sid=secret-cookie" }, cardNumber: "4111111111111111" }, "raw");
    expect(lines[0]!.line).not.toContain("secret-cookie");
    expect(lines[0]!.line).not.toContain("4111111111111111");
  });
});

describe("redact", () => {
  it.each([
    "password",
    "Password",
    "newPassword",
    "currentPassword",
    "passwd",
    "cardNumber",
    "card_number",
    "card-number",
    "CardNumber",
    "cvn",
    "CVV",
    "cvc",
    "securityCode",
    "security_code",
    "pan",
    "PAN",
    "token",
    "accessToken",
    "refresh_token",
    "clientSecret",
    "authorization",
    "Authorization",
    "cookie",
    "set-cookie",
    "accountNumber",
    "account_number",
  ])("replaces the value of %j", (key) => {
    expect(redact({ [key]: "sensitive-value" })).toEqual({ [key]: "[redacted]" });
  });

  it("redacts logToken too (the key contains 'token')", () => {
    // Finding: log tokens are meant to be logged, but the /token/i pattern catches them.
    expect(redact({ logToken: "abc123" })).toEqual({ logToken: "[redacted]" });
  });

  it.each(["email", "userId", "accountId", "amount", "status", "path", "company", "panel", "spam"])(
    "leaves %j alone",
    (key) => {
      expect(redact({ [key]: "value" })).toEqual({ [key]: "value" });
    },
  );

  it("redacts whole values, whatever their type", () => {
    expect(redact({ password: { nested: "x" }, token: ["a", "b"], cvv: 123, cookie: null })).toEqual({
      password: "[redacted]",
      token: "[redacted]",
      cvv: "[redacted]",
      cookie: "[redacted]",
    });
  });

  it("redacts at any depth and inside arrays", () => {
    const input = {
      user: { profile: { credentials: { password: "p", hint: "h" } } },
      payments: [
        { cardNumber: "4111111111111111", cvn: "123", amount: 10 },
        { card_number: "5555555555554444", CVV: "999", amount: 20 },
      ],
      matrix: [[{ accountNumber: "12-3456-7890123-00" }]],
      request: { headers: { authorization: "Bearer x", cookie: "sid=1", accept: "text/html" } },
    };
    expect(redact(input)).toEqual({
      user: { profile: { credentials: { password: "[redacted]", hint: "h" } } },
      payments: [
        { cardNumber: "[redacted]", cvn: "[redacted]", amount: 10 },
        { card_number: "[redacted]", CVV: "[redacted]", amount: 20 },
      ],
      matrix: [[{ accountNumber: "[redacted]" }]],
      request: { headers: { authorization: "[redacted]", cookie: "[redacted]", accept: "text/html" } },
    });
  });

  it("does not modify its input", () => {
    const input = { password: "p", nested: { token: "t" } };
    redact(input);
    expect(input).toEqual({ password: "p", nested: { token: "t" } });
  });

  it("passes primitives through unchanged", () => {
    expect(redact("text")).toBe("text");
    expect(redact(42)).toBe(42);
    expect(redact(true)).toBe(true);
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeUndefined();
  });

  it("turns an Error into {name, message, stack}", () => {
    const error = new RangeError("out of range");
    expect(redact(error)).toEqual({ name: "RangeError", message: "out of range", stack: error.stack });
    expect(redact({ nested: [error] })).toEqual({
      nested: [{ name: "RangeError", message: "out of range", stack: error.stack }],
    });
  });

  it("does not throw on circular structures", () => {
    const a: Record<string, unknown> = { id: "a" };
    const b: Record<string, unknown> = { id: "b", a };
    a.b = b;
    const list: unknown[] = [];
    list.push(list);
    expect(() => redact(a)).not.toThrow();
    expect(() => redact(list)).not.toThrow();
    expect(() => JSON.stringify(redact(a))).not.toThrow();
    expect(() => JSON.stringify(redact(list))).not.toThrow();
  });

  it("never lets a sensitive key through below the depth limit", () => {
    let deep: Record<string, unknown> = { password: "leaked-if-visible" };
    for (let i = 0; i < 20; i++) deep = { level: deep };
    const output = JSON.stringify(redact(deep));
    expect(output).not.toContain("leaked-if-visible");
  });

  it("keeps shallow-enough nesting intact", () => {
    const input = { a: { b: { c: { d: { e: { f: "deep" } } } } } };
    expect(redact(input)).toEqual(input);
  });
});
