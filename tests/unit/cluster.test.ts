import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import type { ConnectionOptions, TLSSocket } from "node:tls";
import { randomBytes } from "node:crypto";
import { JSDOM } from "jsdom";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { SIGN_IN_PER_ACCOUNT_AND_ADDRESS } from "../../app/services/platform/rate-limit.server";
import {
  createDatabaseIfMissing,
  prepareDatabase,
  startCluster,
  waitForHttp,
  type Cluster,
} from "../../scripts/cluster-lib";
import { TEST_DATABASE_URL } from "../support/test-db";

/**
 * Many processes (issue 18, decision 045), on PostgreSQL, with the real server build:
 * - scripts/serve.js drains on SIGTERM: readiness 503 at once, the request in flight finishes,
 *   new connections are refused once the listener closes, exit 0 within the bound;
 * - two processes behind the real HAProxy share a session, a rate-limit counter, a selected
 *   account and a half-finished payment, whichever process answers;
 * - HAProxy terminates TLS with the cluster's own certificate and speaks HTTP/2 (or HTTP/1.1) there,
 *   and the portal sees those requests as https (decision 083).
 * Needs the server build (built here when missing) and, for the second part, HAProxy and openssl
 * (required in CI, where .ci/run installs them). Ports: CLUSTER_TEST_PORT (default 4612) to +4.
 */
const PORT = Number(process.env.CLUSTER_TEST_PORT ?? 4612);
const PROXY_PORT = PORT + 1;
// The processes: BASE_PORT and BASE_PORT + 1.
const BASE_PORT = PORT + 2;
const TLS_PORT = PORT + 4;
const HAPROXY = process.env.HAPROXY || "/usr/sbin/haproxy";
const SECRET = "cluster-test-secret-cluster-test-secret-01";

let databaseUrl = "";
let databaseName = "";

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  if (!fs.existsSync("build/index.js")) {
    // A production build: Vitest runs with NODE_ENV=test, and a build made under it uses the
    // development JSX runtime, which the production server does not have ("jsxDEV is not a function").
    const built = spawnSync("npx", ["remix", "build"], {
      stdio: "ignore",
      timeout: 120_000,
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (built.status !== 0) throw new Error("`npx remix build` failed: the cluster tests need the server build");
  }
  databaseName = `portal_cluster_test_${randomBytes(4).toString("hex")}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  await createDatabaseIfMissing(databaseUrl);
  await prepareDatabase(databaseUrl, true, PROXY_PORT);
});

afterAll(async () => {
  if (!databaseName) return;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request on a new connection, with the Host (and Origin) a browser on the proxy's address sends. */
function send(
  target: string,
  options: {
    method?: string;
    host?: string;
    cookie?: string;
    form?: Record<string, string>;
    agent?: http.Agent;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const host = options.host ?? `acme.localhost:${PROXY_PORT}`;
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { host, ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (body !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers["content-length"] = String(Buffer.byteLength(body));
    headers.origin = `http://${host}`;
  }
  return new Promise((resolve, reject) => {
    const request = http.request(target, {
      method: options.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      agent: options.agent ?? false,
    });
    request.setTimeout(20_000, () => request.destroy(new Error(`no answer from ${target}`)));
    request.on("error", reject);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.end(body);
  });
}

/** One request on an HTTP/2 session: what a browser sends over the cluster's TLS listener. */
function sendH2(
  session: http2.ClientHttp2Session,
  path: string,
  options: { method?: string; cookie?: string; form?: Record<string, string>; origin?: string } = {},
): Promise<Answer> {
  const authority = `acme.localhost:${TLS_PORT}`;
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: http2.OutgoingHttpHeaders = {
    ":method": options.method ?? (body === undefined ? "GET" : "POST"),
    ":path": path,
    ":authority": authority,
    ":scheme": "https",
  };
  if (options.cookie) headers.cookie = options.cookie;
  if (body !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers.origin = options.origin ?? `https://${authority}`;
  }
  return new Promise((resolve, reject) => {
    const stream = session.request(headers);
    stream.setTimeout(20_000, () => stream.close(http2.constants.NGHTTP2_CANCEL));
    stream.on("error", reject);
    let status = 0;
    let answerHeaders: http.IncomingHttpHeaders = {};
    stream.on("response", (received) => {
      status = Number(received[":status"]);
      answerHeaders = received as http.IncomingHttpHeaders;
    });
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (text += chunk));
    stream.on("end", () => resolve({ status, headers: answerHeaders, body: text }));
    stream.on("close", () => {
      if (status === 0) reject(new Error(`no answer to ${path} over HTTP/2`));
    });
    stream.end(body);
  });
}

/** The session cookie a sign-in answer set, as a Cookie header. */
function cookieFrom(answer: Answer): string {
  return (answer.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!).join("; ");
}

function signIn(base: string, email: string, password: string) {
  return send(`${base}/auth/signin`, { form: { email, password, callbackUrl: "/" } });
}

/** What a reader sees of a page: its text without scripts (which carry every message's wording). */
function visibleText(html: string): string {
  const { document } = new JSDOM(html).window;
  for (const script of document.querySelectorAll("script")) script.remove();
  return document.body?.textContent ?? "";
}

/** Lines a child writes to stdout, and a way to wait (bounded) for one that matches. */
function watchOutput(child: ChildProcess) {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const parts = (rest + chunk.toString("utf8")).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  return {
    lines,
    waitFor(pattern: RegExp, timeoutMs = 10_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line like ${pattern} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}

/** Whether a TCP connection to the port is refused (the listener is closed). */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

describe.skipIf(!TEST_DATABASE_URL)("graceful shutdown of scripts/serve.js (SIGTERM)", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  it("says 503 at once, finishes the request in flight, refuses new connections, exits 0 in time", async () => {
    child = spawn(process.execPath, ["scripts/serve.js", "build/index.js"], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(PORT),
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: SECRET,
        SEED_DEMO_DATA: "false",
        DATA_DIR: `.tmp/cluster-test-serve-${PORT}`,
        LOG_LEVEL: "warn",
        // Long enough to ask for readiness on a new connection while draining.
        DRAIN_DELAY_MS: "3000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = watchOutput(child);
    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    const base = `http://127.0.0.1:${PORT}`;
    await waitForHttp(`${base}/ready`, 60_000);
    expect((await send(`${base}/ready`)).body).toBe(JSON.stringify({ status: "ready" }));

    // A sign-in whose form is still arriving: `Expect: 100-continue` tells us the server has the
    // request (Node answers 100 and hands it to the app in the same turn), and the body waits.
    const body = new URLSearchParams({
      email: "olivia@coastal.example",
      password: DEMO_PASSWORD,
      callbackUrl: "/",
    }).toString();
    const host = `acme.localhost:${PORT}`;
    const slow = http.request(`${base}/auth/signin`, {
      method: "POST",
      agent: false,
      headers: {
        host,
        origin: `http://${host}`,
        "content-type": "application/x-www-form-urlencoded",
        "content-length": String(Buffer.byteLength(body)),
        expect: "100-continue",
      },
    });
    const slowAnswer = new Promise<Answer>((resolve, reject) => {
      slow.on("error", reject);
      slow.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      });
    });
    await new Promise<void>((resolve) => slow.once("continue", resolve));
    slow.write(body.slice(0, 20));

    child.kill("SIGTERM");
    expect(await output.waitFor(/draining/)).toContain("draining (1 request(s) in flight)");

    // Readiness fails at once, and says so on every answer's connection.
    const ready = await send(`${base}/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: "draining" });
    expect(ready.headers.connection).toBe("close");

    // After the delay the listener closes, while the sign-in is still in flight: the server says so
    // once its listening socket is closed, and from then on a new connection is refused.
    await output.waitFor(/listener closed/);
    expect(await connectionRefused(PORT)).toBe(true);
    expect(child.exitCode).toBeNull();

    // The rest of the form arrives: the sign-in completes, on a connection that then closes.
    slow.end(body.slice(20));
    const answer = await slowAnswer;
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/");
    expect(cookieFrom(answer)).toMatch(/=/);
    expect(answer.headers.connection).toBe("close");

    // Exit 0 with "drained" is "in time": at its own bound (DRAIN_BOUND_MS) the server cuts what is left
    // and exits 1 instead, so no wall-clock check is needed here.
    expect(await exited).toBe(0);
    expect(output.lines.some((line) => /drained in \d+ ms/.test(line))).toBe(true);
  });
});

describe.skipIf(!TEST_DATABASE_URL || (!fs.existsSync(HAPROXY) && !process.env.CI))(
  "two processes on PostgreSQL behind HAProxy",
  () => {
    let cluster: Cluster;
    const proxy = `http://127.0.0.1:${PROXY_PORT}`;
    let p0 = "";
    let p1 = "";

    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        basePort: BASE_PORT,
        proxyPort: PROXY_PORT,
        tlsPort: TLS_PORT,
        databaseUrl,
        seed: false,
        env: { SESSION_SECRET: SECRET, LOG_LEVEL: "warn", SANDBOX_GATEWAY_DELAY_MS: "0" },
      });
      p0 = cluster.processes[0]!.url;
      p1 = cluster.processes[1]!.url;
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    /** Requests each process has answered through the proxy (HAProxy's own count). */
    async function served() {
      return cluster.serverSessions();
    }

    it("keeps a session whichever process answers, and the proxy alternates", async () => {
      const signedIn = await signIn(p0, "olivia@coastal.example", DEMO_PASSWORD);
      expect(signedIn.status).toBe(302);
      const cookie = cookieFrom(signedIn);
      const before = await served();
      for (const base of [p1, p0, proxy, proxy, proxy, proxy]) {
        const page = await send(`${base}/accounts`, { cookie });
        expect(page.status, base).toBe(200);
        expect(page.body).toContain("Coastal Builders Group");
      }
      const after = await served();
      expect(after.p0! - before.p0!).toBe(2);
      expect(after.p1! - before.p1!).toBe(2);
    });

    it("counts sign-in failures across processes: the limit holds though each process saw half", async () => {
      const email = "aroha@orchards.example";
      const host = `kiwi.localhost:${PROXY_PORT}`;
      const attempt = (base: string, password: string) =>
        send(`${base}/auth/signin`, { host, form: { email, password, callbackUrl: "/" } });
      for (let i = 0; i < SIGN_IN_PER_ACCOUNT_AND_ADDRESS.max; i++) {
        const failed = await attempt(i % 2 === 0 ? p0 : p1, "not-the-password");
        expect(failed.status).not.toBe(302);
        expect(visibleText(failed.body)).not.toContain("Too many attempts");
      }
      // The right password, now, through the proxy: refused by the shared counter.
      const locked = await attempt(proxy, DEMO_PASSWORD);
      expect(locked.status).not.toBe(302);
      expect(visibleText(locked.body)).toContain("Too many attempts");
      expect(locked.headers["set-cookie"] ?? []).toEqual([]);
    });

    it("keeps the selected account chosen on one process for the other", async () => {
      const cookie = cookieFrom(await signIn(proxy, "olivia@coastal.example", DEMO_PASSWORD));
      const first = await send(`${p1}/customer/invoices-and-payments/invoices`, { cookie });
      expect(first.body).toContain("ACME-1000-INV");
      const accounts = new JSDOM((await send(`${p1}/accounts`, { cookie })).body).window.document;
      const hillside = [...accounts.querySelectorAll<HTMLInputElement>('input[name="accountId"]')].find((input) =>
        input.closest("li")?.textContent?.includes("ACME-2000"),
      );
      expect(hillside, "the accounts page offers ACME-2000").toBeDefined();
      const chosen = await send(`${p0}/select-account`, {
        cookie,
        form: { accountId: hillside!.value, redirectTo: "/customer/invoices-and-payments/invoices" },
      });
      expect(chosen.status).toBe(302);
      const after = await send(`${p1}/customer/invoices-and-payments/invoices`, { cookie });
      expect(after.status).toBe(200);
      expect(after.body).toContain("ACME-2000-INV");
      expect(after.body).not.toContain("ACME-1000-INV");
    });

    it("drains one process under traffic without a failed request, and takes it back after a restart", async () => {
      const cookie = cookieFrom(await signIn(proxy, "olivia@coastal.example", DEMO_PASSWORD));
      // Kept-alive connections to the proxy, as browsers hold them.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      const statuses: number[] = [];
      let running = true;
      const loops = Array.from({ length: 4 }, async () => {
        while (running) statuses.push((await send(`${proxy}/accounts`, { cookie, agent })).status);
      });
      const p1Process = cluster.processes[1]!;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exit = await p1Process.kill("SIGTERM");
      await cluster.waitForState("p1", "DOWN");
      await new Promise((resolve) => setTimeout(resolve, 500));
      running = false;
      await Promise.all(loops);
      agent.destroy();
      expect(exit).toEqual({ code: 0, signal: null });
      expect(statuses.length).toBeGreaterThan(8);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);

      await p1Process.restart();
      const before = await cluster.serverSessions();
      for (let i = 0; i < 4; i++) expect((await send(`${proxy}/accounts`, { cookie })).status).toBe(200);
      const after = await cluster.serverSessions();
      expect(after.p1! - before.p1!).toBe(2);
    });

    it("takes a payment whose form came from one process and whose post goes to the other, once", async () => {
      const cookie = cookieFrom(await signIn(proxy, "olivia@coastal.example", DEMO_PASSWORD));
      const list = new JSDOM((await send(`${p0}/customer/invoices-and-payments/invoices`, { cookie })).body).window
        .document;
      const invoice = list.querySelector<HTMLInputElement>(
        'form[action="/customer/invoices-and-payments/pay"] input[name="invoice"]',
      );
      expect(invoice, "an invoice to pay").not.toBeNull();
      const page = await send(`${p0}/customer/invoices-and-payments/pay?invoice=${invoice!.value}`, { cookie });
      expect(page.status).toBe(200);
      const { window } = new JSDOM(page.body);
      const form = window.document.querySelector<HTMLFormElement>('form:has(input[name="requestGuid"])')!;
      const payLink = form.getAttribute("action")!;
      const fields: Record<string, string> = {};
      for (const [name, value] of new window.FormData(form)) fields[name] = String(value);
      fields.intent = "pay";
      const requestGuid = fields.requestGuid!;
      expect(requestGuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(fields.expectedAmount).toMatch(/^\d+$/);

      const paid = await send(`${p1}${payLink}`, { cookie, form: fields });
      expect(paid.status, visibleText(paid.body).slice(0, 500)).toBe(302);
      expect(paid.headers.location).toMatch(/^\/payment\/complete\//);
      // The same post again (a retry, a double click) on the first process: the same payment.
      const again = await send(`${p0}${payLink}`, { cookie, form: fields });
      expect(again.status).toBe(302);
      expect(again.headers.location).toBe(paid.headers.location);

      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const payments = await db.query("SELECT status, gateway_charge_id FROM payments WHERE request_guid = $1", [
          requestGuid,
        ]);
        expect(payments.rows).toHaveLength(1);
        const charges = await db.query("SELECT count(*)::int AS n FROM sandbox_gateway_charges WHERE id = $1", [
          payments.rows[0].gateway_charge_id,
        ]);
        expect(charges.rows[0].n).toBe(1);
      } finally {
        await db.end();
      }
    });

    it("speaks HTTP/2 over TLS with its own certificate, and the portal sees https: Secure cookies, https Origin", async () => {
      const tls = cluster.tls!;
      expect(tls.port).toBe(TLS_PORT);
      // The certificate as the only CA, checked for the tenant's name: a listener that presented
      // another certificate, or one without acme.localhost, would fail to connect here.
      const session = http2.connect(`https://127.0.0.1:${TLS_PORT}`, {
        ca: fs.readFileSync(tls.certificate.certPath),
        servername: "acme.localhost",
      });
      try {
        await new Promise<void>((resolve, reject) => {
          session.once("connect", () => resolve());
          session.once("error", reject);
        });
        expect(session.alpnProtocol).toBe("h2");
        expect((session.socket as TLSSocket).authorized).toBe(true);

        const before = await served();
        const signInPage = await sendH2(session, "/auth/signin");
        expect(signInPage.status).toBe(200);
        // HSTS only when the portal believes the request came over https (X-Forwarded-Proto from HAProxy).
        expect(signInPage.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");

        const form = { email: "olivia@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/" };
        // An Origin of the same host over http is another origin: the scheme is part of it.
        const otherScheme = await sendH2(session, "/auth/signin", {
          form,
          origin: `http://acme.localhost:${TLS_PORT}`,
        });
        expect(otherScheme.status).toBe(403);
        expect(otherScheme.headers["set-cookie"] ?? []).toEqual([]);

        const signedIn = await sendH2(session, "/auth/signin", { form });
        expect(signedIn.status).toBe(302);
        const setCookie = (signedIn.headers["set-cookie"] ?? []) as string[];
        const sessionCookie = setCookie.find((line) => line.startsWith("__Host-portal_session="));
        expect(sessionCookie, setCookie.join("\n")).toBeDefined();
        expect(sessionCookie).toMatch(/;\s*Secure/i);
        expect(sessionCookie).toMatch(/;\s*HttpOnly/i);

        // Several requests on the one connection, spread over both processes by the proxy.
        const pages = await Promise.all(
          Array.from({ length: 4 }, () => sendH2(session, "/accounts", { cookie: cookieFrom(signedIn) })),
        );
        for (const page of pages) {
          expect(page.status).toBe(200);
          expect(page.body).toContain("Coastal Builders Group");
        }
        const after = await served();
        expect(after.p0! - before.p0!).toBeGreaterThan(0);
        expect(after.p1! - before.p1!).toBeGreaterThan(0);
      } finally {
        session.close();
      }
    });

    it("answers HTTP/1.1 over TLS to a client that does not offer HTTP/2", async () => {
      const ca = fs.readFileSync(cluster.tls!.certificate.certPath);
      const host = `acme.localhost:${TLS_PORT}`;
      const body = new URLSearchParams({
        email: "olivia@coastal.example",
        password: DEMO_PASSWORD,
        callbackUrl: "/",
      }).toString();
      const answer = await new Promise<Answer & { protocol: string | false | null }>((resolve, reject) => {
        // Offering only http/1.1 by ALPN, as a client without HTTP/2 does (Node passes it on to tls.connect).
        const options: https.RequestOptions & ConnectionOptions = {
          host: "127.0.0.1",
          port: TLS_PORT,
          path: "/auth/signin",
          method: "POST",
          servername: "acme.localhost",
          ca,
          agent: false,
          ALPNProtocols: ["http/1.1"],
          headers: {
            host,
            origin: `https://${host}`,
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(Buffer.byteLength(body)),
          },
        };
        const request = https.request(options);
        request.setTimeout(20_000, () => request.destroy(new Error("no answer over HTTP/1.1 and TLS")));
        request.on("error", reject);
        request.on("response", (response) => {
          const protocol = (response.socket as TLSSocket).alpnProtocol;
          response.resume();
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: "", protocol }),
          );
        });
        request.end(body);
      });
      expect(answer.protocol).toBe("http/1.1");
      expect(answer.status).toBe(302);
      expect(answer.headers["set-cookie"]?.find((line) => line.startsWith("__Host-portal_session="))).toMatch(
        /;\s*Secure/i,
      );
    });

    it("sets X-Forwarded-Proto itself on the plain listener: a client saying https there is not believed", async () => {
      const answer = await send(`${proxy}/auth/signin`, {
        form: { email: "olivia@coastal.example", password: DEMO_PASSWORD, callbackUrl: "/" },
        headers: { "x-forwarded-proto": "https" },
      });
      expect(answer.status).toBe(302);
      const cookies = answer.headers["set-cookie"] ?? [];
      expect(cookies.find((line) => line.startsWith("portal_session="))).not.toMatch(/Secure/i);
      expect(cookies.some((line) => line.startsWith("__Host-"))).toBe(false);
      expect(answer.headers["strict-transport-security"]).toBeUndefined();
    });

    // Last: it stops both processes.
    it("answers a plain 503 page of its own when no process is ready", async () => {
      await Promise.all(cluster.processes.map((portal) => portal.kill("SIGTERM")));
      await cluster.waitForState("p0", "DOWN");
      await cluster.waitForState("p1", "DOWN");
      const answer = await send(`${proxy}/accounts`);
      expect(answer.status).toBe(503);
      expect(answer.headers["retry-after"]).toBe("30");
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(visibleText(answer.body)).toContain("Nothing was changed. Please try again in a minute.");
    });
  },
);
