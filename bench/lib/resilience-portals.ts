import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { get } from "./resilience-http";

/**
 * The portal processes a resilience scenario runs against, whatever starts them. The scenarios
 * need only this: where to send requests, and each process's port, to kill and to restart.
 */
export type PortalProcess = {
  name: string;
  port: number;
  pid: () => number | undefined;
  kill: (signal: NodeJS.Signals) => Promise<void>;
  restart: () => Promise<void>;
};

export type Portals = {
  /** Where a user's requests go: the proxy, or (no proxy) the process the user is spread to. */
  portFor: (user: number) => number;
  /** Which process answered, from the proxy's header when there is one, else from the port. */
  processOf: (port: number, headers: Record<string, string | string[] | undefined>) => string;
  processes: PortalProcess[];
  viaProxy: boolean;
  stop: () => Promise<void>;
};

export type PortalsOptions = {
  processes: number;
  basePort: number;
  proxyPort: number;
  databaseUrl: string;
  env: Record<string, string>;
  dataDir: string;
};

/** Polls a process's heartbeat until it answers 200, or throws after `timeoutMs`. */
export async function waitForHeartbeat(port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await get(port, "127.0.0.1", "/api/host/heartbeat", undefined, 2_000);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`No portal on 127.0.0.1:${port} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * N `node scripts/serve.js` processes on one PostgreSQL database, each on its own loopback port,
 * no proxy: the bench spreads its users over them itself (user i → process i mod N), as a
 * proxy with sticky connections would. Used when the repository's cluster launcher is absent.
 */
export async function startDirectPortals(options: PortalsOptions): Promise<Portals> {
  const processes = Array.from({ length: options.processes }, (_, i) => {
    const port = options.basePort + i;
    const name = `p${i + 1}`;
    let child: ChildProcess | undefined;
    let exited: Promise<void> = Promise.resolve();
    const logFile = path.join(options.dataDir, `${name}.log`);
    const start = async () => {
      fs.mkdirSync(path.join(options.dataDir, name), { recursive: true });
      const log = fs.openSync(logFile, "a");
      child = spawn(process.execPath, ["scripts/serve.js", "./build/index.js"], {
        env: {
          ...process.env,
          ...options.env,
          NODE_ENV: "production",
          HOST: "127.0.0.1",
          PORT: String(port),
          DATABASE_URL: options.databaseUrl,
          DATA_DIR: path.join(options.dataDir, name),
          SEED_DEMO_DATA: "false",
        },
        stdio: ["ignore", "ignore", log],
      });
      fs.closeSync(log);
      const current = child;
      exited = new Promise((resolve) => current.once("exit", () => resolve()));
      await waitForHeartbeat(port, 60_000);
    };
    const kill = async (signal: NodeJS.Signals) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = signal === "SIGKILL" ? undefined : setTimeout(() => child?.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    };
    return {
      name,
      port,
      pid: () => child?.pid,
      kill,
      restart: start,
      start,
    };
  });
  await Promise.all(processes.map((p) => p.start()));
  return {
    portFor: (user) => processes[user % processes.length]!.port,
    processOf: (port) => processes.find((p) => p.port === port)?.name ?? String(port),
    processes,
    viaProxy: false,
    stop: async () => {
      await Promise.all(processes.map((p) => p.kill("SIGTERM")));
    },
  };
}
