/**
 * `npm run portal -- <noun> <verb> [options]`: the portal's one command line (decision 062).
 * `npm run portal -- --help` lists the nouns; every noun and verb has its own --help.
 * The commands live in scripts/portal/ and run in-process through `runPortal`, which tests call.
 */

export {};

// Before the services load: their log lines would otherwise mix with the command's output.
process.env.LOG_LEVEL ??= "warn";

const { runPortal } = await import("./portal/program");
process.exitCode = await runPortal(process.argv.slice(2), process);
