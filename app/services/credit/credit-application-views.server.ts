import type { TradeReferenceState } from "~/lib/trade-reference";
import type { CreditDocumentKind, CreditDocumentType } from "../platform/db-schema.server";

/**
 * What the back-office API shows of a credit application (credit-backoffice.server.ts reads them;
 * the decision email, credit-decision-email.server.tsx, renders one): on their own, so that the
 * email and the service that sends it do not import each other.
 */

export const LISTED_STATUSES = ["submitted", "accepted", "declined"] as const;
export type ListedStatus = (typeof LISTED_STATUSES)[number];

export type CreditApplicationSummary = {
  id: string;
  reference: string;
  status: ListedStatus;
  country: "AU" | "NZ";
  legalName: string;
  applicantEmail: string | null;
  requestedLimitCents: number | null;
  currency: string;
  submittedAt: string;
  decidedAt: string | null;
  referenceCount: { total: number; answered: number };
  documentCount: number;
  decision: CreditDecisionView | null;
};

export type CreditDecisionView = {
  decision: "accepted" | "declined";
  decidedAt: string;
  /** Accepted: the limit granted. */
  approvedLimitCents: number | null;
  /** Accepted: the note to the applicant (optional); declined: the reason given. Both are emailed to the applicant. */
  note: string | null;
  reason: string | null;
  decidedBy: string | null;
};

export type CreditDocumentView = {
  id: string;
  kind: CreditDocumentKind;
  fileName: string;
  contentType: CreditDocumentType;
  byteSize: number;
  /** The size as the portal shows file sizes (spec §9: B, KB, MB or GB). */
  size: string;
  sha256: string;
  createdAt: string;
  /** Where the bytes are read (GET, credit:read). */
  href: string;
};

export type TradeReferenceView = {
  id: string;
  position: number;
  refereeBusiness: string;
  contactName: string;
  email: string;
  phone: string | null;
  state: TradeReferenceState;
  linkExpiresAt: string;
  firstOpenedAt: string | null;
  openCount: number;
  answeredAt: string | null;
  /** As the referee typed it (one line). */
  answeredByName: string | null;
  /** As stored (app/lib/trade-reference.ts, TradeReferenceAnswer), or null before the answer. */
  answer: Record<string, unknown> | null;
  answerAddress: string | null;
};

export type CreditApplicationDetail = CreditApplicationSummary & {
  /** Each step's answers as the applicant's form stored them (the credit form's shape, decision 038). */
  answers: Record<string, unknown>;
  terms: {
    versionId: string | null;
    documentId: string | null;
    title: string | null;
    version: number | null;
    sha256: string;
    nameTyped: string | null;
    acceptedAt: string | null;
    clientAddress: string | null;
    userAgent: string | null;
  };
  documents: CreditDocumentView[];
  references: TradeReferenceView[];
};

export type TradeReferenceListItem = TradeReferenceView & {
  application: { id: string; reference: string; legalName: string; status: ListedStatus };
};
