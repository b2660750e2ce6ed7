import type { IncomingPayment } from "./payto-provider.server";

/**
 * Applies money that arrived at an account's receivable PayID to its oldest invoices, once per
 * provider transaction id. "unknown": no account of `businessId` has that PayID.
 * Placeholder until helper "payto-payid" lands.
 */
export async function applyIncomingPayment(
  _businessId: string,
  _incoming: IncomingPayment,
): Promise<"applied" | "duplicate" | "unknown"> {
  throw new Error("Receivable PayIDs are not built yet");
}
