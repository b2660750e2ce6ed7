import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { CROSS_ORIGIN_MARKER, markCrossOrigin } from "./request-guard.server";

const incoming = (method: string, headers: Record<string, string>) =>
  ({ method, headers: { ...headers } }) as unknown as IncomingMessage;

describe("markCrossOrigin", () => {
  it("marks a POST from another host and removes its Origin (so Remix does not answer 500)", () => {
    const request = incoming("POST", { host: "acme.localhost:3000", origin: "http://kiwi.localhost:3000" });
    markCrossOrigin(request, false);
    expect(request.headers.origin).toBeUndefined();
    expect(request.headers[CROSS_ORIGIN_MARKER]).toBe("1");
  });

  it.each(["null", "not a url", "http://acme.localhost:3001"])("marks Origin %j", (origin) => {
    const request = incoming("DELETE", { host: "acme.localhost:3000", origin });
    markCrossOrigin(request, false);
    expect(request.headers[CROSS_ORIGIN_MARKER]).toBe("1");
  });

  it("leaves same-origin POSTs and every GET alone", () => {
    const same = incoming("POST", { host: "acme.localhost:3000", origin: "http://acme.localhost:3000" });
    markCrossOrigin(same, false);
    expect(same.headers.origin).toBe("http://acme.localhost:3000");
    expect(same.headers[CROSS_ORIGIN_MARKER]).toBeUndefined();
    const get = incoming("GET", { host: "acme.localhost:3000", origin: "http://evil.example" });
    markCrossOrigin(get, false);
    expect(get.headers[CROSS_ORIGIN_MARKER]).toBeUndefined();
  });

  it("drops a marker the client sent itself", () => {
    const request = incoming("POST", { host: "acme.localhost:3000", [CROSS_ORIGIN_MARKER]: "0" });
    markCrossOrigin(request, false);
    expect(request.headers[CROSS_ORIGIN_MARKER]).toBeUndefined();
  });

  it("compares with X-Forwarded-Host only behind a trusted proxy", () => {
    const headers = { host: "internal:8080", "x-forwarded-host": "acme.example", origin: "https://acme.example" };
    const trusted = incoming("POST", headers);
    markCrossOrigin(trusted, true);
    expect(trusted.headers[CROSS_ORIGIN_MARKER]).toBeUndefined();
    const untrusted = incoming("POST", headers);
    markCrossOrigin(untrusted, false);
    expect(untrusted.headers[CROSS_ORIGIN_MARKER]).toBe("1");
  });

  it("behind a trusted proxy compares with the right-most X-Forwarded-Host, the one the proxy wrote (issue 28)", () => {
    // The client sent "X-Forwarded-Host: evil.example" and a proxy that appends added the real host.
    const attack = incoming("POST", {
      host: "internal:8080",
      "x-forwarded-host": "evil.example, acme.example",
      origin: "https://evil.example",
    });
    markCrossOrigin(attack, true);
    expect(attack.headers[CROSS_ORIGIN_MARKER]).toBe("1");
    expect(attack.headers.origin).toBeUndefined();
    const genuine = incoming("POST", {
      host: "internal:8080",
      "x-forwarded-host": "evil.example, acme.example",
      origin: "https://acme.example",
    });
    markCrossOrigin(genuine, true);
    expect(genuine.headers[CROSS_ORIGIN_MARKER]).toBeUndefined();
    expect(genuine.headers.origin).toBe("https://acme.example");
  });
});
