import { sql } from "kysely";
import type { Db } from "./db.server";
import { logger } from "./logger.server";

/**
 * The sandboxes' fault switch (decision 046): whether the sandbox card gateway and the sandbox
 * PayTo provider answer normally, slowly or not at all, so the resilience bench and the tests can
 * show what the portal does when a party it depends on is slow or down. Kept in the database
 * (table sandbox_faults), so every portal process on one PostgreSQL obeys one switch; each
 * process reads it at most once per FAULT_CACHE_MS. Changed only by `npm run portal -- sandbox faults`
 * (scripts/portal/sandbox.ts): no HTTP route can reach it.
 */
export const FAULT_PORTS = ["gateway", "payto"] as const;
export type FaultPort = (typeof FAULT_PORTS)[number];

export type Fault = { mode: "normal" } | { mode: "slow"; delayMs: number } | { mode: "down" };

export const MAX_FAULT_DELAY_MS = 120_000;
export const FAULT_CACHE_MS = 1_000;

const NORMAL: Fault = { mode: "normal" };

/** `gateway slow 5000`, `payto down`, `all normal` → what to set; or a message saying what is wrong. */
export function parseFaultArgs(
  args: readonly string[],
): { ok: true; ports: FaultPort[]; fault: Fault } | { ok: true; show: true } | { ok: false; message: string } {
  const usage =
    "usage: portal sandbox faults <gateway|payto|all> <normal|slow <ms>|down>, or portal sandbox faults show " +
    `(ms: a whole number from 1 to ${MAX_FAULT_DELAY_MS})`;
  if (args.length === 1 && args[0] === "show") return { ok: true, show: true };
  const [port, mode, delay, ...rest] = args;
  if (port === undefined || mode === undefined || rest.length > 0) return { ok: false, message: usage };
  const ports: FaultPort[] | null =
    port === "all" ? [...FAULT_PORTS] : (FAULT_PORTS as readonly string[]).includes(port) ? [port as FaultPort] : null;
  if (!ports) return { ok: false, message: `unknown port "${port}": ${usage}` };
  if (mode === "normal" || mode === "down") {
    if (delay !== undefined) return { ok: false, message: `${mode} takes no delay: ${usage}` };
    return { ok: true, ports, fault: { mode } };
  }
  if (mode !== "slow") return { ok: false, message: `unknown mode "${mode}": ${usage}` };
  if (delay === undefined || !/^\d{1,6}$/.test(delay)) return { ok: false, message: `slow needs a delay: ${usage}` };
  const delayMs = Number(delay);
  if (delayMs < 1 || delayMs > MAX_FAULT_DELAY_MS) return { ok: false, message: `delay out of range: ${usage}` };
  return { ok: true, ports, fault: { mode: "slow", delayMs } };
}

/** Sets the switch for some ports (all processes obey within FAULT_CACHE_MS). */
export async function setFault(db: Db, ports: readonly FaultPort[], fault: Fault) {
  const delayMs = fault.mode === "slow" ? fault.delayMs : 0;
  for (const port of ports) {
    await db
      .insertInto("sandbox_faults")
      .values({ port, mode: fault.mode, delay_ms: delayMs })
      .onConflict((oc) =>
        oc.column("port").doUpdateSet({ mode: fault.mode, delay_ms: delayMs, updated_at: sql`now()` }),
      )
      .execute();
  }
}

export async function readFaults(db: Db): Promise<Record<FaultPort, Fault>> {
  const rows = await db.selectFrom("sandbox_faults").select(["port", "mode", "delay_ms"]).execute();
  const faults: Record<FaultPort, Fault> = { gateway: NORMAL, payto: NORMAL };
  for (const row of rows) {
    faults[row.port] =
      row.mode === "slow" ? { mode: "slow", delayMs: row.delay_ms } : row.mode === "down" ? { mode: "down" } : NORMAL;
  }
  return faults;
}

export type FaultReader = (port: FaultPort) => Promise<Fault>;

/**
 * A reader with a short cache: at most one query per FAULT_CACHE_MS per process, shared by
 * concurrent callers. A database that cannot be read means "normal": the switch is a test aid
 * and must never be the reason a payment fails.
 */
export function cachedFaultReader(db: () => Promise<Db>, options: { cacheMs?: number } = {}): FaultReader {
  const cacheMs = options.cacheMs ?? FAULT_CACHE_MS;
  let cached: { at: number; faults: Promise<Record<FaultPort, Fault>> } | undefined;
  return async (port) => {
    // eslint-disable-next-line no-restricted-syntax -- a cache's age: elapsed real time, not a date
    if (!cached || Date.now() - cached.at >= cacheMs) {
      const faults = db()
        .then(readFaults)
        .catch((error: unknown) => {
          logger.debug("sandbox faults could not be read: normal", { error });
          return { gateway: NORMAL, payto: NORMAL };
        });
      // eslint-disable-next-line no-restricted-syntax -- a cache's age: elapsed real time, not a date
      cached = { at: Date.now(), faults };
    }
    return (await cached.faults)[port];
  };
}

/** The error a sandbox that is "down" answers a lookup with: nothing was done. */
export class PortUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PortUnavailableError";
  }
}

/** Waits out a slow fault; true when the port is down (the caller refuses without doing anything). */
export async function sufferFault(read: FaultReader, port: FaultPort): Promise<boolean> {
  const fault = await read(port);
  if (fault.mode === "slow") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  return fault.mode === "down";
}
