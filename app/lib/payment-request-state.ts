/**
 * A payment request's state as the business and the contact see it (issue 14; decision 032).
 * Three states are stored (created → sent, paid, cancelled); the rest are read from the record:
 * opened (a link was opened), part-paid (some money settled), expired (past its expiry unpaid).
 *
 *   created ──send──▶ sent ──link opened──▶ opened ──payment settles──▶ part-paid ──▶ paid
 *      │               │                      │                           │
 *      └───────────────┴──── cancel ──────────┴───────────────────────────┴──▶ cancelled
 *   any unpaid, uncancelled state past expires_at reads as expired.
 */
export const PAYMENT_REQUEST_STATES = [
  "created",
  "sent",
  "opened",
  "part-paid",
  "paid",
  "expired",
  "cancelled",
] as const;
export type PaymentRequestState = (typeof PAYMENT_REQUEST_STATES)[number];

export type PaymentRequestFacts = {
  status: "created" | "sent" | "paid" | "cancelled";
  expiresAt: Date | string;
  openedAt: Date | string | null;
  paidCents: number;
};

export function paymentRequestState(request: PaymentRequestFacts, now = new Date()): PaymentRequestState {
  if (request.status === "cancelled") return "cancelled";
  if (request.status === "paid") return "paid";
  if (new Date(request.expiresAt).getTime() <= now.getTime()) return "expired";
  if (request.paidCents > 0) return "part-paid";
  if (request.openedAt) return "opened";
  return request.status;
}

/** Whether money may still be taken against the request. */
export const isPayableState = (state: PaymentRequestState) =>
  state === "created" || state === "sent" || state === "opened" || state === "part-paid";
