import { describe, expect, it } from "vitest";
import { hostnameFromRequest, normalizeHostname } from "./host.server";

describe("normalizeHostname: accepted", () => {
  it.each([
    ["acme.localhost", "acme.localhost"],
    ["ACME.localhost:3000", "acme.localhost"],
    ["acme.localhost.", "acme.localhost"],
    ["acme.localhost.:3000", "acme.localhost"],
    ["  acme.localhost  ", "acme.localhost"],
    ["localhost", "localhost"],
    ["localhost:80", "localhost"],
    ["portal.example.co.nz", "portal.example.co.nz"],
    ["a-b.example.com", "a-b.example.com"],
    ["xn--80ak6aa92e.com", "xn--80ak6aa92e.com"],
    ["127.0.0.1", "127.0.0.1"],
    ["127.0.0.1:3000", "127.0.0.1"],
    ["[::1]", "[::1]"],
    ["[::1]:3000", "[::1]"],
    ["[2001:DB8::1]:443", "[2001:db8::1]"],
    ["[::ffff:127.0.0.1]", "[::ffff:127.0.0.1]"],
  ])("%j -> %j", (raw, expected) => {
    expect(normalizeHostname(raw)).toBe(expected);
  });

  it("accepts a label of exactly 63 characters", () => {
    const label = "a".repeat(63);
    expect(normalizeHostname(`${label}.com`)).toBe(`${label}.com`);
  });

  it("accepts a name of exactly 253 characters", () => {
    // 3 labels of 63 + a label of 61 + 3 dots = 253.
    const name = [63, 63, 63, 61].map((n) => "a".repeat(n)).join(".");
    expect(name).toHaveLength(253);
    expect(normalizeHostname(name)).toBe(name);
    expect(normalizeHostname(`${name}.:3000`)).toBe(name);
  });
});

describe("normalizeHostname: rejected", () => {
  it.each([
    ["empty", ""],
    ["spaces only", "   "],
    ["null", null],
    ["undefined", undefined],
    ["inner space", "a b"],
    ["markup", "<script>"],
    ["markup in a label", "acme<script>.localhost"],
    ["path", "evil.com/path"],
    ["userinfo", "user@evil.com"],
    ["leading hyphen", "-bad.com"],
    ["trailing hyphen", "bad-.com"],
    ["underscore", "bad_name.com"],
    ["non-numeric port", "acme.localhost:abc"],
    ["empty port", "acme.localhost:"],
    ["over-long port", "acme.localhost:99999999"],
    ["two ports", "acme.localhost:3000:3000"],
    ["cyrillic look-alike", "\u0430cme.localhost"],
    ["unicode name", "bücher.example"],
    ["empty label", "acme..localhost"],
    ["leading dot", ".acme.localhost"],
    ["only a dot", "."],
    ["only a port", ":3000"],
    ["SQL injection", "'; DROP TABLE hosts; --"],
    ["percent-encoded", "acme%2elocalhost"],
    ["CRLF", "acme.localhost\r\nx: y"],
    ["NUL", "acme\u0000.localhost"],
    ["unbracketed IPv6", "::1"],
    ["unclosed IPv6", "[::1"],
    ["IPv6 with letters beyond hex", "[evil.com]"],
    ["IPv6 with markup", "[<script>]"],
  ])("%s", (_label, raw) => {
    expect(normalizeHostname(raw)).toBeNull();
  });

  it("rejects a label of 64 characters", () => {
    expect(normalizeHostname(`${"a".repeat(64)}.com`)).toBeNull();
  });

  it("rejects a name longer than 253 characters", () => {
    const name = [63, 63, 63, 62].map((n) => "a".repeat(n)).join(".");
    expect(name).toHaveLength(254);
    expect(normalizeHostname(name)).toBeNull();
    expect(normalizeHostname("a.".repeat(200) + "com")).toBeNull();
  });

  it("rejects very long input before doing any work", () => {
    expect(normalizeHostname("a".repeat(100_000))).toBeNull();
  });
});

describe("hostnameFromRequest", () => {
  const direct = { trustProxy: false };
  const proxied = { trustProxy: true };

  it("Node's Request keeps an explicit Host header (so the header path can be tested)", () => {
    const request = new Request("http://127.0.0.1:3000/", { headers: { host: "acme.localhost:3000" } });
    expect(request.headers.get("host")).toBe("acme.localhost:3000");
  });

  it("uses the Host header", () => {
    const request = new Request("http://127.0.0.1:3000/", { headers: { host: "ACME.localhost:3000" } });
    expect(hostnameFromRequest(request, direct)).toBe("acme.localhost");
  });

  it("falls back to the URL's host when there is no Host header", () => {
    const request = new Request("http://Acme.localhost:3000/accounts?x=1");
    expect(request.headers.get("host")).toBeNull();
    expect(hostnameFromRequest(request, direct)).toBe("acme.localhost");
    expect(hostnameFromRequest(new Request("http://[::1]:3000/"), direct)).toBe("[::1]");
  });

  it("ignores X-Forwarded-Host unless the proxy is trusted", () => {
    const request = new Request("http://127.0.0.1:3000/", {
      headers: { host: "acme.localhost:3000", "x-forwarded-host": "other.localhost" },
    });
    expect(hostnameFromRequest(request, direct)).toBe("acme.localhost");
    expect(hostnameFromRequest(request, proxied)).toBe("other.localhost");
  });

  it("ignores X-Forwarded-Host without trust also when falling back to the URL", () => {
    const request = new Request("http://acme.localhost:3000/", {
      headers: { "x-forwarded-host": "other.localhost" },
    });
    expect(hostnameFromRequest(request, direct)).toBe("acme.localhost");
    expect(hostnameFromRequest(request, proxied)).toBe("other.localhost");
  });

  it("with a trusted proxy uses the right-most entry, the one the proxy wrote (issue 28)", () => {
    // A proxy that appends keeps what the client sent on the left: the client must not choose the tenant.
    const appended = new Request("http://127.0.0.1:3000/", {
      headers: { host: "internal:8080", "x-forwarded-host": "evil.example, acme.localhost" },
    });
    expect(hostnameFromRequest(appended, proxied)).toBe("acme.localhost");
    const three = new Request("http://127.0.0.1:3000/", {
      headers: {
        host: "acme.localhost",
        "x-forwarded-host": "First.localhost:8443, second.localhost, Third.localhost:8443",
      },
    });
    expect(hostnameFromRequest(three, proxied)).toBe("third.localhost");
  });

  it("with a trusted proxy whose last entry is empty falls back to the Host header", () => {
    const request = new Request("http://127.0.0.1:3000/", {
      headers: { host: "acme.localhost", "x-forwarded-host": "evil.example, " },
    });
    expect(hostnameFromRequest(request, proxied)).toBe("acme.localhost");
  });

  it("with a trusted proxy but no X-Forwarded-Host uses the Host header", () => {
    const request = new Request("http://127.0.0.1:3000/", { headers: { host: "acme.localhost:3000" } });
    expect(hostnameFromRequest(request, proxied)).toBe("acme.localhost");
  });

  it("returns null for a hostile Host header", () => {
    const request = new Request("http://127.0.0.1:3000/", { headers: { host: "evil.com/path" } });
    expect(hostnameFromRequest(request, direct)).toBeNull();
  });

  it("returns null for a hostile X-Forwarded-Host when the proxy is trusted (no fallback to Host)", () => {
    const request = new Request("http://127.0.0.1:3000/", {
      headers: { host: "acme.localhost", "x-forwarded-host": "acme.localhost, <script>" },
    });
    expect(hostnameFromRequest(request, proxied)).toBeNull();
    expect(hostnameFromRequest(request, direct)).toBe("acme.localhost");
  });
});
