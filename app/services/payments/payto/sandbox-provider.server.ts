import type { Db } from "../../platform/db.server";
import { getDb } from "../../platform/database.server";
import { getEnv } from "../../platform/env.server";
import type { PayToProvider } from "./payto-provider.server";
import {
  cancelAgreement,
  createAgreement,
  findAgreement,
  getAgreement,
  runDueAgreements,
} from "./sandbox/agreement-lifecycle.server";
import {
  findAgreementForBank,
  listForPayer,
  payerStep,
  type BankAgreement,
  type PayerActionResult,
} from "./sandbox/bank.server";
import type { DeliverWebhook, SandboxContext } from "./sandbox/context.server";
import { getPayment, initiatePayment, runDuePayments } from "./sandbox/payment-lifecycle.server";
import { registerPayId, sendToPayId, type SendToPayIdResult } from "./sandbox/payids.server";
import { verifySignedWebhook } from "./sandbox/signing.server";
import { deliverDue, httpDeliverer, webhookUrl } from "./sandbox/webhooks.server";

/**
 * A PayTo provider that behaves like the real ones, for development, demos and tests
 * (decision 027): it keeps its own records (the sandbox_payto_* tables, standing in for the
 * provider's storage), answers after a small delay, lets test PayIDs and accounts choose what
 * the payer's bank does, moves time by itself (`runDue`: expiry, suspension, settlement) on an
 * injected clock, and pushes every change as a signed webhook snapshot, retried until answered
 * 2xx. The payer's side (approve, decline, suspend, resume, cancel, pay a PayID) is the
 * sandbox bank page's, through the controls below.
 *
 * This file wires the parts in `./sandbox/` together: the records (`store`), the agreement and
 * payment lifecycles, the receivable PayIDs, the payer's-bank stand-in (`bank`), the test
 * identifiers that choose what the bank does (`outcomes`), webhook signing and delivery; the
 * clock that runs it in a process is `./sandbox/clock.server.ts`.
 */

export type { DeliverWebhook } from "./sandbox/context.server";
export type { BankAgreement, PayerAction, PayerActionResult } from "./sandbox/bank.server";
export { payerActionsFor } from "./sandbox/bank.server";
export {
  SANDBOX_PAYTO_TEST_ACCOUNTS,
  SANDBOX_PAYTO_TEST_BSB,
  SANDBOX_PAYTO_TEST_PAYIDS,
  type SandboxPayToOutcome,
} from "./sandbox/outcomes.server";
export { payerKeyFor, payerKeysFromInput } from "./sandbox/payer-keys.server";
export type { SendToPayIdResult } from "./sandbox/payids.server";
export { SIGNATURE_HEADER, signWebhook, verifySignedWebhook } from "./sandbox/signing.server";
export { httpDeliverer } from "./sandbox/webhooks.server";

export type SandboxPayToOptions = {
  /** The shared webhook secret (HMAC-SHA256). */
  secret: string;
  db?: () => Promise<Db>;
  delayMs?: number;
  now?: () => Date;
  /** Sends one webhook; answers the HTTP status (0: no answer). Default: node:http POST. */
  deliver?: DeliverWebhook;
  expireMs?: number;
  settleMs?: number;
  suspendMs?: number;
};

export type RunDueSummary = {
  agreements: number;
  payments: number;
  webhooksDelivered: number;
  webhooksFailed: number;
};

export type SandboxPayTo = PayToProvider & {
  readonly sandbox: true;
  payerApproves(agreementId: string): Promise<PayerActionResult>;
  payerDeclines(agreementId: string): Promise<PayerActionResult>;
  payerSuspends(agreementId: string): Promise<PayerActionResult>;
  payerResumes(agreementId: string): Promise<PayerActionResult>;
  payerCancels(agreementId: string): Promise<PayerActionResult>;
  sendToPayId(input: { payId: string; amountCents: number; payerName: string }): Promise<SendToPayIdResult>;
  /** The payer's agreements (one payer key or several candidates), pending first, then newest first. */
  listForPayer(payerKey: string | readonly string[]): Promise<BankAgreement[]>;
  findAgreementForBank(agreementId: string): Promise<BankAgreement | null>;
  /** Everything time-driven, once: expiry, the banks' own answers, settlement, webhook delivery. */
  runDue(now?: Date): Promise<RunDueSummary>;
};

/** Everything time-driven, once, in this order: agreements, then payments, then webhook delivery. */
async function runDue(ctx: SandboxContext, now: Date): Promise<RunDueSummary> {
  const agreements = await runDueAgreements(ctx, now);
  const payments = await runDuePayments(ctx, now);
  const hooks = await deliverDue(ctx, now);
  return { agreements, payments, webhooksDelivered: hooks.delivered, webhooksFailed: hooks.failed };
}

export function createSandboxPayTo(options: SandboxPayToOptions): SandboxPayTo {
  const env = getEnv();
  const delayMs = options.delayMs ?? env.SANDBOX_PAYTO_DELAY_MS;
  const ctx: SandboxContext = {
    db: options.db ?? getDb,
    // eslint-disable-next-line no-restricted-syntax -- the sandbox PayTo provider stands in for the banks, whose clock is real, not the portal's test clock
    clock: options.now ?? (() => new Date()),
    delay: () => (delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve()),
    deliver: options.deliver ?? httpDeliverer(webhookUrl()),
    expireMs: options.expireMs ?? env.SANDBOX_PAYTO_EXPIRE_MS,
    settleMs: options.settleMs ?? env.SANDBOX_PAYTO_SETTLE_MS,
    suspendMs: options.suspendMs ?? env.SANDBOX_PAYTO_SUSPEND_MS,
    secret: options.secret,
  };

  return {
    name: "PayTo sandbox",
    sandbox: true,
    createAgreement: (input) => createAgreement(ctx, input),
    getAgreement: (agreementId) => getAgreement(ctx, agreementId),
    findAgreement: (idempotencyKey) => findAgreement(ctx, idempotencyKey),
    cancelAgreement: (agreementId) => cancelAgreement(ctx, agreementId),
    initiatePayment: (input) => initiatePayment(ctx, input),
    getPayment: (idempotencyKey) => getPayment(ctx, idempotencyKey),
    registerPayId: (input) => registerPayId(ctx, input),
    verifyWebhook: (headers, rawBody, now) => verifySignedWebhook(ctx.secret, headers, rawBody, now),
    payerApproves: (id) => payerStep(ctx, id, "approve"),
    payerDeclines: (id) => payerStep(ctx, id, "decline"),
    payerSuspends: (id) => payerStep(ctx, id, "suspend"),
    payerResumes: (id) => payerStep(ctx, id, "resume"),
    payerCancels: (id) => payerStep(ctx, id, "cancel"),
    sendToPayId: (input) => sendToPayId(ctx, input),
    listForPayer: (payerKey) => listForPayer(ctx, payerKey),
    findAgreementForBank: (agreementId) => findAgreementForBank(ctx, agreementId),
    runDue: (now = ctx.clock()) => runDue(ctx, now),
  };
}

/** The configured provider when it is the sandbox (the bank page and the clock need its controls). */
export function asSandboxPayTo(provider: PayToProvider): SandboxPayTo | null {
  return (provider as Partial<SandboxPayTo>).sandbox === true ? (provider as SandboxPayTo) : null;
}
