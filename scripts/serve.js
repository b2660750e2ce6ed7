/**
 * The portal's server, for `npm start`, `npm run serve`, `npm run dev`, the e2e journeys and
 * the benchmark: remix-serve's own set-up (compression, fingerprinted assets cached for a
 * year, public files for an hour, Remix's request handler) with the portal's front door
 * (scripts/edge.js) in front of all of it. remix-serve's morgan access line is not here: the
 * build writes one JSON line per request itself, with pino-http (decision 061). Listens on 127.0.0.1:3000
 * unless HOST or PORT say otherwise (remix-serve would bind every interface). Start-up
 * (configuration check, migrations, first-run seed) happens in the server build itself.
 */
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";
import url from "node:url";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { addCompileHints } from "./compile-hints.js";
import { answerClientError, answerConnect, edgeGuard } from "./edge.js";
import { applyHeapLimit, givenHeapLimit } from "./heap-limit.js";
import { parseWatchdogTimeout } from "./loop-health.js";
import { startWatchdog } from "./watchdog.js";

// Started without `--max-old-space-size=PORTAL_MAX_HEAP_MB`, this process starts the server as
// its child with it, and waits here for as long as the child runs (decision 058).
await applyHeapLimit();

process.env.NODE_ENV ??= "production";
const host = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);
const mode = process.env.NODE_ENV;
const buildPath = path.resolve(process.argv[2] ?? "./build/index.js");
const versionPath = path.resolve(buildPath, "..", "version.txt");

async function importBuild() {
  const stat = fs.statSync(buildPath);
  // A query string busts the import cache when development rebuilds.
  return import(`${url.pathToFileURL(buildPath).href}?t=${stat.mtimeMs}`);
}

const watchdogTimeout = parseWatchdogTimeout(process.env.WATCHDOG_TIMEOUT_MS);
if (watchdogTimeout.error) {
  console.error(`[serve] ${watchdogTimeout.error}`);
  process.exit(1);
}

let build = await importBuild();
/**
 * The event-loop watchdog (decision 058): beats stopped for WATCHDOG_TIMEOUT_MS end the process
 * (SIGKILL, one JSON line on stderr) for the supervisor to replace; a beat late by more than a
 * quarter of that (at most a second) makes /ready answer 503 for 10 s. Started once the build has loaded (its start-up
 * work is awaited, not a blocked loop). Not while a debugger is attached: a breakpoint stops
 * the loop on purpose.
 */
const watchdog = inspector.url() ? null : startWatchdog({ timeoutMs: watchdogTimeout.ms });
installGlobals({ nativeFetch: build.future.v3_singleFetch });
// React DOM compiled while it downloads, not on the main thread when the page starts (decision 049).
addCompileHints(build.assetsBuildDirectory);

/**
 * Draining (decision 045). On SIGTERM/SIGINT the process stops being ready at once (GET /ready
 * answers 503, so a load balancer takes it out), keeps its listener open for DRAIN_DELAY_MS while
 * the balancer notices (0 by default: HAProxy retries a refused connection elsewhere; the cluster
 * launcher gives it two health checks), then stops accepting connections, lets the requests in
 * flight finish and the job queue put down its jobs, and exits 0. Every answer given while
 * draining carries `Connection: close`, and idle keep-alive connections are closed, so no client
 * or proxy keeps sending on a connection that is about to go. All of it within DRAIN_BOUND_MS;
 * past that, what is left is cut and the exit code is 1.
 */
const DRAIN_BOUND_MS = 25_000;
const drainDelayMs = parseDrainDelay(process.env.DRAIN_DELAY_MS);
const READY_PATH = "/ready";
let draining = false;
/** Set when the listener closes (after DRAIN_DELAY_MS): from then on an idle connection is closed at once. */
let closing = false;
/** Responses not yet finished (or aborted): the requests in flight. */
const inFlight = new Set();
let whenNoneInFlight = () => {};

function parseDrainDelay(value) {
  if (value === undefined || value === "") return 0;
  const ms = /^\d{1,5}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(ms >= 0 && ms <= 10_000)) {
    console.error("[serve] DRAIN_DELAY_MS: must be a whole number of milliseconds, 0 to 10000");
    process.exit(1);
  }
  return ms;
}

function trackInFlight(_req, res, next) {
  inFlight.add(res);
  res.once("close", () => {
    inFlight.delete(res);
    if (!draining) return;
    // The connection this answer used is idle now (unless the client pipelined): let it go.
    if (closing) setImmediate(() => server.closeIdleConnections());
    if (inFlight.size === 0) whenNoneInFlight();
  });
  if (draining) res.setHeader("Connection", "close");
  next();
}

/** Concurrent readiness checks share one database round trip. */
let readinessCheck = null;
function checkReadiness() {
  readinessCheck ??= Promise.resolve()
    .then(() => build.entry?.module?.isReady?.() ?? true)
    .catch(() => false)
    .finally(() => {
      readinessCheck = null;
    });
  return readinessCheck;
}

/**
 * GET /ready: 200 when this process can serve (the database answers), 503 while it drains, while
 * the database is away, or for a while after its event loop was blocked (`lagging`, decision 058).
 * Answered here for any Host (a proxy's health check names no tenant) and says nothing about any
 * tenant; kept out of the request log (one every second per process from the proxy). /heartbeat stays the liveness page a person reads.
 */
async function readiness(_req, res) {
  const lagging = watchdog?.lagState().lagging ?? false;
  const ok = draining || lagging ? false : await checkReadiness();
  const state = draining ? "draining" : lagging ? "lagging" : ok ? "ready" : "unavailable";
  const status = state === "ready" ? 200 : 503;
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  };
  if (status === 503) headers["Retry-After"] = "5";
  res.writeHead(status, headers);
  res.end(JSON.stringify({ status: state }));
}

const app = express();
app.disable("x-powered-by");
app.use(trackInFlight);
app.use(edgeGuard);
app.get(READY_PATH, (req, res, next) => readiness(req, res).catch(next));
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
if (mode === "development") {
  // `remix dev --manual` rebuilds, then waits for the app server to say it has the new build.
  fs.watch(path.dirname(versionPath), (_event, file) => {
    if (file !== path.basename(versionPath)) return;
    importBuild().then(
      (next) => {
        build = next;
        void broadcastDevReady(build);
      },
      (error) => console.error("[serve] could not load the new build", error),
    );
  });
  app.all("*", (req, res, next) => createRequestHandler({ build, mode })(req, res, next));
} else {
  app.all("*", createRequestHandler({ build, mode }));
}

const server = app.listen(port, host, () => {
  const heapMb = givenHeapLimit(process.execArgv, process.env.NODE_OPTIONS);
  const watching = watchdog ? `watchdog ${watchdogTimeout.ms} ms` : "no watchdog (debugger attached)";
  console.log(
    `[serve] http://${host}:${port} (heap limit ${heapMb === null ? "V8's default" : `${heapMb} MB`}, ${watching})`,
  );
  if (mode === "development") void broadcastDevReady(build);
});
// Behind a proxy, the proxy must be the one to close an idle connection (it knows not to send on
// it then): Node's default of 5 s races the proxy's reuse and makes ECONNRESET. Headers must be
// allowed a little longer than that, or a slow first request on a kept connection is cut.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.on("connect", answerConnect);
server.on("clientError", answerClientError);

let signalled = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    if (signalled) {
      // A second Ctrl-C (or SIGTERM) does not wait for the drain.
      console.error(`[serve] ${signal} again: exiting now`);
      process.exit(1);
    }
    signalled = true;
    void drain(signal);
  });
}

async function drain(signal) {
  const started = Date.now();
  draining = true;
  console.log(`[serve] ${signal}: draining (${inFlight.size} request(s) in flight)`);
  for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  const bound = new Promise((resolve) => setTimeout(() => resolve("cut"), DRAIN_BOUND_MS));
  // The build's own shutdown (entry.server.tsx: the job queue finishes the jobs in hand).
  const jobsDone = Promise.resolve()
    .then(() => build.entry?.module?.shutdown?.())
    .catch((error) => console.error("[serve] shutdown failed", error));
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const closed = (async () => {
    // While the balancer notices, idle connections stay: closing one it is about to reuse would fail
    // that request. Each answer meanwhile says `Connection: close`, which retires its connection.
    if (drainDelayMs > 0) await wait(drainDelayMs);
    closing = true;
    const listenerClosed = new Promise((resolve) => server.close(resolve));
    // Said once the listening socket is closed (server.close closes it at once; its callback waits for
    // the last connection): the drain test waits for this line, not for a clock.
    console.log("[serve] listener closed: new connections are refused");
    server.closeIdleConnections();
    if (inFlight.size > 0) await new Promise((resolve) => (whenNoneInFlight = resolve));
    await jobsDone;
    // Every answer since the drain began said `Connection: close`, so the last sockets are closing;
    // one that never sent a request is idle. Nothing is in flight: what is left after a second goes.
    server.closeIdleConnections();
    await Promise.race([listenerClosed, wait(1_000)]);
    server.closeAllConnections();
    return "drained";
  })();
  const outcome = await Promise.race([closed, bound]);
  if (outcome === "cut") {
    console.error(`[serve] drain bound of ${DRAIN_BOUND_MS} ms reached: cutting ${inFlight.size} request(s)`);
    server.closeAllConnections();
    process.exit(1);
  }
  console.log(`[serve] drained in ${Date.now() - started} ms`);
  process.exit(0);
}
