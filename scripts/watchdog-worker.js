/**
 * The watchdog's own thread (scripts/watchdog.js starts it). It watches the main thread's beat
 * counter; when the counter has not moved for the timeout, the main thread cannot log or exit
 * on its own, so this thread writes one JSON line straight to stderr (fd 2, synchronously) and
 * sends the process SIGKILL. (From a worker, process.exit() ends only the worker, and
 * process.abort() is refused.)
 */
import fs from "node:fs";
import { workerData } from "node:worker_threads";
import { createStallDetector } from "./loop-health.js";

const { beats, timeoutMs, checkEveryMs, name } = workerData;
const detector = createStallDetector({ timeoutMs, checkEveryMs, now: () => performance.now() });

setInterval(() => {
  const { stalled, silentMs } = detector.observe(Atomics.load(beats, 0));
  if (!stalled) return;
  const line = {
    time: new Date().toISOString(),
    level: "error",
    msg: "event loop stalled: the watchdog is ending the process",
    process: name,
    pid: process.pid,
    stalledMs: Math.round(silentMs),
    timeoutMs,
    // The whole process's memory (heapUsed here would be this thread's own heap).
    rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20),
  };
  fs.writeSync(2, `${JSON.stringify(line)}\n`);
  process.kill(process.pid, "SIGKILL");
}, checkEveryMs);
