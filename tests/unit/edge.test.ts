import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientError, answerConnect, edgeGuard, edgeRefusal, MAX_BODY_BYTES } from "../../scripts/edge.js";

/**
 * The front door of scripts/serve.js over real HTTP: a real Node server with the same
 * middleware, and behind it a stand-in app that records what reached it.
 */
let server: http.Server;
let port: number;
const reached: string[] = [];

beforeAll(async () => {
  // scripts/serve.js mounts the guard first in Express; a bare server calls it the same way.
  server = http.createServer((req, res) =>
    edgeGuard(req, res, () => {
      reached.push(`${req.method} ${req.url}`);
      // Like an action that answers before reading the body (a redirect, a capped reader's 413).
      if (req.url === "/early") {
        res.writeHead(302, { Location: "/" }).end();
        return;
      }
      // Like Remix's body stream giving up after its cap: it read some, then stopped reading.
      if (req.url === "/read-some") {
        req.once("data", () => {
          req.pause();
          res.writeHead(413).end();
        });
        return;
      }
      res.end("passed");
    }),
  );
  server.listen(0, "127.0.0.1");
  server.on("connect", answerConnect);
  server.on("clientError", answerClientError);
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A raw exchange: what the server sends back for these bytes, up to its closing the connection. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

function request(options: http.RequestOptions & { body?: string }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, ...options }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("methods the Fetch API refuses", () => {
  it("TRACE is a 405 with Allow, and never reaches the app", async () => {
    const before = reached.length;
    const answer = await request({ method: "TRACE", path: "/payment-methods" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(answer.body).toContain("Method not allowed");
    expect(reached.length).toBe(before);
  });

  it("TRACK (a method Node's parser does not know) is a 405 too", async () => {
    const answer = await raw("TRACK / HTTP/1.1\r\nHost: acme.localhost\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toContain("Allow: GET, HEAD, POST");
  });

  it("CONNECT is a 405 too", async () => {
    const answer = await raw("CONNECT acme.localhost:443 HTTP/1.1\r\nHost: acme.localhost:443\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  });

  it("other malformed requests keep Node's own answer", async () => {
    expect(await raw("GET / HTTP/1.1\r\nBad Header Line\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it("ordinary methods go through", async () => {
    expect((await request({ method: "GET", path: "/ok" })).body).toBe("passed");
    expect(edgeRefusal("OPTIONS", "/", {})).toBeNull();
  });
});

describe("control characters in the address", () => {
  it("a page's query string with U+0000: a 400 page that says why", async () => {
    const answer = await request({ method: "GET", path: "/accounts?q=a%00b" });
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    expect(answer.body).toContain("control characters");
  });

  it("a path with an encoded U+0000 beside a malformed escape: still a 400", async () => {
    const answer = await request({ method: "GET", path: "/a/%00%ZZ" });
    expect(answer.status).toBe(400);
  });

  it("the API: a 400 with a JSON message", async () => {
    const answer = await request({ method: "GET", path: "/api/sample/accounts-search?skip=0&take=1&q=%01" });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/control characters/),
    });
  });

  it("tabs and line breaks in a value are not refused here", async () => {
    expect((await request({ method: "GET", path: "/ok?note=a%0D%0Ab%09c" })).status).toBe(200);
  });
});

describe("bodies", () => {
  it("a declared length over 64 KB is a 413 at once, without the body being sent", async () => {
    // "At once" is the outcome: the request is never finished (7 bytes of the declared 64 KB + 1 are
    // sent), so an answer can only come from the edge refusing it before the body. Were it to wait for
    // the body instead, the test's time-out would fail it.
    const before = reached.length;
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/auth/signin",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": MAX_BODY_BYTES + 1 },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.write("email=a");
    });
    expect(answer).toBe(413);
    expect(reached.length).toBe(before);
  });

  it("an answer given before a chunked body ends reaches the client (no connection reset)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/early",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on("error", reject);
      for (let i = 0; i < 20; i++) req.write(`a=${"x".repeat(8190)}`);
    });
    expect(status).toBe(302);
  });

  it("after a capped read, the rest is drained and the connection serves the next request", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, agent, method: "POST", path: "/read-some" });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        req.on("error", reject);
        for (let i = 0; i < 20; i++) req.write("x".repeat(8192));
        req.end();
      });
      expect(first).toBe(413);
      const second = await request({ method: "GET", path: "/ok", agent });
      expect(second.body).toBe("passed");
    } finally {
      agent.destroy();
    }
  });
});
