/**
 * The event-loop watchdog (issue 28, decision 058). A request that keeps the main thread busy
 * (a synchronous loop, a heap so full that the collector runs without end) stops everything the
 * process does: it answers nothing, not even /ready, and it cannot run its own SIGTERM handler.
 * So the main thread beats every BEAT_EVERY_MS into a SharedArrayBuffer, and a worker thread,
 * which keeps running while the main thread is stuck, ends the process (SIGKILL, after one JSON
 * line on stderr) when the beats stop for `timeoutMs`; the supervisor starts a new one. Before
 * that, a beat that came late makes GET /ready answer 503 for a while (`lagState()`), so the
 * balancer takes out a process that keeps stalling.
 */
import { Worker } from "node:worker_threads";
import { BEAT_EVERY_MS, checkEveryFor, createLagTracker, lagThresholdFor } from "./loop-health.js";

/**
 * Starts the beat and the watchdog thread. Neither keeps the process alive. Returns
 * `lagState()`, `{ lagging, lagMs }` for readiness, and `stop()`.
 */
export function startWatchdog({ timeoutMs, name = "portal" }) {
  const beats = new Int32Array(new SharedArrayBuffer(4));
  const lag = createLagTracker({ thresholdMs: lagThresholdFor(timeoutMs), now: () => performance.now() });
  const timer = setInterval(() => {
    lag.beat();
    Atomics.add(beats, 0, 1);
  }, BEAT_EVERY_MS);
  timer.unref();
  const worker = new Worker(new URL("./watchdog-worker.js", import.meta.url), {
    workerData: { beats, timeoutMs, checkEveryMs: checkEveryFor(timeoutMs), name },
    // The watchdog needs little; a small heap keeps it clear of the main heap's limit.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  worker.on("error", (error) => console.error("[serve] the event-loop watchdog failed", error));
  return {
    lagState: () => lag.state(),
    stop() {
      clearInterval(timer);
      return worker.terminate();
    },
  };
}
