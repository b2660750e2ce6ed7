/**
 * A stand-in for scripts/serve.js in tests/unit/watchdog.test.ts: the same start (the heap limit,
 * then the event-loop watchdog) without the server build, then one of:
 * - `report`: writes what the process runs with (pid, heap limit, Node's flags) and exits 0;
 * - `spin`: blocks its main thread for good, as a request stuck in a synchronous loop would;
 * - `wait`: waits for SIGTERM, says so and exits 7 (how the relaunch passes signals and codes on).
 */
import fs from "node:fs";
import v8 from "node:v8";
import { applyHeapLimit } from "../../scripts/heap-limit.js";
import { parseWatchdogTimeout } from "../../scripts/loop-health.js";
import { startWatchdog } from "../../scripts/watchdog.js";

await applyHeapLimit();

const say = (fields) => fs.writeSync(1, `${JSON.stringify({ pid: process.pid, ...fields })}\n`);
const mode = process.argv[2];

if (mode === "report") {
  say({ heapSizeLimit: v8.getHeapStatistics().heap_size_limit, execArgv: process.execArgv });
} else if (mode === "spin") {
  const timeout = parseWatchdogTimeout(process.env.WATCHDOG_TIMEOUT_MS);
  if (timeout.error) throw new Error(timeout.error);
  startWatchdog({ timeoutMs: timeout.ms, name: "fixture" });
  setImmediate(() => {
    say({ spinning: true });
    for (;;);
  });
} else if (mode === "wait") {
  process.on("SIGTERM", () => {
    say({ signal: "SIGTERM" });
    process.exit(7);
  });
  setInterval(() => {}, 60_000);
  say({ waiting: true });
} else {
  throw new Error(`unknown mode ${mode}`);
}
