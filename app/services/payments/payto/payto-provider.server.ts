import type { AgreementStatus, PayToPaymentFailure, ProviderPaymentStatus } from "~/lib/payto-states";

/**
 * The PayTo provider port (ARCHITECTURE: "External parties"; decision 027). Providers such as
 * Zepto, Monoova, Azupay or Shaype create agreements (mandates) for a payer's bank account,
 * initiate payments under active ones, and push every change to a signed webhook; this
 * interface is what the portal needs of any of them. Adapters: the sandbox (default,
 * `PAYTO_PROVIDER=sandbox`) and, in a deployment, the business's real provider.
 *
 * Snapshots, not deltas: every answer and every webhook carries the object's whole current
 * state with a version that grows with each change, so the portal can apply them in any order.
 */

/** Why the provider refused a request outright (nothing was created). */
export type PayToRefusal =
  "invalid_account" | "invalid_payid" | "limit_exceeded" | "agreement_not_active" | "unavailable";

/** Why a PayTo payment did not go through: the provider's refusal on initiation, or its rejection later. */
export type PayToRefusalCode = PayToRefusal | PayToPaymentFailure;

/** The payer's account, as the spec's payToDebtorInformation names it (spec §3). */
export type PayToDebtor = {
  /** Always "PERS" (spec §9). */
  partyType: "PERS";
  partyName: string;
  ultimatePartyName: string;
} & (
  | { kind: "bban"; bsb: string; accountNumber: string }
  | { kind: "alias"; aliasType: "EMAL" | "TELI" | "AUBN" | "ORGN"; aliasValue: string }
);

export type CreateAgreementInput = {
  /** Ours (business:requestGuid): a repeat returns the first agreement. */
  idempotencyKey: string;
  /** Which business the agreement is for (the provider's merchant reference). */
  merchant: string;
  /** Where this business's webhooks go (its host name). */
  hostname: string;
  debtor: PayToDebtor;
  /** The most one payment under the agreement may take. */
  maxAmountCents: number;
  /** What the payer sees in their banking app, e.g. "Acme Plumbing Supplies — account 10042". */
  description: string;
};

export type ProviderAgreement = {
  agreementId: string;
  idempotencyKey: string;
  merchant: string;
  status: AgreementStatus;
  /** Grows by one with every change. */
  version: number;
  /** Why it is in this state, when the bank says (e.g. "Declined by payer"). */
  statusReason: string | null;
  maxAmountCents: number;
  updatedAt: string;
};

export type InitiatePaymentInput = {
  agreementId: string;
  amountCents: number;
  currency: string;
  /** Ours (business:requestGuid): a repeat returns the first payment, never a second one. */
  idempotencyKey: string;
  /** What the payer's statement shows, e.g. the payment reference. */
  description: string;
};

export type ProviderPayment = {
  paymentId: string;
  idempotencyKey: string;
  /** The business the agreement is for (as on the agreement). */
  merchant: string;
  agreementId: string;
  status: ProviderPaymentStatus;
  version: number;
  amountCents: number;
  failureReason: PayToPaymentFailure | null;
  updatedAt: string;
};

export type RegisterPayIdInput = {
  payId: string;
  merchant: string;
  hostname: string;
  /** The portal's reference for money arriving at this PayID (the account id). */
  reference: string;
  /** The name a payer's bank shows when they look the PayID up. */
  name: string;
};

/** Money that arrived at a receivable PayID. */
export type IncomingPayment = {
  transactionId: string;
  payId: string;
  reference: string;
  merchant: string;
  amountCents: number;
  payerName: string;
  receivedAt: string;
};

/** A webhook event: the whole current state of one object. */
export type PayToEvent =
  | { id: string; type: "agreement.updated"; createdAt: string; data: ProviderAgreement }
  | { id: string; type: "payment.updated"; createdAt: string; data: ProviderPayment }
  | { id: string; type: "payid.received"; createdAt: string; data: IncomingPayment };

export type WebhookVerification =
  | { ok: true; event: PayToEvent }
  | { ok: false; reason: "missing_signature" | "bad_signature" | "stale_timestamp" | "malformed" };

export type ProviderResult<T> = { ok: true; value: T } | { ok: false; refusal: PayToRefusal };

/**
 * The provider did not answer in time. The request may or may not have been carried out:
 * callers that move money must ask by their idempotency key before trying again.
 */
export class PayToTimeoutError extends Error {
  constructor(message = "The PayTo provider did not answer in time") {
    super(message);
    this.name = "PayToTimeoutError";
  }
}

export interface PayToProvider {
  /** Shown to the customer ("Your bank will ask you to approve … through <name>"). */
  readonly name: string;
  createAgreement(input: CreateAgreementInput): Promise<ProviderResult<ProviderAgreement>>;
  getAgreement(agreementId: string): Promise<ProviderAgreement | null>;
  /** The agreement created with our key, if any (a creation that timed out). */
  findAgreement(idempotencyKey: string): Promise<ProviderAgreement | null>;
  /** Cancelled by the business. Cancelling a cancelled agreement answers it as it is. */
  cancelAgreement(agreementId: string): Promise<ProviderResult<ProviderAgreement>>;
  initiatePayment(input: InitiatePaymentInput): Promise<ProviderResult<ProviderPayment>>;
  /** The payment made with our key, if any: how a time-out is reconciled, and the poll. */
  getPayment(idempotencyKey: string): Promise<ProviderPayment | null>;
  /** Registers (or answers the existing) receivable PayID that pays into one account. */
  registerPayId(input: RegisterPayIdInput): Promise<ProviderResult<{ payId: string }>>;
  /**
   * Checks a webhook: the HMAC-SHA256 over `<timestamp>.<raw body>` with the shared secret,
   * in constant time, and the timestamp within the tolerance. Nothing else is trusted.
   */
  verifyWebhook(headers: Headers, rawBody: string, now: Date): WebhookVerification;
}
