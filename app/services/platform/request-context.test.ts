import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTesting } from "./env.server";
import { logger } from "./logger.server";
import { clientAddress, isCrossOrigin, requestOrigin, resetProxyWarningForTesting } from "./request-context.server";
import { CLIENT_ADDRESS_HEADER } from "./request-log.server";

const saved = process.env.TRUST_PROXY;

function setTrustProxy(value: string) {
  process.env.TRUST_PROXY = value;
  resetEnvForTesting();
  resetProxyWarningForTesting();
}

const request = (headers: Record<string, string>) =>
  new Request("http://acme.localhost/", { headers: { host: "acme.localhost", ...headers } });

afterEach(() => {
  vi.restoreAllMocks();
  if (saved === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = saved;
  resetEnvForTesting();
});

describe("the client's address", () => {
  it("behind a trusted proxy is the address the proxy appended last", () => {
    setTrustProxy("true");
    expect(
      clientAddress(request({ "x-forwarded-for": "203.0.113.9, 198.51.100.7", [CLIENT_ADDRESS_HEADER]: "10.0.0.2" })),
    ).toBe("198.51.100.7");
  });

  it("without TRUST_PROXY is the TCP peer, and a forwarded header is a hint, said once", () => {
    setTrustProxy("false");
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const forwarded = request({ "x-forwarded-for": "203.0.113.9", [CLIENT_ADDRESS_HEADER]: "10.0.0.2" });
    expect(clientAddress(forwarded)).toBe("10.0.0.2");
    expect(clientAddress(forwarded)).toBe("10.0.0.2");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/TRUST_PROXY is off/);
  });

  it("without a forwarded header nothing is said", () => {
    setTrustProxy("false");
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: "127.0.0.1" }))).toBe("127.0.0.1");
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("the request's origin behind a trusted proxy (issue 28)", () => {
  it("is the right-most X-Forwarded-Host and -Proto, the ones the proxy wrote", () => {
    setTrustProxy("true");
    const appended = request({
      "x-forwarded-host": "evil.example, Acme.Example",
      "x-forwarded-proto": "http, https",
    });
    expect(requestOrigin(appended)).toBe("https://acme.example");
    // A client's own value on the left does not make a cross-site POST look same-origin.
    const crafted = new Request("http://acme.localhost/", {
      method: "POST",
      headers: {
        host: "acme.localhost",
        "x-forwarded-host": "evil.example, acme.example",
        origin: "https://evil.example",
      },
    });
    expect(isCrossOrigin(crafted)).toBe(true);
  });

  it("ignores the headers without TRUST_PROXY", () => {
    setTrustProxy("false");
    expect(requestOrigin(request({ "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }))).toBe(
      "http://acme.localhost",
    );
  });

  it("reads the address from the last entry only, falling back to the peer when it is empty", () => {
    setTrustProxy("true");
    expect(clientAddress(request({ "x-forwarded-for": "198.51.100.7, ", [CLIENT_ADDRESS_HEADER]: "10.0.0.2" }))).toBe(
      "10.0.0.2",
    );
  });
});
