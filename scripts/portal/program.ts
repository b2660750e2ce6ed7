/**
 * The portal's one command line (decision 062): `portal <noun> <verb> [options]` on commander, run
 * in-process. `runPortal(argv, io)` parses and runs one command and returns its exit code: 0 done,
 * 1 refused or failed, 2 a mistake in the arguments (nothing changed). Nothing here exits the process:
 * commander's exits are turned into errors (exitOverride) and its output goes to `io`, so a test calls
 * it with arguments and reads what it wrote.
 */
import { Command, CommanderError } from "commander";
import { addAgreementCommands } from "./agreements";
import { lineWriter, type CliIo, type Run } from "./cli";
import { addDbCommands } from "./db";
import { addJobsCommands } from "./jobs";
import { addRequestCommands } from "./requests";
import { addSandboxCommands } from "./sandbox";
import { addScheduleCommands } from "./schedules";

/**
 * The program, writing to `run.io`. Made afresh for each run: commander copies the output and
 * exitOverride settings into a command when it is added, and keeps parsed option values on it.
 */
function program(run: Run): Command {
  const portal = new Command("portal")
    .description("The payments portal's back-office and operations commands.")
    .usage("<noun> <verb> [options]")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => run.io.stdout.write(text),
      writeErr: (text) => run.io.stderr.write(text),
    })
    // An unknown noun or verb prints the commands there are.
    .showHelpAfterError()
    .addHelpText("after", "\nEach noun and each verb has its own --help, e.g. npm run portal -- request create --help");
  addRequestCommands(portal, run);
  addScheduleCommands(portal, run);
  addAgreementCommands(portal, run);
  addJobsCommands(portal, run);
  addDbCommands(portal, run);
  addSandboxCommands(portal, run);
  return portal;
}

/**
 * Runs one command (`argv` as typed after `npm run portal --`: ["request", "list", "--host", "acme.localhost"]),
 * writing to `io`, and returns its exit code. It uses the process's database (DATABASE_URL, or the
 * embedded one in DATA_DIR): opened if nothing in the process has opened it yet, and then closed; a
 * database the caller had open stays open.
 */
export async function runPortal(argv: string[], io: CliIo): Promise<number> {
  const run: Run = { io, out: lineWriter(io.stdout), exitCode: 0 };
  try {
    await program(run).parseAsync(argv, { from: "user" });
    return run.exitCode;
  } catch (error) {
    // --help is exit code 0; every parse error (an unknown noun, verb or option, a missing
    // argument, a noun without its verb) is a mistake in the arguments: 2, before any verb ran.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
}
