import { describe, expect, it } from "vitest";
import { cleanClientText, clientLogLimits, parseClientLog, writeClientLog } from "./client-log.server";
import { createLogger } from "./logger.server";

describe("client log lines", () => {
  it.each([
    ["line breaks and escapes", "a\r\nb\u001b[31mc\u0000d", "a b [31mc d"],
    ["line and paragraph separators, bidi overrides", "x\u2028y\u2029z\u202egnp.exe\u2066", "x y z gnp.exe"],
    ["C1 controls and DEL", "a\u0085b\u007fc", "a b c"],
  ])("removes %s", (_label, input, output) => {
    expect(cleanClientText(input, 100)).toBe(output);
  });

  it.each([
    ["password=hunter2 failed", "password=[redacted] failed"],
    ['{"token": "abc.def"}', '{"token": "[redacted]"}'],
    ["csrfToken=zzz&x=1", "csrfToken=[redacted]&x=1"],
    ["Authorization: Bearer eyJhbGciOi.x.y", "Authorization: [redacted] [redacted]"],
    ["paid with 4111-1111-1111-1111 today", "paid with [number removed] today"],
    ["card 5555 5555 5555 4444", "card [number removed]"],
    [`id ${"A".repeat(43)} seen`, "id [redacted] seen"],
  ])("masks what looks secret: %s", (input, output) => {
    expect(cleanClientText(input, 200)).toBe(output);
  });

  it("keeps ordinary numbers and cuts long text", () => {
    expect(cleanClientText("invoice 10042 of $1,234.50", 100)).toBe("invoice 10042 of $1,234.50");
    expect(cleanClientText("x".repeat(20), 5)).toBe("xxxxx…");
  });

  it("keeps only the path of a url, never its query", () => {
    const parsed = parseClientLog({ level: "warn", message: "m", url: "/auth/password/reset?token=abc&email=a@b" });
    expect(parsed).toEqual({ ok: true, entry: { level: "warn", message: "m", path: "/auth/password/reset" } });
  });

  it.each([null, "text", [], {}, { level: "warn" }, { level: "trace", message: "m" }, { level: "warn", message: 5 }])(
    "refuses %j with a message",
    (body) => {
      const parsed = parseClientLog(body);
      expect(parsed.ok).toBe(false);
    },
  );

  it("writes one JSON line tagged client, an error as a warning, with nothing the browser sent beyond the known fields", () => {
    const lines: string[] = [];
    const log = createLogger({ level: "debug", sink: (line) => lines.push(line) });
    const parsed = parseClientLog({ level: "error", message: "bad\nthing", code: "E1", secret: "s3cret" });
    if (!parsed.ok) throw new Error(parsed.message);
    writeClientLog(parsed.entry, { businessId: "b1", sessionLogId: "L1" }, log);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({
      level: "warn",
      msg: "client log",
      tag: "client",
      clientLevel: "error",
      message: "bad thing",
      code: "E1",
      businessId: "b1",
      sessionLogId: "L1",
    });
    expect(lines[0]).not.toContain("s3cret");
  });

  it("limits per address always, and per session when there is one", () => {
    expect(clientLogLimits("10.0.0.1", null).map((l) => l.key)).toEqual(["client-log:ip:10.0.0.1"]);
    expect(clientLogLimits("10.0.0.1", "L1").map((l) => l.key)).toEqual([
      "client-log:ip:10.0.0.1",
      "client-log:session:L1",
    ]);
  });
});
