/**
 * What the schema cannot say about a column's TypeScript type: the values a CHECK allows, the shape of a
 * JSON document. Everything else in the database's types is generated from the migrated schema
 * (db-schema.generated.server.ts, `npm run db:types`; decision 063).
 *
 * COLUMN_TYPES names, per "table.column", the type the generated file uses in place of the one read from
 * the schema. Only the base type goes here: whether the column may be null (`| null`) and whether it has a
 * default (`Generated<…>`) still come from the schema, so a migration that changes either shows in the
 * generated file. An entry for a column the schema does not have fails the generator.
 */
import type { ColumnType } from "kysely";

export type { CardBrand } from "~/lib/payment-method-types";
export type { ChangeVia, Channel, PreferenceTopic } from "~/lib/communication";
export type { InstalmentStatus, ScheduleStatus } from "~/lib/schedule-states";
export type { ThemeName } from "~/themes/names";

/** A calendar date (no time zone), as PostgreSQL's `date` reads back (db.server.ts's parser): "YYYY-MM-DD". */
export type DateOnly = string;

/** A json/jsonb column: read as a parsed `T`, written as JSON text (the code stringifies what it stores). */
export type JsonText<T> = ColumnType<T, string, string>;

export type CountryCode = "AU" | "NZ";
export type AuthProvider = "credentials" | "auth0";
export type AccountContactRole = "owner" | "contact" | "billing";
export type AuthTokenPurpose = "password-reset" | "email-verify";
export type StatementLineType = "invoice" | "payment" | "credit" | "adjustment" | "fee";

/** What a session remembers besides who is signed in (spec §3, §4). */
export type SessionData = {
  selectedAccount?: string;
  invoicePagination?: Record<string, unknown>;
  language?: string;
  /** A host admin previewing a brand version of their business (issue 16): pages show it to this session only. */
  brandPreview?: string;
  /**
   * The contact's portal access was taken away while this session was open (decision 093): its next
   * account-scoped API call answers 403 and, from our own pages, ends it. Cleared if access is given back.
   */
  portalWithdrawn?: true;
};

export type SandboxChargeStatus = "captured" | "declined" | "refunded";
/** The sandboxes' fault switch (migration 0020, decision 046). */
export type SandboxFaultPort = "gateway" | "payto";
export type SandboxFaultMode = "normal" | "slow" | "down";

export type PaymentMethodKind = "card" | "payto" | "payid" | "promise";
/**
 * pending: claimed, not yet answered by the gateway or provider; submitted: a PayTo payment the
 * provider accepted, waiting to settle; unknown: no answer (reconciled by our key).
 */
export type PaymentStatus = "pending" | "submitted" | "succeeded" | "failed" | "unknown" | "promised";
/** invoices: pays invoices; request: a stated-amount payment request; adhoc: credit on the account. */
export type PaymentPurpose = "invoices" | "request" | "adhoc" | "instalment";

export type AgreementStatusColumn =
  "CREATED" | "ACTIVE" | "SUSPENDED" | "CANCELLED" | "DECLINED" | "EXPIRED" | "FAILED";
export type PayToAliasType = "EMAL" | "TELI" | "AUBN" | "ORGN";
export type PayToFrequency = "ADHOC";
export type PayToEventSource = "portal" | "webhook" | "poll" | "payment";

export type PaymentRequestKind = "invoices" | "amount";
export type PaymentRequestStoredStatus = "created" | "sent" | "paid" | "cancelled";

// Issue 15: agreements and payment schedules (db/migrations/0011-schedules-and-agreements.ts).
export type AgreementKind = "terms-of-trade" | "direct-debit" | "card-authority" | "other";
export type AgreementOfferStatus = "offered" | "accepted" | "declined" | "withdrawn";
export type AgreementDecision = "accepted" | "declined";
export type InstalmentAttemptTrigger = "runner" | "contact";
export type InstalmentAttemptOutcome = "started" | "succeeded" | "declined" | "pending" | "error";
/** The way the try was claimed with (migration 0013); null on older attempts. */
export type InstalmentAttemptWay = "saved-card" | "payto" | "new-card";

// Issue 16: host admins' brands (db/migrations/0014-brands.ts).
export type BrandAssetKind = "logo" | "favicon";
export type BrandAssetType = "image/png" | "image/jpeg" | "image/webp" | "image/svg+xml";
export type BrandPublicationKind = "publish" | "rollback";
export type BrandChange = { field: string; from: string | null; to: string | null };

// Issue 17: credit applications (db/migrations/0015-credit-applications.ts).
export type CreditApplicationStatus = "draft" | "submitted" | "accepted" | "declined";
export type CreditDocumentKind = "financial-statements" | "identification" | "trust-deed" | "other";
export type CreditDocumentType = "application/pdf" | "image/png" | "image/jpeg";

// Issue 17: response requests (db/migrations/0017-response-requests.ts; decision 040).
export type ResponseKind = "delivery-address" | "statement" | "dispute";
export type ResponseRequestStatus = "open" | "answered" | "withdrawn";
export type ResponseChoice = "confirmed" | "corrected" | "acknowledged" | "disputed" | "accepted" | "rejected";

/** The mail outbox (migration 0019; decision 044). */
export type MailOutboxStatus = "pending" | "sending" | "sent" | "dropped";

/**
 * The type of each column whose schema type is too wide, by "table.column": a type expression using the
 * names exported above. A json/jsonb column not listed here reads as `JsonText<unknown>`.
 */
export const COLUMN_TYPES: Readonly<Record<string, string>> = {
  "businesses.country": "CountryCode",
  "businesses.theme": "ThemeName",
  "businesses.auth_provider": "AuthProvider",
  "statement_lines.type": "StatementLineType",
  "statement_daily_totals.type": "StatementLineType",
  "account_contacts.role": "AccountContactRole",
  "sessions.auth_method": "AuthProvider",
  "sessions.data": "JsonText<SessionData>",
  "auth_tokens.purpose": "AuthTokenPurpose",
  "cards.brand": "CardBrand",
  "bank_accounts.country": "CountryCode",
  "sandbox_gateway_charges.status": "SandboxChargeStatus",
  "sandbox_faults.port": "SandboxFaultPort",
  "sandbox_faults.mode": "SandboxFaultMode",
  "payments.method": "PaymentMethodKind",
  "payments.status": "PaymentStatus",
  "payments.purpose": "PaymentPurpose",
  "payto_agreements.status": "AgreementStatusColumn",
  "payto_agreements.alias_type": "PayToAliasType",
  "payto_agreements.frequency": "PayToFrequency",
  "payto_agreement_events.from_status": "AgreementStatusColumn",
  "payto_agreement_events.to_status": "AgreementStatusColumn",
  "payto_agreement_events.source": "PayToEventSource",
  "payment_requests.kind": "PaymentRequestKind",
  "payment_requests.status": "PaymentRequestStoredStatus",
  "agreement_documents.kind": "AgreementKind",
  "agreement_offers.status": "AgreementOfferStatus",
  "agreement_decisions.decision": "AgreementDecision",
  "payment_schedules.status": "ScheduleStatus",
  "schedule_instalments.status": "InstalmentStatus",
  "instalment_attempts.trigger": "InstalmentAttemptTrigger",
  "instalment_attempts.outcome": "InstalmentAttemptOutcome",
  "instalment_attempts.way": "InstalmentAttemptWay",
  "brand_assets.kind": "BrandAssetKind",
  "brand_assets.content_type": "BrandAssetType",
  "brand_versions.theme": "ThemeName",
  "brand_publications.kind": "BrandPublicationKind",
  "brand_publications.changes": "JsonText<BrandChange[]>",
  "credit_applications.status": "CreditApplicationStatus",
  "credit_applications.country": "CountryCode",
  "credit_applications.answers": "JsonText<Record<string, unknown>>",
  "credit_application_documents.kind": "CreditDocumentKind",
  "credit_application_documents.content_type": "CreditDocumentType",
  "credit_trade_references.answer": "JsonText<Record<string, unknown>>",
  "communication_preferences.topic": "PreferenceTopic",
  "communication_preferences.channel": "Channel",
  "communication_preference_changes.topic": "PreferenceTopic",
  "communication_preference_changes.channel": "Channel",
  "communication_preference_changes.via": "ChangeVia",
  "response_requests.kind": "ResponseKind",
  "response_requests.status": "ResponseRequestStatus",
  "response_requests.details": "JsonText<Record<string, unknown>>",
  "response_answers.choice": "ResponseChoice",
  "response_answers.details": "JsonText<Record<string, unknown>>",
  "mail_outbox.status": "MailOutboxStatus",
};
