import type { AgreementKind, AgreementOfferState } from "~/lib/agreements";

/**
 * What the agreements' modules hand each other and their email (issue 15; decisions 034 and 036):
 * the views of documents, versions, offers and decisions, and the words for each kind. A leaf:
 * it imports no module of its folder, so the commands, the queries and the offer's email all
 * stand on it and none stands on another through it.
 */
export const KIND_LABELS: Record<AgreementKind, string> = {
  "terms-of-trade": "terms of trade",
  "direct-debit": "direct-debit request",
  "card-authority": "card authority",
  other: "agreement",
};

export type AgreementVersionView = {
  id: string;
  version: number;
  body: string;
  bodySha256: string;
  /** UTF-8 bytes of the body: what the hash is taken over. */
  bytes: number;
  publishedAt: string;
};

export type AgreementDocumentView = {
  id: string;
  kind: AgreementKind;
  title: string;
  createdAt: string;
  latestVersion: Omit<AgreementVersionView, "body">;
};

export type AgreementDocumentDetail = AgreementDocumentView & { versions: AgreementVersionView[] };

export type AgreementDecisionView = {
  decision: "accepted" | "declined";
  version: { id: string; version: number };
  typedName: string;
  bodySha256: string;
  contact: { id: string; email: string };
  clientAddress: string;
  userAgent: string;
  decidedAt: string;
};

export type AgreementOfferView = {
  id: string;
  reference: string;
  state: AgreementOfferState;
  document: { id: string; kind: AgreementKind; title: string };
  account: { id: string; number: string; name: string };
  contact: { id: string; email: string };
  expiresAt: string;
  createdAt: string;
  sentAt: string | null;
  sendCount: number;
  /** When a link of this offer was first opened (any of its links, a resent one too). */
  openedAt: string | null;
  withdrawnAt: string | null;
  decision: AgreementDecisionView | null;
};
