import type {
  Address,
  DisputeFacts,
  ResponseChoice,
  ResponseKind,
  ResponseState,
  StatementFacts,
} from "~/lib/responses";

/**
 * A response request as the back-office API and its emails show it: read by responses.server.ts,
 * rendered by response-email.server.tsx, on its own so that the two do not import each other.
 */

export type ResponseAnswerView = {
  choice: ResponseChoice;
  address?: Address;
  note?: string;
  reason?: string;
  typedName: string | null;
  contact: { id: string; email: string };
  clientAddress: string;
  userAgent: string;
  answeredAt: string;
};

export type ResponseRequestView = {
  id: string;
  reference: string;
  kind: ResponseKind;
  state: ResponseState;
  account: { id: string; number: string; name: string };
  contact: { id: string; email: string };
  message: string;
  /** The kind's facts, as the business stated them (one of the three, by kind). */
  address?: Address;
  statement?: StatementFacts;
  dispute?: DisputeFacts & { invoiceId: string };
  expiresAt: string;
  createdAt: string;
  sentAt: string | null;
  sendCount: number;
  /** When a link of this request was first opened (any of its links, a resent one too). */
  openedAt: string | null;
  answeredAt: string | null;
  withdrawnAt: string | null;
  answer: ResponseAnswerView | null;
};
