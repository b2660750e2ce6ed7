import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, vi } from "vitest";
import { PGLITE_PARSERS } from "../../app/services/platform/db.server";
import { resetEnvForTesting } from "../../app/services/platform/env.server";
import { runPortal } from "../../scripts/portal/program";
import { SNAPSHOT_FILE } from "./snapshot";

export type CliResult = { code: number | null; stdout: string; stderr: string };

/**
 * A portal command run in-process (issue 29; decision 062): `runPortal` called with the arguments that
 * follow `npm run portal --`, its output captured. It uses the process's configuration and database,
 * as the command line does: the test sets DATA_DIR or DATABASE_URL, or installs an open database with
 * setDatabaseForTesting.
 */
export async function runInProcess(args: string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runPortal(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/**
 * `npm run portal -- <args>` as a real process: the one test per noun that proves the npm script and
 * scripts/portal.ts are wired up. Only the variables given (and PATH, HOME) reach it.
 */
export function runNpmScript(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "portal", "--", ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        SESSION_SECRET: "cli-test-secret-cli-test-secret-0123456",
        NODE_ENV: "test",
        SEED_DEMO_DATA: "false",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Writes the run's migrated and seeded snapshot as the embedded database of `dataDir` (its
 * `pglite` folder, where the portal keeps it), for a CLI process to open as `npm start` would.
 */
export async function writeSeededDataDir(dataDir: string): Promise<void> {
  const pgliteDir = path.join(dataDir, "pglite");
  fs.mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(pgliteDir, {
    loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]),
    parsers: PGLITE_PARSERS,
  });
  await pglite.close();
}

/**
 * A temporary DATA_DIR for the enclosing suite (where a CLI's mail lands, in DATA_DIR/outbox), made
 * before its tests and removed after; returns a getter for its path.
 */
export function useCliDataDir(prefix: string): () => string {
  let dataDir: string | undefined;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    vi.stubEnv("DATA_DIR", dataDir);
    resetEnvForTesting();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetEnvForTesting();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return () => dataDir!;
}
