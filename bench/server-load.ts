import fs from "node:fs";
import autocannon from "autocannon";
import { BENCH_PORT, DEMO_HOST, FLOOR_PATH, LOAD, type BenchPage } from "./config";
import { round } from "./lib/stats";

/**
 * Server throughput on loopback with autocannon, in this very run: each signed-in page
 * against the /heartbeat page as the floor (same host lookup, same document shell, one
 * database ping), at each connection count. The ratio page/floor is what compares
 * across machines; the absolute numbers only compare within one run.
 */
export type LoadRun = {
  page: string;
  path: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Requests per second as a share of the floor's at the same connection count. */
  ofFloor: number;
};
export type LoadResult = { runs: LoadRun[]; peakRssMb: number };

async function hammer(path: string, connections: number, durationSeconds: number, cookie?: string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${BENCH_PORT}${path}`,
    connections,
    duration: durationSeconds,
    timeout: 10,
    headers: { host: `${DEMO_HOST}:${BENCH_PORT}`, ...(cookie ? { cookie } : {}) },
  });
  return result;
}

/** The server's peak resident memory so far (Linux: VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return round(kb / 1024);
}

export async function measureLoad(pages: BenchPage[], cookie: string, serverPid: number): Promise<LoadResult> {
  const targets = [{ name: "heartbeat", path: FLOOR_PATH, signedIn: false }, ...pages];
  const runs: LoadRun[] = [];
  for (const connections of LOAD.connections) {
    let floor = Number.NaN;
    for (const target of targets) {
      const signedInCookie = target.signedIn ? cookie : undefined;
      // A short unmeasured burst first, so every target starts warm.
      await hammer(target.path, connections, LOAD.warmupSeconds, signedInCookie);
      const result = await hammer(target.path, connections, LOAD.durationSeconds, signedInCookie);
      const requestsPerSecond = round(result.requests.average);
      if (target.path === FLOOR_PATH) floor = requestsPerSecond;
      runs.push({
        page: target.name,
        path: target.path,
        connections,
        requestsPerSecond,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        ofFloor: round(requestsPerSecond / floor, 3),
      });
    }
  }
  return { runs, peakRssMb: peakRssMb(serverPid) };
}
