import type { Db } from "../platform/db.server";
import type { PaymentStatus } from "../platform/db-schema.server";
import type { GatewayRefusal } from "./gateway/card-gateway.server";
import type { PayToRefusalCode } from "./payto/payto-provider.server";

/**
 * What submitting, settling and reconciling a payment share: the shapes of a submission and of
 * its answer, the statuses that decide what a payment holds, and the stored payment read back
 * as that answer. The use cases are `submit.server.ts` (with `claim.server.ts`), `settle.server.ts`
 * and `reconcile.server.ts`; PayTo's side is `payto/payto-payments.server.ts`.
 */

/** Who pays: the signed-in contact (or link payer) of an account of a business. */
export type Actor = { businessId: string; accountId: string; contactId: string; clientIp: string };

export type PaySelection = { invoiceId: string; amountCents: number }[];

export type NewCard = {
  cardNumber: string;
  cvn: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string;
  save: boolean;
  authorityReference: string;
};

export type PayMethod =
  | { kind: "saved-card"; cardId: string }
  | { kind: "new-card"; card: NewCard }
  /**
   * A new card already tokenised and held for this requestGuid (the confirm step, decision 071):
   * the held card's id and the hash of the holding browser's binding.
   */
  | { kind: "held-card"; heldCardId: string; holderHash: string }
  | { kind: "promise"; promiseDate: string }
  /** Pulled under the account's ACTIVE PayTo agreement (our payto_agreements.id). */
  | { kind: "payto"; agreementId: string };

/**
 * What the money is for. invoices (the default): the selection. request: a payment request —
 * of invoices (the selection, a subset of the request's) or of a stated amount (`creditCents`,
 * no selection). adhoc: any amount the business allows, no invoices: credit on the account.
 */
export type PaymentFor =
  | { kind: "invoices" }
  | { kind: "request"; requestId: string; creditCents?: number }
  | { kind: "adhoc"; creditCents: number; payerReference: string }
  /**
   * One instalment of a payment schedule (decision 035), claimed for this requestGuid by
   * payInstalment: exactly its amount (a card's surcharge on top; no late fee, no discount),
   * allocated to the schedule's invoices oldest due first, the rest credit on the account.
   */
  | { kind: "instalment"; instalmentId: string };

export type SubmitPaymentInput = {
  requestGuid: string;
  selection: PaySelection;
  /** Default: the invoices of the selection. */
  paymentFor?: PaymentFor;
  /** The emailed link the payment is made from (decision 031): its payer's receipt follows it. */
  linkTokenId?: string;
  method: PayMethod;
  note: string;
  currency: string;
  today: string;
  /** The total the customer saw; a different total now is refused (prices moved or were tampered with). */
  expectedAmountCents?: number;
};

/**
 * agreement: no such agreement on this account (another account's or business's id);
 * agreementInactive: ours but not ACTIVE (pending, suspended, ended); limit: above the
 * business's or the agreement's PayTo maximum; method: PayTo is not offered here.
 */
export type PaymentProblem =
  | "invoice"
  | "amount"
  | "card"
  | "request"
  | "agreement"
  | "agreementInactive"
  | "limit"
  | "method"
  // A payment request (decision 032): paid, expired or cancelled; must be paid in full;
  // below its minimum part-payment; more than is left of it.
  | "requestClosed"
  | "fullPaymentRequired"
  | "belowMinimum"
  | "aboveRemaining"
  // Ad-hoc payments (decision 033): not taken by this business; below or above its limits.
  | "adhocDisabled"
  | "aboveMaximum"
  // An instalment (decision 035): not this account's, or not claimed for this attempt
  // (not processing under this requestGuid, or its schedule is not active or in arrears).
  | "instalment"
  // The confirm step's held card (decision 071): expired, another browser's, or never made.
  | "heldCard";

export type PaymentOutcome =
  | { kind: "succeeded"; paymentId: string; reference: string }
  | { kind: "promised"; paymentId: string; reference: string }
  | { kind: "declined"; paymentId: string; reference: string; method: "card"; refusal: GatewayRefusal }
  | { kind: "declined"; paymentId: string; reference: string; method: "payto"; refusal: PayToRefusalCode }
  /** PayTo: the provider accepted it; it settles (or is rejected) later. */
  | { kind: "submitted"; paymentId: string; reference: string }
  | { kind: "pending"; paymentId: string; reference: string }
  | { kind: "conflict" }
  | { kind: "invalid"; problem: PaymentProblem };

/** Statuses an invoice can be paid in: Open, Overdue, Promise, Broken Promise (spec §3 codes). */
export const PAYABLE_STATUSES = [1, 3, 7, 8] as const;

/**
 * Payments that still hold their invoices' balances: not answered yet, answer lost, or (PayTo)
 * accepted by the provider and waiting to settle. A card payment of invoices a PayTo payment
 * is settling is refused until it settles or is rejected.
 */
export const RESERVING_STATUSES: PaymentStatus[] = ["pending", "unknown", "submitted"];

/** Our idempotency key at the gateway and the PayTo provider: one payment per business and guid. */
export const gatewayKey = (businessId: string, requestGuid: string) => `${businessId}:${requestGuid}`;

type StoredPayment = {
  id: string;
  status: PaymentStatus;
  method: "card" | "payto" | "payid" | "promise";
  request_hash: string;
  reference: string;
  failure_code: string | null;
};

/** The columns a payment is answered from. */
export const STORED = ["id", "status", "method", "request_hash", "reference", "failure_code"] as const;

/** A stored payment as the answer to its submission. */
export function outcomeOf(payment: StoredPayment): PaymentOutcome {
  switch (payment.status) {
    case "succeeded":
      return { kind: "succeeded", paymentId: payment.id, reference: payment.reference };
    case "promised":
      return { kind: "promised", paymentId: payment.id, reference: payment.reference };
    case "submitted":
      return { kind: "submitted", paymentId: payment.id, reference: payment.reference };
    case "failed":
      return payment.method === "payto"
        ? {
            kind: "declined",
            paymentId: payment.id,
            reference: payment.reference,
            method: "payto",
            refusal: (payment.failure_code as PayToRefusalCode | null) ?? "declined",
          }
        : {
            kind: "declined",
            paymentId: payment.id,
            reference: payment.reference,
            method: "card",
            refusal: (payment.failure_code as GatewayRefusal | null) ?? "declined",
          };
    default:
      return { kind: "pending", paymentId: payment.id, reference: payment.reference };
  }
}

/** A payment as it stands now, to answer from. */
export const storedPayment = (db: Db, paymentId: string) =>
  db.selectFrom("payments").select(STORED).where("id", "=", paymentId).executeTakeFirstOrThrow();

/** The payment of a business made with this guid, if any (in or out of a transaction). */
export async function findByGuid(db: Db, businessId: string, requestGuid: string) {
  return db
    .selectFrom("payments")
    .select(STORED)
    .where("business_id", "=", businessId)
    .where("request_guid", "=", requestGuid)
    .executeTakeFirst();
}
