/**
 * What every `portal <noun> <verb>` shares (decision 062): where a command writes, how it refuses bad
 * input (exit code 2, nothing changed) and how a failure becomes exit code 1. A verb's action runs
 * through `runVerb`, which never lets an error escape and closes the database the command opened.
 */
import type { Command } from "commander";
import { parseMoneyToCents } from "../../app/lib/format";
import { normalizeHostname } from "../../app/services/host/host.server";

export type CliOutput = { write(text: string): unknown };

/** Where a command writes: process.stdout and process.stderr when run as a script. */
export type CliIo = { stdout: CliOutput; stderr: CliOutput };

/** A mistake in the arguments, found before anything changed: exit code 2 and a pointer to --help. */
export class UsageError extends Error {}

/** A refusal or failure the command explains in its own words (exit code 1): printed as it is. */
export class Refusal extends Error {}

/** Writes one line to `stream`. */
export const lineWriter =
  (stream: CliOutput) =>
  (line = ""): void => {
    stream.write(`${line}\n`);
  };

export type Out = ReturnType<typeof lineWriter>;

/** One run of the program: where it writes, and the exit code its verb left. */
export type Run = { io: CliIo; out: Out; exitCode: number };

/** How a person types a command, for the pointers to --help. */
export const commandLine = (command: Command): string => {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return ["npm run portal --", ...names].join(" ");
};

/** A service's refusal with field messages (a RequestProblem): its message, then each field's, indented. */
export function problemLines(problem: { message: string; fields?: Record<string, string> }): string[] {
  return [problem.message, ...Object.entries(problem.fields ?? {}).map(([field, message]) => `  ${field}: ${message}`)];
}

/**
 * A verb under `noun`: its parse errors (an unknown option, a missing argument) print a pointer to its
 * own --help. Settings such as the output and exitOverride are copied from the noun when it is made.
 */
export function verb(noun: Command, name: string, summary: string): Command {
  const command = noun.command(name).summary(summary).description(summary);
  return command.showHelpAfterError(`Run with --help for its options: ${commandLine(command)} --help`);
}

/**
 * Sets a verb's action: `handler` gets commander's arguments and returns the exit code, 0 done or 1
 * refused or failed; a UsageError is 2. Nothing thrown escapes. The database the handler opened is
 * closed again; one that was open already (a test's) stays open.
 */
export function runVerb<A extends unknown[]>(
  command: Command,
  run: Run,
  handler: (...args: A) => Promise<number>,
  { usesDatabase = true }: { usesDatabase?: boolean } = {},
) {
  command.action(async (...args: unknown[]) => {
    // `db backup` and `db restore` copy files and never open the portal's database: they load none of it.
    if (!usesDatabase) {
      try {
        run.exitCode = await handler(...(args as A));
      } catch (error) {
        run.exitCode = await report(error, command, run.io);
      }
      return;
    }
    // Loaded here, not with this module: `--help` needs none of the portal's services.
    const database = await import("../../app/services/platform/database.server");
    // As the portal does at start-up: a brand-new embedded database gets the demo hosts.
    database.onDatabaseReady(async (handle) =>
      (await import("../../db/seed/first-start")).seedNewEmbeddedDatabase(handle),
    );
    const databaseWasOpen = database.isDatabaseOpen();
    try {
      run.exitCode = await handler(...(args as A));
    } catch (error) {
      run.exitCode = await report(error, command, run.io);
    } finally {
      if (!databaseWasOpen) await database.closeDatabase();
    }
  });
  return command;
}

async function report(error: unknown, command: Command, io: CliIo): Promise<number> {
  if (error instanceof UsageError) {
    io.stderr.write(`${error.message}\n\nRun with --help for its options: ${commandLine(command)} --help\n`);
    return 2;
  }
  const { isRequestProblem } = await import("../../app/services/platform/problems.server");
  const lines = isRequestProblem(error)
    ? problemLines(error)
    : error instanceof Refusal
      ? [error.message]
      : [`Failed: ${error instanceof Error ? error.message : String(error)}`];
  for (const line of lines) io.stderr.write(`${line}\n`);
  return 1;
}

/** Collects a repeatable option's values (`--to a --to b`); undefined when it was not given. */
export const repeated = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** A required option's value, trimmed; checked here (not by commander) so the message names the option plainly. */
export function required(value: string | undefined, option: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${option} is required.`);
  return value.trim();
}

/** Money as typed (`120.50`, `1,204.50`) → cents. */
export function cents(value: string, option: string): number {
  const parsed = parseMoneyToCents(value);
  if (!parsed.ok) throw new UsageError(`--${option} ${JSON.stringify(value)}: ${parsed.error}.`);
  return parsed.cents;
}

/** "14d" → days; an ISO date-time with an offset → that moment. */
export function expiry(value: string | undefined): { expiresInDays?: number; expiresAt?: string } {
  if (value === undefined) return {};
  const days = /^(\d{1,3})d$/.exec(value.trim());
  if (days) return { expiresInDays: Number(days[1]) };
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value.trim())) {
    return { expiresAt: value.trim() };
  }
  throw new UsageError(
    `--expires ${JSON.stringify(value)}: give days (14d) or a date-time such as 2026-12-31T23:59:00+11:00.`,
  );
}

/** A page size for the list verbs: 1 to 100 (the service checks the range). */
export function pageLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,3}$/.test(value)) throw new UsageError("--limit must be a whole number from 1 to 100.");
  return Number(value);
}

/** The --host as a host name; checked before any database is opened. */
export function hostOf(value: string | undefined): string {
  const hostname = normalizeHostname(required(value, "host"));
  if (!hostname) throw new UsageError("--host must be a host name such as acme.localhost.");
  return hostname;
}

/** Opens the portal's database and finds the business served at `hostname`. */
export async function businessAt(hostname: string) {
  const { getDatabaseHandle } = await import("../../app/services/platform/database.server");
  const { findHostBranding } = await import("../../app/services/host/host.server");
  const { db } = await getDatabaseHandle();
  const branding = await findHostBranding(db, hostname);
  if (!branding) throw new UsageError(`No business is served at ${hostname}.`);
  return { db, branding, businessId: branding.businessId };
}

/** Collects emailed links when --print-link was given, and prints them. */
export function linkCollector(printLink: boolean | undefined, out: Out) {
  const links: [string, string][] = [];
  return {
    links,
    onLink: printLink
      ? (email: string, link: string) => {
          links.push([email, link]);
        }
      : undefined,
    /** The links as JSON adds them: only when some were printed. */
    json: () => (links.length ? { links: Object.fromEntries(links) } : {}),
    print: () => {
      for (const [email, link] of links) out(`  link for ${email}: ${link}`);
    },
  };
}

export const HOST_OPTION = ["--host <host>", "the business's host name, e.g. acme.localhost (required)"] as const;
export const JSON_OPTION = ["--json", "print JSON, for scripts"] as const;
export const PRINT_LINK_OPTION = [
  "--print-link",
  "also print each emailed link (demos only: a link is a key to what it opens)",
] as const;
export const DATABASE_NOTE = `
The database is the portal's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data), which
belongs to one process: stop the portal first, or use the back-office API while it runs.`;
