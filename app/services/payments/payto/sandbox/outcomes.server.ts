import type { PayToDebtor } from "../payto-provider.server";
import { later } from "./context.server";

/**
 * The sandbox's fault injection: test PayIDs and test accounts (README lists them) choose what
 * the payer's bank does with an agreement — approve or decline by itself, let it expire, suspend
 * or lapse it later, leave no funds, be unavailable, or answer too slowly. Any other debtor is a
 * real payer, who answers on the sandbox bank page.
 */

/** What the payer's bank does with an agreement, chosen by the test identifiers. */
export type SandboxPayToOutcome =
  "payer" | "approve" | "decline" | "expire" | "suspend" | "nofunds" | "lapsed" | "unavailable" | "slow";

/** The test PayIDs (README lists them); BSB 000000 with the accounts below does the same. */
export const SANDBOX_PAYTO_TEST_PAYIDS: Record<string, SandboxPayToOutcome> = {
  "approve@payto.test": "approve",
  "decline@payto.test": "decline",
  "expire@payto.test": "expire",
  "suspend@payto.test": "suspend",
  "nofunds@payto.test": "nofunds",
  "lapsed@payto.test": "lapsed",
  "unavailable@payto.test": "unavailable",
  "slow@payto.test": "slow",
};

export const SANDBOX_PAYTO_TEST_BSB = "000000";
export const SANDBOX_PAYTO_TEST_ACCOUNTS: Record<string, SandboxPayToOutcome> = {
  "10000001": "approve",
  "10000002": "decline",
  "10000003": "expire",
  "10000004": "suspend",
  "10000005": "nofunds",
  "10000006": "lapsed",
  "10000007": "unavailable",
  "10000008": "slow",
};

/** Outcomes whose bank answers by itself, a moment after the agreement is created. */
export const AUTO_DECISION: Partial<Record<SandboxPayToOutcome, "approve" | "decline">> = {
  approve: "approve",
  decline: "decline",
  suspend: "approve",
  nofunds: "approve",
  lapsed: "approve",
  slow: "approve",
};

/** How long a bank that answers by itself takes: long enough to see "waiting for the payer". */
export const AUTO_DECISION_MS = 1_000;

export function outcomeFor(debtor: PayToDebtor): SandboxPayToOutcome {
  if (debtor.kind === "bban") {
    if (debtor.bsb !== SANDBOX_PAYTO_TEST_BSB) return "payer";
    return Object.hasOwn(SANDBOX_PAYTO_TEST_ACCOUNTS, debtor.accountNumber)
      ? SANDBOX_PAYTO_TEST_ACCOUNTS[debtor.accountNumber]!
      : "payer";
  }
  const value = debtor.aliasValue.trim().toLowerCase();
  return Object.hasOwn(SANDBOX_PAYTO_TEST_PAYIDS, value) ? SANDBOX_PAYTO_TEST_PAYIDS[value]! : "payer";
}

/** What the outcome does next once the payer has approved. */
export function afterApproval(outcome: string, now: Date, suspendMs: number) {
  if (outcome === "suspend") return { action: "suspend", at: later(now, suspendMs) };
  if (outcome === "lapsed") return { action: "lapse", at: later(now, suspendMs) };
  return null;
}
