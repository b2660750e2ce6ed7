import type { ProviderAgreement } from "./payto-provider.server";

export type SnapshotSource = "portal" | "webhook" | "poll" | "payment";

/**
 * Applies the provider's snapshot of an agreement of `businessId` (decision 027's table).
 * "unknown": we never made that agreement. Placeholder until helper "payto-agreements" lands.
 */
export async function applyAgreementSnapshot(
  _businessId: string,
  _snapshot: ProviderAgreement,
  _source: SnapshotSource,
): Promise<"applied" | "stale" | "impossible" | "unknown"> {
  throw new Error("PayTo agreements are not built yet");
}
