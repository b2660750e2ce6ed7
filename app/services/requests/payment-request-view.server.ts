import type { PaymentRequestState } from "~/lib/payment-request-state";

/**
 * A payment request as the business's side and its email show it: made by request-rows.server.ts,
 * rendered by request-email.server.tsx, on its own so that the senders and the email do not import
 * each other.
 */

export type PaymentRequestView = {
  id: string;
  reference: string;
  account: { id: string; number: string; name: string };
  kind: "invoices" | "amount";
  description: string;
  amountCents: number;
  /** What payments of the request itself have paid. */
  paidCents: number;
  /**
   * What is still owing: a request of invoices, each invoice's balance at most what was asked of
   * it, whatever paid them (decision 032); a stated amount, amount − paid. 0 once paid.
   */
  remainingCents: number;
  currency: string;
  dueDate: string | null;
  expiresAt: string;
  allowPartPayment: boolean;
  minPartPaymentCents: number | null;
  state: PaymentRequestState;
  invoices: { id: string; number: string; amountCents: number; balanceCents: number }[];
  recipients: {
    email: string;
    sendCount: number;
    lastSentAt: string | null;
    opened: boolean;
    openedAt: string | null;
    /** Reminders sent to this recipient (`remindPaymentRequest`), and when the last one was. */
    remindCount: number;
    lastRemindedAt: string | null;
  }[];
  createdAt: string;
  sentAt: string | null;
  openedAt: string | null;
  paidAt: string | null;
  cancelledAt: string | null;
};
