import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import type { DatabaseHandle } from "./db.server";
import { migrate } from "./migrate.server";
import {
  cachedFaultReader,
  parseFaultArgs,
  readFaults,
  setFault,
  sufferFault,
  type FaultReader,
} from "./sandbox-faults.server";

const run = promisify(execFile);

/** The CLI as the bench calls it: exit code, stdout, stderr. */
async function cli(args: string[], env: Record<string, string | undefined>) {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "scripts/portal.ts", "sandbox", "faults", ...args], {
      env: { ...process.env, ...env, LOG_LEVEL: "silent" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("the fault switch's arguments", () => {
  it.each([
    [["gateway", "slow", "5000"], { ports: ["gateway"], fault: { mode: "slow", delayMs: 5000 } }],
    [["payto", "down"], { ports: ["payto"], fault: { mode: "down" } }],
    [["all", "normal"], { ports: ["gateway", "payto"], fault: { mode: "normal" } }],
  ])("%j", (args, expected) => {
    expect(parseFaultArgs(args)).toEqual({ ok: true, ...expected });
  });

  it.each([
    [[]],
    [["gateway"]],
    [["bank", "down"]],
    [["gateway", "broken"]],
    [["gateway", "slow"]],
    [["gateway", "slow", "0"]],
    [["gateway", "slow", "-5"]],
    [["gateway", "slow", "5s"]],
    [["gateway", "slow", "120001"]],
    [["gateway", "slow", "1e3"]],
    [["gateway", "down", "5000"]],
    [["gateway", "normal", "x"]],
    [["gateway", "slow", "5000", "extra"]],
    [["__proto__", "down"]],
  ])("refuses %j with the usage", (args) => {
    const parsed = parseFaultArgs(args);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain("usage: portal sandbox faults");
  });
});

describe("the fault switch in the database", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openSeededPglite();
  });
  afterAll(async () => {
    await handle.close();
  });

  it("is normal until set, keeps each port apart, and a reader sees a change after its cache", async () => {
    expect(await readFaults(handle.db)).toEqual({ gateway: { mode: "normal" }, payto: { mode: "normal" } });
    const read = cachedFaultReader(async () => handle.db, { cacheMs: 60_000 });
    expect(await read("gateway")).toEqual({ mode: "normal" });
    await setFault(handle.db, ["gateway"], { mode: "slow", delayMs: 30 });
    // Cached: this process has not looked again yet.
    expect(await read("gateway")).toEqual({ mode: "normal" });
    const fresh = cachedFaultReader(async () => handle.db, { cacheMs: 0 });
    expect(await fresh("gateway")).toEqual({ mode: "slow", delayMs: 30 });
    expect(await fresh("payto")).toEqual({ mode: "normal" });
    await setFault(handle.db, ["gateway", "payto"], { mode: "down" });
    expect(await sufferFault(fresh, "payto")).toBe(true);
    await setFault(handle.db, ["gateway", "payto"], { mode: "normal" });
    expect(await readFaults(handle.db)).toEqual({ gateway: { mode: "normal" }, payto: { mode: "normal" } });
  });

  it("a slow port waits out exactly its delay, on fake timers, and then answers (not down)", async () => {
    // The reader is a stand-in (the test above reads the real table): only the wait is under test here.
    const slow: FaultReader = async () => ({ mode: "slow", delayMs: 30 });
    vi.useFakeTimers();
    try {
      let settled = false;
      const suffering = sufferFault(slow, "gateway");
      void suffering.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(29);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      expect(await suffering).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the table refuses a switch the CLI would never write", async () => {
    await expect(
      handle.db.insertInto("sandbox_faults").values({ port: "gateway", mode: "slow", delay_ms: 0 }).execute(),
    ).rejects.toThrow();
    await expect(
      handle.db
        .insertInto("sandbox_faults")
        .values({ port: "bank" as "gateway", mode: "down" })
        .execute(),
    ).rejects.toThrow();
  });

  it("a database that cannot be read means normal, never a failed payment", async () => {
    const read = cachedFaultReader(async () => {
      throw new Error("no database");
    });
    expect(await read("gateway")).toEqual({ mode: "normal" });
  });
});

// Each run starts tsx (several seconds on the shared machine).
describe("npm run portal -- sandbox faults", { timeout: 90_000 }, () => {
  it("refuses bad arguments with the usage and exit code 2, touching nothing", async () => {
    const result = await cli(["gateway", "slow", "soon"], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("usage: portal sandbox faults");
    expect(result.stdout).toBe("");
  });

  it("refuses to run without DATABASE_URL (exit 2)", async () => {
    const result = await cli(["gateway", "down"], { DATABASE_URL: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("needs DATABASE_URL");
  });

  it.skipIf(!TEST_DATABASE_URL)("sets and shows the switch on PostgreSQL", async () => {
    const database = await createPostgresDatabase();
    try {
      await migrate(database.handle);
      const env = { DATABASE_URL: database.url, SEED_DEMO_DATA: "false" };
      const set = await cli(["gateway", "slow", "5000"], env);
      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout)).toEqual({ gateway: { mode: "slow", delayMs: 5000 }, payto: { mode: "normal" } });
      expect(await readFaults(database.handle.db)).toMatchObject({ gateway: { mode: "slow", delayMs: 5000 } });
      const shown = await cli(["show"], env);
      expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(set.stdout));
    } finally {
      await database.drop();
    }
  });
});
