import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { heapLimitArgs } from "../../scripts/heap-limit.js";

/**
 * The heap limit and the event-loop watchdog in real processes (issue 28, decision 058), through
 * tests/support/watchdog-fixture.js, which starts as scripts/serve.js does (applyHeapLimit, then
 * startWatchdog) without needing the server build. Every wait is on the process's exit.
 */
const FIXTURE = "tests/support/watchdog-fixture.js";

type Outcome = { code: number | null; signal: NodeJS.Signals | null; stdout: string[]; stderr: string; pid: number };

/** Runs the fixture to its end; `onLine` sees each stdout line as it comes (to signal the process). */
function runFixture(
  nodeArgs: string[],
  mode: string,
  env: Record<string, string> = {},
  onLine?: (line: string, pid: number) => void,
): Promise<Outcome> {
  // NODE_OPTIONS left out: the limit must come from the relaunch or the command line.
  const childEnv: Record<string, string | undefined> = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env };
  const child = spawn(process.execPath, [...nodeArgs, FIXTURE, mode], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: string[] = [];
  let stderr = "";
  let rest = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString("utf8")).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      stdout.push(line);
      onLine?.(line, child.pid!);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr, pid: child.pid! })),
  );
}

function stallLine(stderr: string) {
  const line = stderr.split("\n").find((text) => text.includes("event loop stalled"));
  return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
}

describe("the event-loop watchdog", () => {
  it("ends a process whose main thread is stuck, with SIGKILL and one JSON line naming the stall", async () => {
    const outcome = await runFixture(heapLimitArgs({}), "spin", { WATCHDOG_TIMEOUT_MS: "1000" });
    expect(outcome.stdout.map((line) => JSON.parse(line))).toEqual([{ pid: outcome.pid, spinning: true }]);
    expect(outcome).toMatchObject({ code: null, signal: "SIGKILL" });
    expect(stallLine(outcome.stderr)).toMatchObject({
      level: "error",
      msg: "event loop stalled: the watchdog is ending the process",
      process: "fixture",
      pid: outcome.pid,
      timeoutMs: 1000,
    });
  });

  it("does the same when the heap limit came from the relaunch, and the launcher sees the same SIGKILL", async () => {
    const outcome = await runFixture([], "spin", { WATCHDOG_TIMEOUT_MS: "1000" });
    const [spinning] = outcome.stdout.map((line) => JSON.parse(line) as { pid: number });
    // The server ran in the child; the process the launcher started ended the way the child did.
    expect(spinning!.pid).not.toBe(outcome.pid);
    expect(outcome).toMatchObject({ code: null, signal: "SIGKILL" });
    expect(stallLine(outcome.stderr)).toMatchObject({ pid: spinning!.pid, timeoutMs: 1000 });
  });
});

describe("the heap limit", () => {
  it("is PORTAL_MAX_HEAP_MB when Node was started without one: the process relaunches itself with the flag", async () => {
    const outcome = await runFixture([], "report", { PORTAL_MAX_HEAP_MB: "300" });
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout[0]!) as { pid: number; heapSizeLimit: number; execArgv: string[] };
    expect(report.execArgv).toContain("--max-old-space-size=300");
    // heap_size_limit is the old space plus the young generation (a few tens of MB).
    expect(report.heapSizeLimit).toBeGreaterThanOrEqual(300 * 2 ** 20);
    expect(report.heapSizeLimit).toBeLessThan(400 * 2 ** 20);
    expect(report.pid).not.toBe(outcome.pid);
  });

  it("is 1024 MB by default, and a launcher that passes the flag gets no second process", async () => {
    const outcome = await runFixture(heapLimitArgs({}), "report", { NODE_OPTIONS: "--max-old-space-size=4096" });
    const report = JSON.parse(outcome.stdout[0]!) as { pid: number; heapSizeLimit: number; execArgv: string[] };
    expect(report.pid).toBe(outcome.pid);
    expect(report.execArgv).toEqual(["--max-old-space-size=1024"]);
    expect(report.heapSizeLimit).toBeGreaterThanOrEqual(1024 * 2 ** 20);
    expect(report.heapSizeLimit).toBeLessThan(1124 * 2 ** 20);
  });

  it("replaces a different limit given to Node (NODE_OPTIONS) with PORTAL_MAX_HEAP_MB", async () => {
    const outcome = await runFixture([], "report", { NODE_OPTIONS: "--max-old-space-size=4096" });
    const report = JSON.parse(outcome.stdout[0]!) as { heapSizeLimit: number };
    expect(report.heapSizeLimit).toBeLessThan(1124 * 2 ** 20);
  });

  it("refuses a wrong PORTAL_MAX_HEAP_MB before starting anything", async () => {
    const outcome = await runFixture([], "report", { PORTAL_MAX_HEAP_MB: "64" });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toEqual([]);
    expect(outcome.stderr).toContain("PORTAL_MAX_HEAP_MB: must be a whole number of megabytes, 256 to 32768");
  });

  it("passes SIGTERM on to the relaunched server once, and exits with the server's code", async () => {
    const outcome = await runFixture([], "wait", {}, (line, pid) => {
      if (line.includes('"waiting"')) process.kill(pid, "SIGTERM");
    });
    const lines = outcome.stdout.map((line) => JSON.parse(line) as { pid: number; signal?: string });
    expect(lines.filter((line) => line.signal === "SIGTERM")).toHaveLength(1);
    expect(lines[0]!.pid).not.toBe(outcome.pid);
    expect(outcome).toMatchObject({ code: 7, signal: null });
  });
});
