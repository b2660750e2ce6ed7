import { describe, expect, it } from "vitest";
import { safeSameOriginPath } from "./safe-redirect";

const ORIGIN = "http://acme.localhost:3000";

describe("safeSameOriginPath: accepted targets", () => {
  it.each([
    ["/", "/"],
    ["/accounts", "/accounts"],
    ["/accounts?x=1#h", "/accounts?x=1#h"],
    ["/a/b/c?q=%20x&y=2", "/a/b/c?q=%20x&y=2"],
    ["http://acme.localhost:3000/a", "/a"],
    ["http://acme.localhost:3000/a?b=1#c", "/a?b=1#c"],
    ["http://ACME.localhost:3000/a", "/a"],
    ["http://acme.localhost:3000", "/"],
  ])("%j -> %j", (target, expected) => {
    expect(safeSameOriginPath(target, ORIGIN)).toBe(expected);
  });

  it("normalises dot segments without leaving the origin", () => {
    expect(safeSameOriginPath("/a/../../b", ORIGIN)).toBe("/b");
    expect(safeSameOriginPath("/%2e%2e/x", ORIGIN)).toBe("/x");
  });

  it("resolves a relative path without a leading slash against the origin root", () => {
    // The origin has no path, so "accounts" resolves to "/accounts" on the same origin.
    expect(safeSameOriginPath("accounts", ORIGIN)).toBe("/accounts");
    expect(safeSameOriginPath("./x", ORIGIN)).toBe("/x");
    expect(safeSameOriginPath("../x", ORIGIN)).toBe("/x");
    expect(safeSameOriginPath("?x=1", ORIGIN)).toBe("/?x=1");
  });

  it("keeps percent-encoded control characters encoded (safe in a Location header)", () => {
    expect(safeSameOriginPath("/%0d%0aSet-Cookie:x=1", ORIGIN)).toBe("/%0d%0aSet-Cookie:x=1");
  });

  it("treats a same-scheme 'http:host' as a relative path, not a new host", () => {
    expect(safeSameOriginPath("http:evil.com", ORIGIN)).toBe("/evil.com");
  });

  it("accepts a path of exactly 2048 characters and rejects 2049", () => {
    const ok = `/${"a".repeat(2047)}`;
    expect(safeSameOriginPath(ok, ORIGIN)).toBe(ok);
    expect(safeSameOriginPath(`/${"a".repeat(2048)}`, ORIGIN, "/fb")).toBe("/fb");
  });

  it("works with an https origin", () => {
    expect(safeSameOriginPath("https://acme.example/x", "https://acme.example")).toBe("/x");
  });
});

describe("safeSameOriginPath: rejected targets return the fallback", () => {
  const FALLBACK = "/fallback";

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["empty string", ""],
    ["other origin", "https://evil.com/"],
    ["other origin with our path", "http://evil.com/accounts"],
    ["same host, other port", "http://acme.localhost:3001/a"],
    ["subdomain of ours", "http://x.acme.localhost:3000/a"],
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with path", "//evil.com/accounts"],
    ["slash-backslash", "/\\evil.com"],
    ["double backslash", "\\\\evil.com"],
    ["backslash in the middle", "/a\\b"],
    ["javascript scheme", "javascript:alert(1)"],
    ["mixed-case javascript scheme", "JaVaScRiPt:alert(document.cookie)"],
    ["data URL", "data:text/html,<script>alert(1)</script>"],
    ["encoded protocol-relative", "%2F%2Fevil.com"],
    ["lower-case encoded protocol-relative", "%2f%2fevil.com"],
    ["encoded backslash", "/%5Cevil.com"],
    ["encoded slash-backslash", "%2f%5cevil.com"],
    ["origin as host prefix", "http://acme.localhost:3000.evil.com/"],
    ["userinfo trick", "http://acme.localhost:3000@evil.com/"],
    ["different scheme", "https://acme.localhost:3000/"],
    ["https shorthand", "https:evil.com"],
    ["tab", "/\t/evil.com"],
    ["leading tab", "\t/accounts"],
    ["newline", "/accounts\n"],
    ["carriage return", "/a\r\nLocation: http://evil.com"],
    ["NUL", "/a\u0000b"],
    ["DEL", "/a\u007fb"],
    ["space", "/a b"],
    ["non-breaking space", "/a\u00a0b"],
    ["line separator", "/a\u2028b"],
    ["3000-char string", `/${"a".repeat(2999)}`],
    ["malformed percent-encoding", "%E0%A4%A"],
    ["malformed percent-encoding in a path", "/accounts%"],
    ["mailto", "mailto:x@y"],
    ["file scheme", "file:///etc/passwd"],
    ["ftp scheme", "ftp://acme.localhost:3000/"],
  ])("%s", (_label, target) => {
    expect(safeSameOriginPath(target, ORIGIN, FALLBACK)).toBe(FALLBACK);
  });

  it("defaults the fallback to '/'", () => {
    expect(safeSameOriginPath("//evil.com", ORIGIN)).toBe("/");
    expect(safeSameOriginPath(null, ORIGIN)).toBe("/");
  });

  it("returns the fallback when the origin itself is not a URL", () => {
    expect(safeSameOriginPath("/a", "not a url", FALLBACK)).toBe(FALLBACK);
  });

  it("rejects non-string input even if it slips past the types", () => {
    expect(safeSameOriginPath(42 as unknown as string, ORIGIN, FALLBACK)).toBe(FALLBACK);
    expect(safeSameOriginPath({} as unknown as string, ORIGIN, FALLBACK)).toBe(FALLBACK);
  });

  it("whatever it returns stays on the origin when resolved by a browser", () => {
    const hostile = [
      "//evil.com",
      "/\\evil.com",
      "\\/evil.com",
      "/%2F/evil.com",
      "%2F%5C%2Fevil.com",
      "http://evil.com",
      "https:/evil.com",
      "http:/\\evil.com",
      "/.//evil.com",
    ];
    for (const target of hostile) {
      const result = safeSameOriginPath(target, ORIGIN, FALLBACK);
      expect(result.startsWith("/") && !result.startsWith("//")).toBe(true);
      // Whatever comes back, a browser resolving it against our origin stays on our origin.
      expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
    }
  });
});
