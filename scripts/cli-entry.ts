/**
 * What the back-office CLIs (requests, schedules, agreements, jobs) share (issue 29). Each exports
 * `runCli(argv, io)`: one command, run in-process, returning its exit code, so that tests call it
 * with arguments and read what it wrote. Run as a script (`npm run request:list -- …`), the file
 * calls it with the process's own streams and sets process.exitCode.
 *
 * This module imports no service when it loads: a CLI sets LOG_LEVEL before its services load.
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

/** How one CLI family runs a command: its parser and dispatcher, and the database it may have opened. */
export type CommandFamily = {
  main: (argv: string[], io: CliIo) => Promise<number>;
  /**
   * A failure the family reports as its own (exit code 1): the lines to print, or undefined for any
   * other error, which prints as "Failed: <message>".
   */
  explain?: (error: unknown) => string[] | undefined;
  /** The portal's database handle: closed after the command unless it was already open (a test's). */
  database: { isOpen: () => boolean; close: () => Promise<void> };
};

/**
 * Runs one command of a family and returns its exit code: 0 done, 1 failed, 2 a mistake in the
 * arguments (with a pointer to --help). Nothing thrown escapes, so a test reads the code and the
 * output, and a script sets process.exitCode from it.
 */
export async function runCommand(family: CommandFamily, argv: string[], io: CliIo): Promise<number> {
  const databaseWasOpen = family.database.isOpen();
  // As the portal does at start-up: a brand-new embedded database gets the demo hosts.
  const { onDatabaseReady } = await import("../app/services/platform/database.server");
  const { seedNewEmbeddedDatabase } = await import("../db/seed/first-start");
  onDatabaseReady(seedNewEmbeddedDatabase);
  try {
    return await family.main(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n\nRun with --help for the commands and their options.\n`);
      return 2;
    }
    const lines = family.explain?.(error);
    if (lines) {
      for (const line of lines) io.stderr.write(`${line}\n`);
      return 1;
    }
    io.stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    if (!databaseWasOpen) await family.database.close();
  }
}

/** A service's refusal with field messages (a RequestProblem): its message, then each field's, indented. */
export function problemLines(problem: { message: string; fields?: Record<string, string> }): string[] {
  return [problem.message, ...Object.entries(problem.fields ?? {}).map(([field, message]) => `  ${field}: ${message}`)];
}

/**
 * Runs one command of a back-office family whose services refuse with a RequestProblem (requests,
 * schedules, agreements): its message and field messages are printed, exit code 1. The services load
 * here, when a command runs, not when this module does (a script sets LOG_LEVEL first).
 */
export async function runBackOfficeCommand(main: CommandFamily["main"], argv: string[], io: CliIo): Promise<number> {
  const { isRequestProblem } = await import("../app/services/requests/problems.server");
  const { closeDatabase, isDatabaseOpen } = await import("../app/services/platform/database.server");
  const explain = (error: unknown) => (isRequestProblem(error) ? problemLines(error) : undefined);
  return runCommand({ main, explain, database: { isOpen: isDatabaseOpen, close: closeDatabase } }, argv, io);
}
