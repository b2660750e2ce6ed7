/**
 * What the back-office CLIs (requests, schedules, agreements, jobs) share (issue 29). Each exports
 * `runCli(argv, io)`: one command, run in-process, returning its exit code, so that tests call it
 * with arguments and read what it wrote. Run as a script (`npm run request:list -- …`), the file
 * calls it with the process's own streams and sets process.exitCode.
 *
 * This module imports no service: a CLI sets LOG_LEVEL before its services load.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type CliOutput = { write(text: string): unknown };

/** Where a command writes: process.stdout and process.stderr when run as a script. */
export type CliIo = { stdout: CliOutput; stderr: CliOutput };

/** A command's mistake in its arguments: exit code 2 and a pointer to --help. */
export class UsageError extends Error {}

/** Writes one line to `stream`. */
export const lineWriter =
  (stream: CliOutput) =>
  (line = ""): void => {
    stream.write(`${line}\n`);
  };

export type Out = ReturnType<typeof lineWriter>;

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** Whether the module at `moduleUrl` is the script this process was started with, rather than an import. */
export function isScript(moduleUrl: string): boolean {
  const started = process.argv[1];
  return started !== undefined && realPath(started) === realPath(fileURLToPath(moduleUrl));
}
