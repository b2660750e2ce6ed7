import type { Db } from "../../../platform/db.server";

/** Sends one webhook; answers the HTTP status (0: no answer). */
export type DeliverWebhook = (hostname: string, body: string, headers: Record<string, string>) => Promise<number>;

/**
 * What every part of the PayTo sandbox works with, resolved once from the options (or the
 * configuration) by `createSandboxPayTo`: its records, its clock, its answer delay, the webhook
 * secret and sender, and how long the time-driven steps wait.
 */
export type SandboxContext = {
  db: () => Promise<Db>;
  clock: () => Date;
  /** The small wait before every answer, as a real provider's round trip. */
  delay: () => Promise<unknown>;
  secret: string;
  deliver: DeliverWebhook;
  expireMs: number;
  settleMs: number;
  suspendMs: number;
};

export const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
