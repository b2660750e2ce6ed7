/**
 * The portal process's heap limit (issue 28, decision 058). V8's default old-space limit on a
 * 64-bit machine is about 4 GB: a request that keeps allocating took a process there over minutes,
 * slower and slower in the collector, before it failed. With `--max-old-space-size` it fails at
 * PORTAL_MAX_HEAP_MB instead ("JavaScript heap out of memory", exit by SIGABRT), sooner and
 * loudly, and its supervisor starts a new one.
 *
 * A running process cannot change its own limit (v8.setFlagsFromString is read only when the heap
 * is made), so scripts/serve.js calls `applyHeapLimit()` first: when Node was not started with the
 * limit, this process starts the real server as its child with the flag, passes signals on, and
 * ends as the child ends. Launchers that can (scripts/cluster-lib.ts, the benchmark, the e2e
 * server) pass `heapLimitArgs()` to Node themselves, so that no go-between is left.
 */
import { spawn } from "node:child_process";
import os from "node:os";

export const HEAP_DEFAULT_MB = 1024;
export const HEAP_MIN_MB = 256;
export const HEAP_MAX_MB = 32_768;
/** Set in the child's environment by the relaunch: that process never relaunches again. */
const RELAUNCHED = "PORTAL_HEAP_RELAUNCHED";
const HEAP_FLAG = /^--max[-_]old[-_]space[-_]size=(\d+)$/;
const FORWARDED_SIGNALS = /** @type {const} */ (["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR2"]);

/**
 * PORTAL_MAX_HEAP_MB: unset or empty is the default. Returns `{ mb }` or `{ error }`.
 * @param {string | undefined} value
 * @returns {{ mb: number, error?: undefined } | { error: string, mb?: undefined }}
 */
export function parseHeapLimit(value) {
  if (value === undefined || value.trim() === "") return { mb: HEAP_DEFAULT_MB };
  const mb = /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(mb >= HEAP_MIN_MB && mb <= HEAP_MAX_MB)) {
    return { error: `PORTAL_MAX_HEAP_MB: must be a whole number of megabytes, ${HEAP_MIN_MB} to ${HEAP_MAX_MB}` };
  }
  return { mb };
}

/**
 * The Node arguments that give a portal process its heap limit, from PORTAL_MAX_HEAP_MB in `env`.
 * Throws when the variable is wrong (a launcher stops before starting anything).
 * @param {Record<string, string | undefined>} [env]
 * @returns {string[]}
 */
export function heapLimitArgs(env = process.env) {
  const limit = parseHeapLimit(env.PORTAL_MAX_HEAP_MB);
  if (limit.error !== undefined) throw new Error(limit.error);
  return [`--max-old-space-size=${limit.mb}`];
}

/**
 * The old-space limit Node was started with, in MB, or null: the last `--max-old-space-size` on
 * the command line, else the last one in NODE_OPTIONS (the command line wins in Node too).
 * @param {readonly string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @returns {number | null}
 */
export function givenHeapLimit(execArgv, nodeOptions) {
  const last = (/** @type {readonly string[]} */ args) => {
    let found = null;
    for (const arg of args) {
      const match = HEAP_FLAG.exec(arg);
      if (match) found = Number(match[1]);
    }
    return found;
  };
  return last(execArgv) ?? last((nodeOptions ?? "").split(/\s+/));
}

/**
 * Makes sure this process runs with the configured heap limit. Resolves at once when it does;
 * otherwise starts this same script again as a child with the flag and never resolves: the
 * process exits as the child does (the same code, or the same signal).
 * @returns {Promise<void>}
 */
export function applyHeapLimit() {
  const limit = parseHeapLimit(process.env.PORTAL_MAX_HEAP_MB);
  if (limit.error !== undefined) {
    console.error(`[serve] ${limit.error}`);
    process.exit(1);
  }
  const relaunched = process.env[RELAUNCHED] === "1";
  delete process.env[RELAUNCHED];
  if (relaunched) {
    watchParent();
    return Promise.resolve();
  }
  if (givenHeapLimit(process.execArgv, process.env.NODE_OPTIONS) === limit.mb) return Promise.resolve();
  return relaunch(limit.mb);
}

/** @param {number} mb */
function relaunch(mb) {
  const execArgv = process.execArgv.filter((arg) => !HEAP_FLAG.test(arg));
  const child = spawn(
    process.execPath,
    [...execArgv, `--max-old-space-size=${mb}`, process.argv[1] ?? "", ...process.argv.slice(2)],
    {
      env: { ...process.env, [RELAUNCHED]: "1" },
      // Its own process group: a terminal's Ctrl-C reaches this process only, which passes it on
      // once (a second SIGINT would cut the child's drain short). The IPC channel tells the child
      // when this process is gone, however it went.
      detached: true,
      stdio: ["inherit", "inherit", "inherit", "ipc"],
    },
  );
  for (const signal of FORWARDED_SIGNALS) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on("error", (error) => {
    console.error("[serve] could not start the server with its heap limit", error);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      // End the same way, so the supervisor sees what happened to the server (SIGKILL from the
      // watchdog, SIGABRT when the heap ran out).
      for (const forwarded of FORWARDED_SIGNALS) process.removeAllListeners(forwarded);
      process.kill(process.pid, signal);
      // A signal that does not end a process by default: the shell's convention for the code.
      setImmediate(() => process.exit(128 + (os.constants.signals[signal] ?? 0)));
      return;
    }
    process.exit(code ?? 1);
  });
  return new Promise(() => {});
}

/**
 * In the relaunched child: when the process that started it disappears (killed with SIGKILL, so it
 * could pass nothing on), stop as on SIGTERM rather than serve on with nobody to stop it.
 */
function watchParent() {
  if (!process.channel) return;
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
  // The channel alone must not keep the server alive (the server's listener does).
  process.channel.unref();
}
