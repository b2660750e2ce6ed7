import fs from "node:fs";
import autocannon from "autocannon";
import { BENCH_PORT, cookieFor, DEMO_HOST, FLOOR_PATH, LOAD, type BenchCookies, type BenchPage } from "./config";
import { median, round } from "./lib/stats";

/**
 * Server throughput on loopback with autocannon, in this very run: each signed-in page
 * against the /heartbeat page as the floor (same host lookup, same document shell, one
 * database ping), at each connection count. The ratio page/floor is what compares
 * across machines; the absolute numbers only compare within one run.
 */
export type Round = { requestsPerSecond: number; p50Ms: number; p99Ms: number; ofFloor: number };
export type LoadRun = {
  page: string;
  path: string;
  connections: number;
  /** Medians over the rounds. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests per second as a share of the floor's in the same round (median over rounds). */
  ofFloor: number;
  errors: number;
  non2xx: number;
  rounds: Round[];
};
export type LoadResult = { runs: LoadRun[]; peakRssMb: number };

function hammer(path: string, connections: number, durationSeconds: number, cookie?: string) {
  return autocannon({
    url: `http://127.0.0.1:${BENCH_PORT}${path}`,
    connections,
    duration: durationSeconds,
    timeout: 10,
    headers: { host: `${DEMO_HOST}:${BENCH_PORT}`, ...(cookie ? { cookie } : {}) },
  });
}

/** The server's peak resident memory so far (Linux: VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return round(kb / 1024);
}

export async function measureLoad(pages: BenchPage[], cookies: BenchCookies, serverPid: number): Promise<LoadResult> {
  const targets = [{ name: "heartbeat", path: FLOOR_PATH, signedIn: false }, ...pages];
  const runs: LoadRun[] = [];
  for (const connections of LOAD.connections) {
    // A short unmeasured burst first, so every target starts warm.
    for (const target of targets)
      await hammer(target.path, connections, LOAD.warmupSeconds, cookieFor(target, cookies));
    const byTarget = targets.map(() => ({ rounds: [] as Round[], errors: 0, non2xx: 0 }));
    for (let i = 0; i < LOAD.rounds; i += 1) {
      let floor = Number.NaN;
      for (const [index, target] of targets.entries()) {
        const result = await hammer(target.path, connections, LOAD.roundSeconds, cookieFor(target, cookies));
        const requestsPerSecond = result.requests.average;
        if (index === 0) floor = requestsPerSecond;
        const entry = byTarget[index]!;
        entry.rounds.push({
          requestsPerSecond,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          ofFloor: requestsPerSecond / floor,
        });
        entry.errors += result.errors + result.timeouts;
        entry.non2xx += result.non2xx;
      }
    }
    for (const [index, target] of targets.entries()) {
      const { rounds, errors, non2xx } = byTarget[index]!;
      runs.push({
        page: target.name,
        path: target.path,
        connections,
        requestsPerSecond: round(median(rounds.map((r) => r.requestsPerSecond))),
        p50Ms: round(median(rounds.map((r) => r.p50Ms))),
        p99Ms: round(median(rounds.map((r) => r.p99Ms))),
        ofFloor: round(median(rounds.map((r) => r.ofFloor)), 3),
        errors,
        non2xx,
        rounds: rounds.map((r) => ({
          ...r,
          requestsPerSecond: round(r.requestsPerSecond),
          ofFloor: round(r.ofFloor, 3),
        })),
      });
    }
  }
  return { runs, peakRssMb: peakRssMb(serverPid) };
}
