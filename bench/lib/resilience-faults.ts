import type { Db } from "../../app/services/platform/db.server";

/**
 * The sandboxes' fault switch, shared by every portal process (the card gateway and the PayTo
 * provider made slow or unreachable at run time). Placeholder until the ports' switch lands.
 */
export async function sandboxFaultsAvailable(): Promise<boolean> {
  return false;
}

export async function setSandboxFault(_db: Db, _mode: "slow" | "down" | "off", _ms: number): Promise<void> {
  throw new Error("no fault switch for the sandboxes in this build");
}
