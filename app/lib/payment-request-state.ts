/**
 * A payment request's state as the business and the contact see it (issue 14; decision 032).
 * Three states are stored (created → sent, paid, cancelled); the rest are read from the record:
 * opened (a link was opened), part-paid (some of it is paid), expired (past its expiry unpaid).
 * A request is also paid, stored or not, once nothing it asked for is owing — a request of
 * invoices whose invoices were paid another way (the pay page, an invoice link, a PayID
 * transfer) reads as paid without the engine having marked it (decision 032, "Paid is read").
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
  /** What the request asked for when it was made. */
  amountCents: number;
  /** What payments of the request itself have paid of it. */
  paidCents: number;
  /**
   * What is still owing now (`requestOwingCents`): a request of invoices, Σ least(asked, balance)
   * over all its invoices, whatever paid them; a stated amount, amount − paid.
   */
  owingCents: number;
};

/** What a request still asks for: a request of invoices, what is owing on them (at most what was asked of each). */
export function requestOwingCents(
  request: { kind: "invoices" | "amount"; amountCents: number; paidCents: number },
  invoices: { askedCents: number; balanceCents: number }[],
): number {
  if (request.kind === "amount") return Math.max(0, request.amountCents - request.paidCents);
  return invoices.reduce((sum, i) => sum + Math.max(0, Math.min(i.askedCents, i.balanceCents)), 0);
}

export function paymentRequestState(request: PaymentRequestFacts, now = new Date()): PaymentRequestState {
  if (request.status === "cancelled") return "cancelled";
  if (request.status === "paid" || request.owingCents <= 0) return "paid";
  if (new Date(request.expiresAt).getTime() <= now.getTime()) return "expired";
  if (request.paidCents > 0 || request.owingCents < request.amountCents) return "part-paid";
  if (request.openedAt) return "opened";
  return request.status;
}

/** Whether money may still be taken against the request. */
export const isPayableState = (state: PaymentRequestState) =>
  state === "created" || state === "sent" || state === "opened" || state === "part-paid";
