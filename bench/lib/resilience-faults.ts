import type { Db } from "../../app/services/platform/db.server";
import { setFault } from "../../app/services/platform/sandbox-faults.server";

/**
 * The sandboxes' fault switch (decision 046), shared by every portal process through the
 * database: the card gateway and the PayTo provider together slow (`ms` per call), down, or
 * back to normal. The processes see a change within a second.
 */
export async function setSandboxFault(db: Db, mode: "slow" | "down" | "normal", ms: number): Promise<void> {
  await setFault(
    db,
    ["gateway", "payto"],
    mode === "slow" ? { mode: "slow", delayMs: ms } : mode === "down" ? { mode: "down" } : { mode: "normal" },
  );
}
