/**
 * `portal sandbox faults <gateway|payto|all> <normal|slow <ms>|down>` (decision 046): makes the sandbox
 * card gateway or PayTo provider slow or down for every portal process on the configured PostgreSQL
 * (DATABASE_URL), within a second; `portal sandbox faults show` prints the switch. For the resilience
 * bench and for trying the portal's timeouts and circuit breakers by hand.
 *
 *   npm run portal -- sandbox faults gateway slow 5000
 *   npm run portal -- sandbox faults payto down
 *   npm run portal -- sandbox faults all normal
 *
 * It prints the switch as JSON ({"gateway":{"mode":"slow","delayMs":5000},"payto":{"mode":"normal"}})
 * and exits 0; bad arguments exit 2, a database problem exits 1.
 */
import type { Command } from "commander";
import { getDatabaseHandle } from "../../app/services/platform/database.server";
import { parseFaultArgs, readFaults, setFault } from "../../app/services/platform/sandbox-faults.server";
import { runVerb, UsageError, verb, type Run } from "./cli";

/** The verbs of `portal sandbox`. */
export function addSandboxVerbs(noun: Command, run: Run): void {
  const faults = verb(noun, "faults", "make the sandbox gateway or PayTo provider slow or down, or show the switch")
    .usage("<gateway|payto|all> <normal|slow <ms>|down>  |  show")
    .argument("<port>", "gateway, payto or all; or show")
    .argument("[mode]", "normal, slow or down")
    .argument("[ms]", "slow's delay in milliseconds")
    .addHelpText(
      "after",
      "\nNeeds DATABASE_URL: the switch is shared through PostgreSQL, and every portal process obeys it within a second.",
    );
  runVerb(faults, run, async (port: string, mode: string | undefined, ms: string | undefined) => {
    const parsed = parseFaultArgs([port, mode, ms].filter((arg): arg is string => arg !== undefined));
    if (!parsed.ok) throw new UsageError(parsed.message);
    // The embedded database belongs to the one portal process that has it open.
    if (!process.env.DATABASE_URL)
      throw new UsageError("sandbox faults needs DATABASE_URL: the switch is shared through PostgreSQL");
    const { db } = await getDatabaseHandle();
    if ("ports" in parsed) await setFault(db, parsed.ports, parsed.fault);
    run.out(JSON.stringify(await readFaults(db)));
    return 0;
  });
}
