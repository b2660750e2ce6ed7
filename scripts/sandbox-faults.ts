/**
 * `npm run sandbox:faults -- <gateway|payto|all> <normal|slow <ms>|down>` (decision 046): makes
 * the sandbox card gateway or PayTo provider slow or down for every portal process on the
 * configured PostgreSQL (DATABASE_URL), within a second; `show` prints the switch. For the
 * resilience bench and for trying the portal's timeouts and circuit breakers by hand.
 *
 *   npm run sandbox:faults -- gateway slow 5000
 *   npm run sandbox:faults -- payto down
 *   npm run sandbox:faults -- all normal
 *
 * It prints the switch as JSON ({"gateway":{"mode":"slow","delayMs":5000},"payto":{"mode":"normal"}})
 * and exits 0; bad arguments print the usage and exit 2, a database problem exits 1.
 */

export {};

// Before the services load: their log lines would otherwise mix with this command's output.
process.env.LOG_LEVEL ??= "warn";

const { parseFaultArgs, readFaults, setFault } = await import("../app/services/platform/sandbox-faults.server");

const parsed = parseFaultArgs(process.argv.slice(2));
if (!parsed.ok) {
  process.stderr.write(`${parsed.message}\n`);
  process.exit(2);
}
if (!process.env.DATABASE_URL) {
  // The embedded database belongs to the one portal process that has it open.
  process.stderr.write("sandbox:faults needs DATABASE_URL: the switch is shared through PostgreSQL\n");
  process.exit(2);
}

const { getDatabaseHandle } = await import("../app/services/platform/database.server");
let exitCode = 0;
try {
  const handle = await getDatabaseHandle();
  try {
    if ("ports" in parsed) await setFault(handle.db, parsed.ports, parsed.fault);
    process.stdout.write(`${JSON.stringify(await readFaults(handle.db))}\n`);
  } finally {
    await handle.close();
  }
} catch (error) {
  process.stderr.write(`sandbox:faults failed: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
}
process.exit(exitCode);
