/**
 * Several portal processes on one PostgreSQL behind a real HAProxy (issue 18, decision 045):
 * `npm run cluster`, the cluster tests and the resilience benchmark all start one through
 * `startCluster`. Everything listens on 127.0.0.1; every wait has a bound; children are
 * killed when this process exits, however it exits.
 *
 * Needs a server build (`npm run build`) and HAProxy (Debian's package: /usr/sbin/haproxy, or
 * HAPROXY=<path>); with `tlsPort`, openssl too (the local certificate: scripts/cluster-tls.ts,
 * decision 083).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openPostgres } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";
import { demoPublicBaseUrl, seedDemoData } from "../db/seed/demo";
import { ensureClusterCertificate, type ClusterCertificate } from "./cluster-tls";
import { heapLimitArgs } from "./heap-limit.js";

/** The readiness path HAProxy checks (scripts/serve.js answers it for any Host). */
export const READY_PATH = "/ready";

export type ClusterOptions = {
  /** How many portal processes (default 2). */
  processes?: number;
  /** Process i listens on basePort + i. */
  basePort: number;
  /** HAProxy's plain-HTTP port (HTTP/1.1): the tests', the e2e journey's and the resilience run's address. */
  proxyPort: number;
  /**
   * HAProxy's TLS port, if any (decision 083): HTTP/2 or HTTP/1.1 by ALPN, with the local self-signed
   * certificate kept in `<dataDir>/tls` (made on first start). Browsers speak HTTP/2 only over TLS.
   * With it, the seeded demo hosts' links point at https://<host>:<tlsPort>.
   */
  tlsPort?: number;
  /** postgres://… of the portal's database; created when missing, then migrated and seeded. */
  databaseUrl: string;
  /** Extra environment for every process (after the process's own environment). */
  env?: Record<string, string | undefined>;
  /** The server build (default ./build/index.js). */
  buildPath?: string;
  /** Seed the demo hosts, with links pointing at the proxy (default true). */
  seed?: boolean;
  /** The processes' shared DATA_DIR (mail outbox, documents); default: in the cluster's temp folder. */
  dataDir?: string;
  /** Each line a process or HAProxy writes, e.g. to print it; always kept in `<name>.log` as well. */
  onOutput?: (name: string, line: string) => void;
  /** How long a process or the proxy may take to become ready (default 60 s). */
  readyTimeoutMs?: number;
  /** HAProxy's health-check interval (default 1 s); a server is down after 2 failed checks. */
  checkIntervalMs?: number;
  /** The HAProxy binary (default $HAPROXY or /usr/sbin/haproxy). */
  haproxyPath?: string;
};

export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

export type PortalProcess = {
  /** HAProxy's name for it: p0, p1, … */
  name: string;
  port: number;
  /** http://127.0.0.1:<port>: the process itself, past the proxy. */
  url: string;
  /** The current child's pid (changes on restart). */
  readonly pid: number;
  readonly logPath: string;
  /** Whether the current child is still running. */
  readonly running: boolean;
  /** Sends a signal (default SIGTERM) and resolves when the child has exited. */
  kill(signal?: NodeJS.Signals): Promise<ExitStatus>;
  /** The current child's exit (resolves once it has exited). */
  readonly exited: Promise<ExitStatus>;
  /** Starts the process again on its port (after kill), and waits until HAProxy has it UP. */
  restart(): Promise<void>;
};

export type Cluster = {
  /** http://127.0.0.1:<proxyPort>: through HAProxy, plain HTTP/1.1. */
  url: string;
  proxyPort: number;
  /** With `tlsPort`: HAProxy's TLS listener and the certificate it presents. */
  tls?: {
    port: number;
    /** https://127.0.0.1:<tlsPort> */
    url: string;
    certificate: ClusterCertificate;
  };
  databaseUrl: string;
  processes: PortalProcess[];
  haproxy: { readonly pid: number; configPath: string; logPath: string };
  /** The folder holding the HAProxy config, its admin socket and every log. */
  dir: string;
  /** HAProxy's view of each process: UP, DOWN, MAINT, … (its stats socket). */
  serverStates(): Promise<Record<string, string>>;
  /** How many requests HAProxy has sent each process so far (its `stot`). */
  serverSessions(): Promise<Record<string, number>>;
  /** Waits (bounded) until HAProxy reports this process in this state. */
  waitForState(name: string, state: "UP" | "DOWN", timeoutMs?: number): Promise<void>;
  /** Drains every process (SIGTERM, then SIGKILL after 30 s), stops HAProxy, removes temp files. */
  stop(): Promise<void>;
};

const HAPROXY = process.env.HAPROXY || "/usr/sbin/haproxy";
const STOP_BOUND_MS = 30_000;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.processes ?? 2;
  if (!Number.isInteger(count) || count < 1 || count > 32) throw new Error("processes must be 1 to 32");
  const haproxyPath = options.haproxyPath ?? HAPROXY;
  if (!fs.existsSync(haproxyPath)) {
    throw new Error(`HAProxy was not found at ${haproxyPath}: install it (apt-get install haproxy) or set HAPROXY`);
  }
  const buildPath = path.resolve(options.buildPath ?? "./build/index.js");
  if (!fs.existsSync(buildPath)) throw new Error(`no server build at ${buildPath}: run \`npm run build\` first`);
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const checkIntervalMs = options.checkIntervalMs ?? 1_000;

  await createDatabaseIfMissing(options.databaseUrl);
  const publicBase = options.tlsPort
    ? { scheme: "https" as const, port: options.tlsPort }
    : { scheme: "http" as const, port: options.proxyPort };
  await prepareDatabase(options.databaseUrl, options.seed ?? true, publicBase.port, publicBase.scheme);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-cluster-${options.proxyPort}-`));
  const dataDir = path.resolve(options.dataDir ?? path.join(dir, "data"));
  fs.mkdirSync(dataDir, { recursive: true });
  // Made before any process starts: a missing openssl stops the launch with nothing to clean up.
  const certificate = options.tlsPort
    ? ensureClusterCertificate(path.join(dataDir, "tls"), await localHostnames(options.databaseUrl))
    : undefined;
  const children = new Set<ChildProcess>();
  // However this process ends, no portal process or proxy is left behind on its port.
  const killAll = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  process.once("exit", killAll);

  // Every process shares the session secret (a cookie signed by one is read by another) and the
  // data folder (the mail outbox, credit documents on the filesystem adapter).
  const sessionSecret = options.env?.SESSION_SECRET ?? process.env.SESSION_SECRET ?? sharedSecret(dataDir);
  const childEnv: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...options.env })) {
    if (value !== undefined) childEnv[key] = value;
  }
  Object.assign(childEnv, {
    NODE_ENV: options.env?.NODE_ENV ?? "production",
    HOST: "127.0.0.1",
    DATABASE_URL: options.databaseUrl,
    TRUST_PROXY: "true",
    SESSION_SECRET: sessionSecret,
    SEED_DEMO_DATA: "false",
    DATA_DIR: dataDir,
    // Readiness says 503 for two health checks before the listener closes: HAProxy stops sending first.
    DRAIN_DELAY_MS: options.env?.DRAIN_DELAY_MS ?? String(Math.min(checkIntervalMs * CHECK_FALL + 500, 10_000)),
  });
  // The e2e suite's clock is refused behind a proxy (env.server.ts).
  delete childEnv.PORTAL_TEST_CLOCK;
  // The heap limit on Node's command line (decision 058): serve.js then runs as the process itself,
  // so `kill` and the pid reach the server, not a go-between. (A wrong PORTAL_MAX_HEAP_MB throws here.)
  const serveArgs = [...heapLimitArgs(childEnv), "scripts/serve.js", buildPath];

  function spawnLogged(name: string, command: string, args: string[], env: Record<string, string | undefined>) {
    const logPath = path.join(dir, `${name}.log`);
    const log = fs.createWriteStream(logPath, { flags: "a" });
    // Its own process group: a terminal's Ctrl-C reaches only the launcher, which drains the
    // processes in order (a second signal would cut a process's drain short).
    const child: ChildProcess = spawn(command, args, {
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    children.add(child);
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = "";
      stream.on("data", (chunk: Buffer) => {
        log.write(chunk);
        if (!options.onOutput) return;
        const lines = (rest + chunk.toString("utf8")).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) options.onOutput(name, line);
      });
    }
    const exited = new Promise<ExitStatus>((resolve) => {
      child.once("exit", (code, signal) => {
        children.delete(child);
        resolve({ code, signal });
      });
    });
    void exited.then(() => log.end());
    return { child, exited, logPath };
  }

  let proxy: ReturnType<typeof spawnLogged> | undefined;
  const socketPath = path.join(dir, "admin.sock");

  /** One column of HAProxy's statistics for each process (`show stat`, servers of the backend). */
  async function serverColumn(column: string): Promise<Record<string, string>> {
    const csv = await adminCommand(socketPath, "show stat -1 4 -1");
    const values: Record<string, string> = {};
    const [header, ...rows] = csv.split("\n").filter(Boolean);
    const columns = (header ?? "").replace(/^# /, "").split(",");
    const svname = columns.indexOf("svname");
    const wanted = columns.indexOf(column);
    for (const row of rows) {
      const fields = row.split(",");
      if (fields[0] === "portal") values[fields[svname]!] = fields[wanted]!;
    }
    return values;
  }

  const serverStates = () => serverColumn("status");

  async function serverSessions(): Promise<Record<string, number>> {
    const totals = await serverColumn("stot");
    return Object.fromEntries(Object.entries(totals).map(([name, value]) => [name, Number(value)]));
  }

  async function waitForState(name: string, state: "UP" | "DOWN", timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      last = (await serverStates().catch(() => ({}) as Record<string, string>))[name] ?? "";
      // "UP 1/2" (coming up) and "DOWN 1/2" (going down) are not there yet.
      if (last === state) return;
      await delay(100);
    }
    throw new Error(`HAProxy did not report ${name} ${state} within ${timeoutMs} ms (last: ${last || "unknown"})`);
  }

  function startProcess(index: number): PortalProcess {
    const name = `p${index}`;
    const port = options.basePort + index;
    let current = spawnLogged(name, process.execPath, serveArgs, {
      ...childEnv,
      PORT: String(port),
    });
    const handle: PortalProcess = {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      get pid() {
        return current.child.pid ?? -1;
      },
      get logPath() {
        return current.logPath;
      },
      get running() {
        return current.child.exitCode === null && current.child.signalCode === null;
      },
      get exited() {
        return current.exited;
      },
      async kill(signal: NodeJS.Signals = "SIGTERM") {
        if (handle.running) current.child.kill(signal);
        return current.exited;
      },
      async restart() {
        if (handle.running) throw new Error(`${name} is still running: kill it first`);
        current = spawnLogged(name, process.execPath, serveArgs, {
          ...childEnv,
          PORT: String(port),
        });
        await waitUntilReady(handle, readyTimeoutMs);
        if (proxy) await waitForState(name, "UP", readyTimeoutMs);
      },
    };
    return handle;
  }

  async function stop() {
    process.removeListener("exit", killAll);
    await Promise.all(
      processes.map(async (portal) => {
        if (!portal.running) return;
        const timer = setTimeout(() => void portal.kill("SIGKILL"), STOP_BOUND_MS);
        await portal.kill("SIGTERM");
        clearTimeout(timer);
      }),
    );
    if (proxy && proxy.child.exitCode === null && proxy.child.signalCode === null) {
      proxy.child.kill("SIGTERM");
      const timer = setTimeout(() => proxy?.child.kill("SIGKILL"), 5_000);
      await proxy.exited;
      clearTimeout(timer);
    }
    fs.rmSync(path.join(dir, "admin.sock"), { force: true });
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const processes: PortalProcess[] = [];
  try {
    for (let index = 0; index < count; index++) processes.push(startProcess(index));
    await Promise.all(processes.map((portal) => waitUntilReady(portal, readyTimeoutMs)));

    const configPath = path.join(dir, "haproxy.cfg");
    const errorPagePath = path.join(dir, "503.http");
    fs.writeFileSync(errorPagePath, UNAVAILABLE_PAGE);
    fs.writeFileSync(
      configPath,
      haproxyConfig({
        proxyPort: options.proxyPort,
        ports: processes.map((p) => p.port),
        socketPath,
        checkIntervalMs,
        errorPagePath,
        tls: options.tlsPort && certificate ? { port: options.tlsPort, pemPath: certificate.pemPath } : undefined,
      }),
    );
    proxy = spawnLogged("haproxy", haproxyPath, ["-db", "-f", configPath], {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    });
    const started = proxy;
    await Promise.race([
      Promise.all(processes.map((portal) => waitForState(portal.name, "UP", readyTimeoutMs))),
      started.exited.then((status) => {
        throw new Error(`HAProxy exited (${status.code ?? status.signal}): ${tail(started.logPath)}`);
      }),
    ]);
    await waitForHttp(`http://127.0.0.1:${options.proxyPort}${READY_PATH}`, readyTimeoutMs);
    if (options.tlsPort && certificate) await waitForTls(options.tlsPort, certificate.certPath, readyTimeoutMs);
  } catch (error) {
    await stop().catch(() => {});
    killAll();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${options.proxyPort}`,
    proxyPort: options.proxyPort,
    tls:
      options.tlsPort && certificate
        ? { port: options.tlsPort, url: `https://127.0.0.1:${options.tlsPort}`, certificate }
        : undefined,
    databaseUrl: options.databaseUrl,
    processes,
    haproxy: {
      get pid() {
        return proxy?.child.pid ?? -1;
      },
      configPath: path.join(dir, "haproxy.cfg"),
      logPath: path.join(dir, "haproxy.log"),
    },
    dir,
    serverStates,
    serverSessions,
    waitForState,
    stop,
  };
}

/**
 * The proxy in front of the processes (decision 045):
 * - round robin, with an HTTP check of /ready every `checkIntervalMs`: 2 failures take a process
 *   out (a draining process answers 503 at once, then refuses connections), 2 successes put it back;
 * - a refused connection is retried on another process (`retries`, `option redispatch`): nothing
 *   was sent, so even a payment POST is safe to send elsewhere. Nothing else is retried;
 * - X-Forwarded-For appended, and X-Forwarded-Host / -Proto set, replacing whatever the client
 *   sent (the portal reads the right-most entry of each with TRUST_PROXY=true: decision 024);
 * - with `tls`, a second listener that terminates TLS and offers HTTP/2 then HTTP/1.1 by ALPN
 *   (decision 083): same frontend, same rules; `X-Forwarded-Proto` is https there alone, so the
 *   portal marks cookies Secure and an https Origin passes its same-origin check;
 * - idle connections to a process are closed by HAProxy well before the process's own 65 s
 *   keep-alive timeout, so a request never meets a connection the process is closing.
 */
/**
 * Requests one portal process works on at once. Node is single-threaded: past a handful of
 * requests in flight it gets no faster, only later for each one, and its database pool has 10
 * connections. 16 keeps the event loop free to answer /ready while work waits at the proxy.
 */
export const PROCESS_MAXCONN = 16;
/** Failed checks (one per check interval, each allowed 3 s) before a process is taken out. */
export const CHECK_FALL = 3;

export function haproxyConfig(input: {
  proxyPort: number;
  ports: number[];
  socketPath: string;
  checkIntervalMs: number;
  errorPagePath: string;
  /** The TLS listener: its port and the key+certificate PEM (HTTP/2 and HTTP/1.1 by ALPN). */
  tls?: { port: number; pemPath: string };
}) {
  const servers = input.ports.map((port, index) => `  server p${index} 127.0.0.1:${port}`).join("\n");
  // Browsers speak HTTP/2 only over TLS, and pick it by ALPN; a client that offers no ALPN gets HTTP/1.1.
  const tlsBind = input.tls
    ? `\n  bind 127.0.0.1:${input.tls.port} ssl crt "${input.tls.pemPath}" alpn h2,http/1.1`
    : "";
  return `# Written by scripts/cluster-lib.ts; see docs/decisions/045-many-processes-behind-haproxy.md
global
  stats socket ${input.socketPath} mode 600 level admin
  maxconn 4096
  ssl-default-bind-options ssl-min-ver TLSv1.2

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 15s
  timeout http-keep-alive 15s
  timeout queue 30s
  timeout check 3s
  errorfile 503 ${input.errorPagePath}
  retries 2
  option redispatch 1
  retry-on conn-failure

frontend portal_in
  bind 127.0.0.1:${input.proxyPort}${tlsBind}
  option forwardfor
  http-request set-header X-Forwarded-Proto https if { ssl_fc }
  http-request set-header X-Forwarded-Proto http if !{ ssl_fc }
  http-request set-header X-Forwarded-Host %[req.hdr(host)]
  default_backend portal

backend portal
  balance roundrobin
  option httpchk
  http-check send meth GET uri ${READY_PATH} ver HTTP/1.1 hdr Host health-check.invalid
  http-check expect status 200
  http-reuse safe
  # maxconn: at most PROCESS_MAXCONN requests in each process at once; the rest wait in HAProxy's
  # queue (up to 30 s) for the first free slot on any process. A Node process given 200 requests
  # at once answers all of them slowly, its readiness check too, and a busy process taken out
  # as "down" turns overload into an outage (decision 045).
  default-server check inter ${input.checkIntervalMs} fall ${CHECK_FALL} rise 2 maxconn ${PROCESS_MAXCONN} pool-purge-delay 5s
${servers}
`;
}

/** The processes' session secret: one per data folder, made on first use (so a kept folder keeps sessions). */
function sharedSecret(dataDir: string) {
  const file = path.join(dataDir, "cluster-session-secret");
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * HAProxy's own answer when no process is ready (all draining, or the database away from all of
 * them): a plain page that says to try again, never HAProxy's default text. It names no tenant,
 * because no process was there to resolve the host.
 */
const UNAVAILABLE_BODY =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Temporarily unavailable</title><h1>Temporarily unavailable</h1><p>The portal cannot answer just now. Nothing was changed. Please try again in a minute.</p></html>';
const UNAVAILABLE_PAGE = [
  "HTTP/1.1 503 Service Unavailable",
  "Content-Type: text/html; charset=utf-8",
  "Cache-Control: no-store",
  "Retry-After: 30",
  "X-Content-Type-Options: nosniff",
  "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
  "Connection: close",
  `Content-Length: ${Buffer.byteLength(UNAVAILABLE_BODY)}`,
  "",
  UNAVAILABLE_BODY,
].join("\r\n");

/** Creates the database named in the URL when it does not exist (through the `postgres` database). */
export async function createDatabaseIfMissing(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`the database name ${JSON.stringify(name)} must be lower-case letters, digits and _`);
  }
  url.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}

/**
 * Migrates once (before any process starts) and seeds the demo hosts, their links on the proxy's port
 * (`scheme`: https when the cluster has its TLS listener, whose port `publicPort` then is).
 */
export async function prepareDatabase(
  databaseUrl: string,
  seed: boolean,
  publicPort: number,
  scheme: "http" | "https" = "http",
) {
  const handle = openPostgres(databaseUrl, { max: 2 });
  try {
    await migrate(handle);
    if (!seed) return;
    await seedDemoData(handle.db);
    const hosts = await handle.db
      .selectFrom("hosts")
      .select("hostname")
      .where("hostname", "like", "%.localhost")
      .execute();
    for (const { hostname } of hosts) {
      await handle.db
        .updateTable("hosts")
        .set({ public_base_url: demoPublicBaseUrl(hostname, publicPort, scheme) })
        .where("hostname", "=", hostname)
        .execute();
    }
  } finally {
    await handle.close();
  }
}

/** The `.localhost` hosts in the database: the names the local certificate must carry. */
async function localHostnames(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query<{ hostname: string }>(
      "SELECT hostname FROM hosts WHERE hostname LIKE '%.localhost' ORDER BY hostname",
    );
    return found.rows.map((row) => row.hostname);
  } finally {
    await client.end();
  }
}

/**
 * Polls HAProxy's TLS listener until /ready answers 200 there, verifying its certificate against the
 * cluster's own (so a listener that presents another, or none, never counts as ready).
 */
async function waitForTls(port: number, certPath: string, timeoutMs: number) {
  const ca = fs.readFileSync(certPath);
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = https.get(
          { host: "127.0.0.1", port, path: READY_PATH, servername: "localhost", ca, agent: false, timeout: 2_000 },
          (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          },
        );
        request.on("timeout", () => request.destroy(new Error("no answer in 2 s")));
        request.on("error", reject);
      });
      if (status === 200) return;
      last = `status ${status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await delay(100);
  }
  throw new Error(`https://127.0.0.1:${port}${READY_PATH} was not ready within ${timeoutMs} ms (${last})`);
}

async function waitUntilReady(portal: PortalProcess, timeoutMs: number) {
  await Promise.race([
    waitForHttp(`${portal.url}${READY_PATH}`, timeoutMs),
    portal.exited.then((status) => {
      throw new Error(
        `${portal.name} exited before it was ready (${status.code ?? status.signal}): ${tail(portal.logPath)}`,
      );
    }),
  ]);
}

/** Polls a URL until it answers 200, at most `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await delay(100);
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms (${last})`);
}

/** One command on HAProxy's admin socket; the answer ends when HAProxy closes the connection. */
function adminCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let answer = "";
    const timer = setTimeout(() => socket.destroy(new Error("HAProxy's admin socket did not answer")), 2_000);
    socket.on("connect", () => socket.write(`${command}\n`));
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("end", () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function tail(logPath: string, lines = 15) {
  try {
    return fs.readFileSync(logPath, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
