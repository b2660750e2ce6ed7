import fs from "node:fs";
import { startCluster, type Cluster } from "../../scripts/cluster-lib";
import { LOAD_PAGES } from "./resilience-load";
import { percentile, round } from "./stats";

/**
 * The portal processes a scenario runs against: scripts/cluster-lib.ts's cluster (N processes on
 * one PostgreSQL behind HAProxy, TRUST_PROXY=true), started without the demo seed (the bench
 * seeds its own brand first). Every client request goes through the proxy.
 */
export async function startPortals(options: {
  processes: number;
  basePort: number;
  proxyPort: number;
  databaseUrl: string;
  env: Record<string, string>;
}): Promise<Cluster> {
  return startCluster({
    processes: options.processes,
    basePort: options.basePort,
    proxyPort: options.proxyPort,
    databaseUrl: options.databaseUrl,
    env: options.env,
    seed: false,
  });
}

/**
 * What each process says it served, from its own access log (scripts/serve.js's one line per
 * request: "GET /path 200 1234 - 12.345 ms"): the proxy does not say which process answered a
 * request, the process's log does. Marks where each log ends now; `read` takes what came after.
 */
export function markLogs(cluster: Cluster) {
  const marks = cluster.processes.map((p) => ({ name: p.name, path: p.logPath, from: sizeOf(p.logPath) }));
  return {
    read(): Map<string, number[]> {
      const times = new Map<string, number[]>();
      const paths = new Set(LOAD_PAGES.map((page) => page.path.split("?")[0]));
      for (const mark of marks) {
        const text = fs.readFileSync(mark.path, "utf8").slice(mark.from);
        const list: number[] = [];
        for (const line of text.split("\n")) {
          const match = /^GET (\S+) 200 \S+ - ([\d.]+) ms$/.exec(line.trim());
          if (match && paths.has(match[1]!)) list.push(Number(match[2]));
        }
        times.set(mark.name, list);
      }
      return times;
    },
  };
}

function sizeOf(file: string) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

export type ProcessRow = {
  process: string;
  requests: number;
  serverP50Ms: number;
  serverP99Ms: number;
  perSecond: number;
};

export function processRows(times: Map<string, number[]>, seconds: number): ProcessRow[] {
  return [...times.entries()].map(([process, list]) => ({
    process,
    requests: list.length,
    serverP50Ms: round(percentile(list, 50), 1),
    serverP99Ms: round(percentile(list, 99), 1),
    perSecond: round(list.length / seconds, 1),
  }));
}
