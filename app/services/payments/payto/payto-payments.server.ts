import type { ProviderPayment } from "./payto-provider.server";

/**
 * Applies the provider's snapshot of a PayTo payment of `businessId`: settles it (balances,
 * statement, receipt email) or releases its reservation, once. "unknown": we never made it.
 * Placeholder until helper "payto-pay" lands.
 */
export async function applyPaymentSnapshot(
  _businessId: string,
  _snapshot: ProviderPayment,
  _source: "webhook" | "poll",
): Promise<"applied" | "stale" | "unknown"> {
  throw new Error("PayTo payments are not built yet");
}
