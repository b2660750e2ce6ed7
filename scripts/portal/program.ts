/**
 * The portal's one command line (decision 062): `portal <noun> <verb> [options]` on commander, run
 * in-process. `runPortal(argv, io)` parses and runs one command and returns its exit code: 0 done,
 * 1 refused or failed, 2 a mistake in the arguments (nothing changed). Nothing here exits the process:
 * commander's exits are turned into errors (exitOverride) and its output goes to `io`, so a test calls
 * it with arguments and reads what it wrote.
 */
import { Command, CommanderError } from "commander";
import { DATABASE_NOTE, lineWriter, type CliIo, type Run } from "./cli";

type Noun = {
  description: string;
  /** Said after the noun's help. */
  note?: string;
  /** Its verbs, loaded only when the noun is used: each brings its services, a second or more of start-up. */
  verbs: () => Promise<(noun: Command, run: Run) => void>;
};

const NOUNS: Record<string, Noun> = {
  request: {
    description: "payment requests: create, list, send, resend, remind, cancel",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./requests")).addRequestVerbs,
  },
  adhoc: {
    description: "ad-hoc links: a contact pays the business any amount",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./requests")).addAdhocVerbs,
  },
  "invoice-link": {
    description: "links to pay one invoice: create, revoke, list",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./invoice-links")).addInvoiceLinkVerbs,
  },
  communication: {
    description: "a contact's communication preferences",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./requests")).addCommunicationVerbs,
  },
  apikey: {
    description: "back-office API keys",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./requests")).addApiKeyVerbs,
  },
  schedule: {
    description: "payment schedules: create, list, show, send, resend, withdraw, cancel",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./schedules")).addScheduleVerbs,
  },
  agreement: {
    description: "agreement documents and offers: create, version, list, offer, offers, resend, withdraw",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./agreements")).addAgreementVerbs,
  },
  jobs: {
    description: "background jobs: list, failed, stuck, show, retry",
    note: DATABASE_NOTE,
    verbs: async () => (await import("./jobs")).addJobsVerbs,
  },
  db: {
    description: "the portal's database: migrate, seed, backup, restore",
    note: "\nThe database is DATABASE_URL's, or the embedded one in DATA_DIR (default ./data): stop the portal first.",
    verbs: async () => (await import("./db")).addDbVerbs,
  },
  sandbox: {
    description: "the sandbox card gateway and PayTo provider: faults",
    verbs: async () => (await import("./sandbox")).addSandboxVerbs,
  },
};

/**
 * The program, writing to `run.io`, with the verbs of `used` (the noun typed, if it is one); the other
 * nouns are there for the top-level help and errors. Made afresh for each run: commander copies the
 * output and exitOverride settings into a command when it is added, and keeps parsed option values on it.
 */
async function program(run: Run, used: string | undefined): Promise<Command> {
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
  for (const [name, noun] of Object.entries(NOUNS)) {
    const command = portal.command(name).description(noun.description).usage("<verb> [options]");
    if (noun.note) command.addHelpText("after", noun.note);
    if (name === used) (await noun.verbs())(command, run);
  }
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
    // The noun typed (or asked about: `portal help request`), whose verbs are loaded.
    const words = argv.filter((arg) => !arg.startsWith("-"));
    const used = words[0] === "help" ? words[1] : words[0];
    const portal = await program(run, used !== undefined && Object.hasOwn(NOUNS, used) ? used : undefined);
    await portal.parseAsync(argv, { from: "user" });
    return run.exitCode;
  } catch (error) {
    // --help is exit code 0; every parse error (an unknown noun, verb or option, a missing
    // argument, a noun without its verb) is a mistake in the arguments: 2, before any verb ran.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
}
