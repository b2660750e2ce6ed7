import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "./logger.server";
import { installRequestLogging, LOG_PATH, REQUEST_ID_HEADER } from "./request-log.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Line = { line: string; level: string };
const lines: Line[] = [];

type RequestEntry = {
  time: string;
  level: string;
  msg: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  host?: string;
};

const requestEntries = () =>
  lines.map(({ line }) => JSON.parse(line) as RequestEntry).filter((entry) => entry.msg === "request");

let server: http.Server;
/** The path the request log left on each request, as the handler saw it. */
const seenLogPaths: string[] = [];
let base: string;

beforeAll(async () => {
  // Installation is once per process (a global symbol), so install here with the capturing logger.
  installRequestLogging(createLogger({ level: "debug", sink: (line, level) => lines.push({ line, level }) }));

  server = http.createServer((req, res) => {
    const seen = req.headers[REQUEST_ID_HEADER];
    seenLogPaths.push((req as unknown as Record<symbol, string>)[LOG_PATH] ?? "");
    // Never answered: the client gives up (the aborted-request case).
    if (req.url?.startsWith("/hang")) return;
    const status = req.url?.startsWith("/fail") ? 500 : req.url?.startsWith("/missing") ? 404 : 201;
    res.writeHead(status, {
      "content-type": "application/json",
      connection: "close",
      ...(req.headers["x-test-set-cookie"] ? { "set-cookie": "portal_session=secret-set-cookie; HttpOnly" } : {}),
    });
    res.end(JSON.stringify({ seen }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  lines.length = 0;
});

/** Waits until `count` request lines are captured (the finish event can trail the client's read). */
async function waitForEntries(count: number) {
  const deadline = Date.now() + 5_000;
  while (requestEntries().length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return requestEntries();
}

async function call(pathAndQuery: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${pathAndQuery}`, init);
  const body = (await response.json()) as { seen?: string };
  return { response, body };
}

describe("installRequestLogging", () => {
  it("leaves the proxy's readiness checks out of the log, and logs the next request", async () => {
    await call("/ready");
    await call("/ready?probe=1");
    await call("/readiness-is-not-ready");
    const entries = await waitForEntries(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestEntries()).toHaveLength(1);
    expect(entries[0]!.path).toBe("/readiness-is-not-ready");
  });

  it("logs one line per request with method, path, status, duration and a fresh request id", async () => {
    const { response, body } = await call("/accounts/123?token=secret&x=1", {
      headers: { [REQUEST_ID_HEADER]: "attacker" },
    });
    expect(response.status).toBe(201);

    const entries = await waitForEntries(1);
    // Give a stray duplicate a moment to show up before asserting "exactly one".
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestEntries()).toHaveLength(1);
    const entry = entries[0]!;

    expect(entry.level).toBe("info");
    expect(entry.method).toBe("GET");
    expect(entry.path).toBe("/accounts/123");
    expect(entry.status).toBe(201);
    expect(typeof entry.durationMs).toBe("number");
    expect(Number.isFinite(entry.durationMs)).toBe(true);
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(entry.host).toBe(new URL(base).host);
    expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // The client's id is replaced by a server-generated uuid, seen by the handler and echoed.
    expect(entry.requestId).toMatch(UUID);
    expect(entry.requestId).not.toBe("attacker");
    expect(response.headers.get("x-request-id")).toBe(entry.requestId);
    expect(body.seen).toBe(entry.requestId);
  });

  it("never logs the query string", async () => {
    await call("/reset-password?token=secret-one-time-token");
    const [entry] = await waitForEntries(1);
    expect(entry!.path).toBe("/reset-password");
    expect(lines.map((l) => l.line).join("\n")).not.toContain("secret-one-time-token");
  });

  it("cuts an emailed link's token to six characters, in the line and in the path left on the request", async () => {
    const token = "AbCdEf0123456789ghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU_-";
    seenLogPaths.length = 0;
    await call(`/customer/payment-request/${token}/invoice/42?x=${token}`);
    await call(`/customer/invoices-and-payments/${token}.data`);
    await call("/customer/invoices-and-payments/invoices?page=2");
    const entries = await waitForEntries(3);
    expect(entries.map((e) => e.path).sort()).toEqual([
      "/customer/invoices-and-payments/AbCdEf….data",
      "/customer/invoices-and-payments/invoices",
      "/customer/payment-request/AbCdEf…/invoice/42",
    ]);
    const written = lines.map((l) => l.line).join("\n");
    expect(written).not.toContain(token.slice(0, 7));
    // The line's path is the one worked out when the request started.
    expect(seenLogPaths.sort()).toEqual(entries.map((e) => e.path).sort());
  });

  it("writes no authorization, cookie, set-cookie or query value into the line", async () => {
    const token = "AbCdEf0123456789ghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU_-";
    const { response } = await call(`/customer/payment-request/${token}?cardNumber=4111111111111111&cvn=secret-cvn`, {
      headers: {
        authorization: "Bearer secret-bearer",
        cookie: "portal_session=secret-cookie",
        "x-test-set-cookie": "1",
      },
    });
    expect(response.headers.get("set-cookie")).toContain("secret-set-cookie");
    const [entry] = await waitForEntries(1);
    expect(entry!.path).toBe("/customer/payment-request/AbCdEf…");
    const written = lines.map((l) => l.line).join("\n");
    for (const secret of ["secret-bearer", "secret-cookie", "secret-set-cookie", "4111111111111111", "secret-cvn"]) {
      expect(written).not.toContain(secret);
    }
    expect(written).not.toContain(token.slice(0, 7));
  });

  it("writes exactly the request line's fields, nothing of the request or response objects", async () => {
    await call("/fields");
    const [entry] = await waitForEntries(1);
    expect(Object.keys(entry!).sort()).toEqual(
      ["durationMs", "host", "level", "method", "msg", "path", "requestId", "status", "time"].sort(),
    );
  });

  it("logs a request the client gave up on once, marked aborted", async () => {
    const controller = new AbortController();
    seenLogPaths.length = 0;
    const pending = fetch(`${base}/hang?token=secret`, { signal: controller.signal }).catch(() => undefined);
    // Abort once the server has the request in hand.
    const deadline = Date.now() + 5_000;
    while (!seenLogPaths.includes("/hang") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    await pending;
    const [entry] = await waitForEntries(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestEntries()).toHaveLength(1);
    expect(entry).toMatchObject({ path: "/hang", aborted: true });
  });

  it("gives a request id even when the client sends none", async () => {
    const { response, body } = await call("/");
    const [entry] = await waitForEntries(1);
    expect(entry!.requestId).toMatch(UUID);
    expect(response.headers.get("x-request-id")).toBe(entry!.requestId);
    expect(body.seen).toBe(entry!.requestId);
  });

  it("logs the method of non-GET requests", async () => {
    await call("/forms/submit", { method: "POST", body: "a=1", headers: { "content-type": "text/plain" } });
    const [entry] = await waitForEntries(1);
    expect(entry!.method).toBe("POST");
    expect(entry!.path).toBe("/forms/submit");
  });

  it("gives each request its own id and its own line", async () => {
    const results = await Promise.all([call("/one"), call("/two"), call("/three")]);
    const entries = await waitForEntries(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestEntries()).toHaveLength(3);
    expect(entries.map((e) => e.path).sort()).toEqual(["/one", "/three", "/two"]);
    const ids = entries.map((e) => e.requestId);
    expect(new Set(ids).size).toBe(3);
    for (const { response, body } of results) {
      expect(ids).toContain(response.headers.get("x-request-id"));
      expect(body.seen).toBe(response.headers.get("x-request-id"));
    }
  });

  it("logs a 4xx response at level info", async () => {
    const { response } = await call("/missing");
    expect(response.status).toBe(404);
    const [entry] = await waitForEntries(1);
    expect(entry!.status).toBe(404);
    expect(entry!.level).toBe("info");
  });

  it("logs a 500 response at level error", async () => {
    const { response } = await call("/fail?token=secret");
    expect(response.status).toBe(500);
    const [entry] = await waitForEntries(1);
    expect(entry!.status).toBe(500);
    expect(entry!.level).toBe("error");
    expect(entry!.path).toBe("/fail");
    expect(lines.find((l) => l.line.includes('"request"'))!.level).toBe("error");
  });

  it("installing again is a no-op (no duplicate lines, no second logger)", async () => {
    const other: string[] = [];
    installRequestLogging(createLogger({ level: "debug", sink: (line) => other.push(line) }));
    await call("/again");
    await waitForEntries(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestEntries()).toHaveLength(1);
    expect(other).toEqual([]);
  });
});
