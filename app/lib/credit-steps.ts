/**
 * The public trade-credit application (issue 17; decision 038): its steps, their limits and the
 * shape of the answers it keeps. Pure and client-safe (no zod): the pages show these numbers and
 * lists, the schemas (credit-schemas.ts, server only) enforce them, and the back office (decision
 * 041) reads the answers in exactly this shape from `credit_applications.answers`.
 */
import type { AuState } from "./au-postcodes";

/** The steps, in order. Each posts on its own page, `/credit/<step>`; then check, then submit. */
export const CREDIT_STEPS = [
  "business",
  "address",
  "contacts",
  "directors",
  "credit",
  "references",
  "bank",
  "documents",
  "terms",
] as const;
export type CreditStep = (typeof CREDIT_STEPS)[number];

/** The steps whose answers live in `answers` (the terms are kept in columns of their own). */
export type AnswerStep = Exclude<CreditStep, "terms">;

/** The steps with plain fields (the documents and terms steps have pages of their own). */
export type PlainCreditStep = Exclude<AnswerStep, "documents">;

export function isCreditStep(value: unknown): value is CreditStep {
  return typeof value === "string" && (CREDIT_STEPS as readonly string[]).includes(value);
}

export const stepPath = (step: CreditStep | "check") => `/credit/${step}`;

/** The step after this one (check your answers after the last). */
export function nextStep(step: CreditStep): CreditStep | "check" {
  const index = CREDIT_STEPS.indexOf(step);
  return CREDIT_STEPS[index + 1] ?? "check";
}

export function previousStep(step: CreditStep | "check"): CreditStep | null {
  if (step === "check") return CREDIT_STEPS[CREDIT_STEPS.length - 1]!;
  const index = CREDIT_STEPS.indexOf(step);
  return index > 0 ? CREDIT_STEPS[index - 1]! : null;
}

/** How long a draft is kept after its last change: two weeks, as the start page says. */
export const DRAFT_DAYS = 14;

/** A referee's link lasts this long (the referee's page is decision 041's). */
export const REFEREE_LINK_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// The business

export const ENTITY_TYPES = ["company", "sole-trader", "partnership", "trust", "other"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// People

/** Directors, owners, partners or trustees: at least one, at most six (what a small business has). */
export const MIN_DIRECTORS = 1;
export const MAX_DIRECTORS = 6;
export const DIRECTOR_ROLES = ["director", "owner", "partner", "trustee", "other"] as const;
export type DirectorRole = (typeof DIRECTOR_ROLES)[number];

/** Trade references: two required, a third welcome (as Australian and New Zealand trade forms ask). */
export const MIN_REFERENCES = 2;
export const MAX_REFERENCES = 3;

// ---------------------------------------------------------------------------------------------
// Money

/**
 * The largest credit limit the form takes: $5,000,000. A trade account larger than that is not
 * applied for through a public web form; the expected monthly purchases share the ceiling.
 */
export const MAX_CREDIT_LIMIT_CENTS = 500_000_000;

// ---------------------------------------------------------------------------------------------
// Documents

/** What a document is (migration 0015's check). */
export const DOCUMENT_KINDS = ["financial-statements", "identification", "trust-deed", "other"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** At most 10 MB a file (migration 0015's check: 10,485,760 bytes) and five files an application. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENTS = 5;

/**
 * The most the documents step's POST may be: one file at its limit, the kind, the honeypot and
 * the multipart framing. scripts/edge.js refuses a larger declared body for /credit/documents
 * (CREDIT_DOCUMENT_BODY_BYTES there: keep the two in step) and the step's capped reader stops
 * reading past it, so a 50 MB upload is never held in memory.
 */
export const DOCUMENT_FORM_MAX_BYTES = MAX_DOCUMENT_BYTES + 256 * 1024;

/** The file input's `accept`: a hint for the picker only; the server decides by content. */
export const DOCUMENT_ACCEPT = ".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg";

// ---------------------------------------------------------------------------------------------
// Robots

/**
 * The honeypot: a field every step's form carries, visually hidden, that a person never fills.
 * A value in it refuses the post with nothing saved (decision 038). A name a form-filling robot
 * finds irresistible.
 */
export const HONEYPOT_FIELD = "website";

// ---------------------------------------------------------------------------------------------
// The answers as stored (`credit_applications.answers`, keyed by step)

export type CreditAddress = {
  line1: string;
  line2: string | null;
  /** Australia: the suburb or town (required). New Zealand: the suburb (optional). */
  suburb: string | null;
  /** New Zealand: the town or city. Null in Australia. */
  city: string | null;
  /** Australia only. */
  state: AuState | null;
  postcode: string;
};

export type CreditPerson = { name: string; email: string; phone: string };

export type CreditAnswers = {
  business?: {
    legalName: string;
    tradingName: string | null;
    entityType: EntityType;
    /** Bare digits; Australia only. */
    abn: string | null;
    acn: string | null;
    /** Bare digits; New Zealand only. */
    nzbn: string | null;
  };
  address?: {
    trading: CreditAddress;
    /** Null: the postal address is the trading address. */
    postal: CreditAddress | null;
  };
  contacts?: {
    /** The person applying: the confirmation email goes to them. */
    applicant: CreditPerson & { position: string };
    /** Who pays the invoices (a copy of the applicant when they said it is them). */
    accountsPayable: CreditPerson;
    accountsPayableIsApplicant: boolean;
  };
  directors?: { people: { name: string; role: DirectorRole }[] };
  credit?: { limitCents: number; monthlyCents: number };
  references?: { referees: { business: string; contactName: string; email: string; phone: string }[] };
  /** Direct debit is optional: the account to debit, or none. The routing is a BSB or an NZ bank-branch. */
  bank?: { directDebit: false } | { directDebit: true; accountName: string; routing: string; accountNumber: string };
  /** The documents themselves are rows of credit_application_documents; this marks the step done. */
  documents?: { done: true };
};
