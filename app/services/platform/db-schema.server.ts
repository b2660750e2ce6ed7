import type { ColumnType, Generated } from "kysely";
import type { CardBrand } from "~/lib/payment-method-types";
import type { InstalmentStatus, ScheduleStatus } from "~/lib/schedule-states";
import type { ThemeName } from "~/themes/names";
import type { Channel, ChangeVia, PreferenceTopic } from "~/lib/communication";

/** Kysely's view of the schema in db/migrations. Keep the two in step. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<unknown, string, string>;

export interface BusinessesTable {
  id: Generated<string>;
  name: string;
  label: Generated<string>;
  country: Generated<"AU" | "NZ">;
  currency: Generated<string>;
  time_zone: Generated<string>;
  theme: Generated<ThemeName>;
  logo_directory: Generated<string>;
  auth_provider: Generated<"credentials" | "auth0">;
  auth0_domain: string | null;
  auth0_client_id: string | null;
  privacy_policy: Generated<string>;
  terms_and_conditions: Generated<string>;
  support_email: string | null;
  support_phone: Generated<string | null>;
  /** Where the business is told of schedules in arrears (support_email when null). */
  notification_email: Generated<string | null>;
  /** The published brand version (issue 16; null: the seed's columns, never published). */
  brand_version_id: Generated<string | null>;
  created_at: Timestamp;
}

export interface HostsTable {
  hostname: string;
  business_id: string;
  /** The canonical origin links in emails are built from; null means https://<hostname>. */
  public_base_url: string | null;
  created_at: Timestamp;
}

export interface BusinessConfigsTable {
  business_id: string;
  name: string;
  value: Generated<string>;
}

export interface UiSettingsTable {
  business_id: string;
  item_name: string;
  is_visible: boolean;
}

export interface AccountsTable {
  id: Generated<string>;
  business_id: string;
  parent_account_id: string | null;
  number: string;
  name: string;
  address: Generated<string>;
  payment_terms_days: Generated<number>;
  email: Generated<string>;
  phone: Generated<string>;
  credit_limit_cents: number | null;
  created_at: Timestamp;
}

/** A calendar date (no time zone), as PostgreSQL's `date` reads back: "YYYY-MM-DD". */
type DateOnly = ColumnType<string, string, string>;

export interface InvoicesTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  number: string;
  description: Generated<string>;
  issue_date: DateOnly;
  due_date: DateOnly;
  amount_cents: number;
  balance_cents: number;
  status: Generated<number>;
  promise_date: DateOnly | null;
  dispute_reason: string | null;
  created_at: Timestamp;
}

export interface StatementLinesTable {
  id: Generated<number>;
  business_id: string;
  account_id: string;
  line_date: DateOnly;
  type: "invoice" | "payment" | "credit" | "adjustment" | "fee";
  reference: string;
  description: Generated<string>;
  debit_cents: Generated<number>;
  credit_cents: Generated<number>;
  invoice_id: string | null;
}

/** Kept by triggers on statement_lines (migration 0005); read-only for the application. */
export interface StatementDailyTotalsTable {
  business_id: string;
  account_id: string;
  line_date: DateOnly;
  type: StatementLinesTable["type"];
  line_count: number;
  debit_cents: number;
  credit_cents: number;
}

export interface FeatureTogglesTable {
  id: Generated<string>;
  business_id: string;
  account_id: string | null;
  name: string;
  enabled: Generated<boolean>;
  configuration_value: Json;
}

export interface ContactsTable {
  id: Generated<string>;
  business_id: string;
  email: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  position: Generated<string>;
  verified_at: Timestamp | null;
  password_hash: string | null;
  external_subject: string | null;
  permissions: Generated<string[]>;
  disabled_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AccountContactsTable {
  business_id: string;
  account_id: string;
  contact_id: string;
  role: Generated<"owner" | "contact" | "billing">;
  created_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  business_id: string;
  contact_id: string;
  auth_method: "credentials" | "auth0";
  log_token: string;
  data: ColumnType<SessionData, string | undefined, string>;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  user_agent: Generated<string>;
}

/** What a session remembers besides who is signed in (spec §3, §4). */
export type SessionData = {
  selectedAccount?: string;
  invoicePagination?: Record<string, unknown>;
  language?: string;
  /** A host admin previewing a brand version of their business (issue 16): pages show it to this session only. */
  brandPreview?: string;
};

export interface AuthTokensTable {
  token_hash: string;
  business_id: string;
  contact_id: string;
  purpose: "password-reset" | "email-verify";
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RateLimitHitsTable {
  id: Generated<number>;
  business_id: string;
  key: string;
  at: Timestamp;
}

export interface SignInAddressesTable {
  business_id: string;
  contact_id: string;
  address: string;
  last_success_at: Timestamp;
}

export interface AuditEventsTable {
  id: Generated<number>;
  business_id: string;
  contact_id: string | null;
  action: string;
  at: Timestamp;
  client_ip: string | null;
  details: ColumnType<unknown, string | undefined, string>;
}

export interface CardsTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  gateway: string;
  gateway_token: string;
  brand: CardBrand;
  first_digit: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  holder_name: string;
  is_default: Generated<boolean>;
  authority_reference: string;
  consented_at: Timestamp;
  consented_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  removed_at: Timestamp | null;
}

export interface BankAccountsTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  country: "AU" | "NZ";
  account_name: string;
  routing: string;
  account_number: string;
  description: Generated<string>;
  authority_reference: string;
  consented_at: Timestamp;
  consented_by: string | null;
  created_at: Timestamp;
  removed_at: Timestamp | null;
}

export interface SandboxGatewayTokensTable {
  token: string;
  brand: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  outcome: string;
  origin: Generated<string>;
  client_ip: Generated<string>;
  extra_data: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
}

export interface SandboxGatewayChargesTable {
  id: string;
  idempotency_key: string;
  token: string;
  amount_cents: number;
  currency: string;
  status: "captured" | "declined" | "refunded";
  decline_code: string | null;
  refunded_cents: Generated<number>;
  created_at: Timestamp;
}

/** The sandboxes' fault switch (migration 0020, decision 046). */
export interface SandboxFaultsTable {
  port: "gateway" | "payto";
  mode: "normal" | "slow" | "down";
  delay_ms: Generated<number>;
  updated_at: Generated<Timestamp>;
}

export interface FeeRulesTable {
  business_id: string;
  surcharge: ColumnType<unknown, string | undefined, string>;
  late_fee_bps: Generated<number>;
  late_fee_fixed_cents: Generated<number>;
  early_discount_bps: Generated<number>;
  early_discount_days: Generated<number>;
}

/**
 * pending: claimed, not yet answered by the gateway or provider; submitted: a PayTo payment the
 * provider accepted, waiting to settle; unknown: no answer (reconciled by our key).
 */
export type PaymentStatus = "pending" | "submitted" | "succeeded" | "failed" | "unknown" | "promised";

export interface PaymentsTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  request_guid: string;
  request_hash: string;
  reference: string;
  method: "card" | "payto" | "payid" | "promise";
  card_id: string | null;
  status: PaymentStatus;
  currency: string;
  amount_cents: number;
  subtotal_cents: number;
  merchant_fee_cents: Generated<number>;
  late_fee_cents: Generated<number>;
  discount_cents: Generated<number>;
  note: Generated<string>;
  promise_date: DateOnly | null;
  card_brand: string | null;
  card_last4: string | null;
  gateway_charge_id: string | null;
  failure_code: string | null;
  created_by: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  payto_agreement_id: Generated<string | null>;
  provider_payment_id: Generated<string | null>;
  /** When the reconciler last asked the gateway or provider about it: the PayTo poller's turn. */
  last_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** invoices: pays invoices; request: a stated-amount payment request; adhoc: credit on the account. */
  purpose: Generated<PaymentPurpose>;
  payment_request_id: Generated<string | null>;
  /** The emailed link it was paid from (a link payer's receipt is reachable only through it). */
  link_token_id: Generated<string | null>;
  payer_reference: Generated<string | null>;
  /** The schedule instalment it pays (purpose instalment). */
  schedule_instalment_id: Generated<string | null>;
}

export type PaymentPurpose = "invoices" | "request" | "adhoc" | "instalment";

export interface PaymentAllocationsTable {
  payment_id: string;
  invoice_id: string;
  business_id: string;
  amount_cents: number;
  discount_cents: Generated<number>;
  late_fee_cents: Generated<number>;
  balance_before_cents: number;
}

export interface PayToSettingsTable {
  business_id: string;
  enabled: Generated<boolean>;
  provider_name: Generated<string>;
  max_payment_cents: Generated<number>;
  payid_domain: string | null;
}

export type AgreementStatusColumn =
  "CREATED" | "ACTIVE" | "SUSPENDED" | "CANCELLED" | "DECLINED" | "EXPIRED" | "FAILED";

export interface PayToAgreementsTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  request_guid: string;
  request_hash: string;
  status: AgreementStatusColumn;
  status_reason: string | null;
  provider_agreement_id: string | null;
  provider_version: Generated<number>;
  party_name: string;
  ultimate_party_name: Generated<string>;
  bsb: string | null;
  account_number: string | null;
  alias_type: "EMAL" | "TELI" | "AUBN" | "ORGN" | null;
  alias_value: string | null;
  max_amount_cents: number;
  frequency: Generated<"ADHOC">;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PayToAgreementEventsTable {
  id: Generated<number>;
  business_id: string;
  agreement_id: string;
  from_status: AgreementStatusColumn | null;
  to_status: AgreementStatusColumn;
  version: number;
  source: "portal" | "webhook" | "poll" | "payment";
  reason: string | null;
  at: Timestamp;
}

export interface PayToWebhookEventsTable {
  business_id: string;
  event_id: string;
  type: string;
  received_at: Timestamp;
}

export interface PayToPayIdsTable {
  business_id: string;
  account_id: string;
  payid: string;
  created_at: Timestamp;
}

export interface PayToIncomingPaymentsTable {
  business_id: string;
  provider_transaction_id: string;
  account_id: string;
  payid: string;
  amount_cents: number;
  payer_name: Generated<string>;
  payment_id: string | null;
  received_at: Timestamp;
}

export interface SandboxPayToAgreementsTable {
  id: string;
  idempotency_key: string;
  merchant: string;
  hostname: string;
  status: string;
  status_reason: string | null;
  version: Generated<number>;
  payer: string;
  party_name: string;
  outcome: string;
  max_amount_cents: number;
  description: Generated<string>;
  next_action: string | null;
  next_action_at: Timestamp | null;
  silent: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SandboxPayToPaymentsTable {
  id: string;
  idempotency_key: string;
  agreement_id: string;
  amount_cents: number;
  currency: string;
  status: string;
  failure_reason: string | null;
  version: Generated<number>;
  settle_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SandboxPayToPayIdsTable {
  payid: string;
  merchant: string;
  hostname: string;
  reference: string;
  name: string;
  created_at: Timestamp;
}

export interface SandboxPayToIncomingTable {
  id: string;
  payid: string;
  amount_cents: number;
  payer_name: string;
  created_at: Timestamp;
}

export interface SandboxPayToWebhooksTable {
  id: string;
  hostname: string;
  body: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  delivered_at: Timestamp | null;
  last_status: number | null;
}

export interface ApiKeysTable {
  id: Generated<string>;
  business_id: string;
  name: string;
  key_prefix: string;
  key_hash: string;
  scopes: string[];
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface ApiIdempotencyKeysTable {
  business_id: string;
  idempotency_key: string;
  request_hash: string;
  status_code: number | null;
  response: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface AdhocSettingsTable {
  business_id: string;
  enabled: Generated<boolean>;
  min_cents: Generated<number>;
  max_cents: Generated<number>;
}

export type PaymentRequestKind = "invoices" | "amount";
export type PaymentRequestStoredStatus = "created" | "sent" | "paid" | "cancelled";

export interface PaymentRequestsTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  reference: string;
  kind: PaymentRequestKind;
  description: Generated<string>;
  currency: string;
  amount_cents: number;
  paid_cents: Generated<number>;
  allow_part_payment: Generated<boolean>;
  min_part_payment_cents: number | null;
  due_date: DateOnly | null;
  expires_at: Timestamp;
  status: Generated<PaymentRequestStoredStatus>;
  sent_at: Timestamp | null;
  opened_at: Timestamp | null;
  paid_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  created_by_api_key: string | null;
  created_at: Timestamp;
}

export interface PaymentRequestInvoicesTable {
  request_id: string;
  invoice_id: string;
  business_id: string;
  amount_cents: number;
}

export interface PaymentRequestRecipientsTable {
  request_id: string;
  contact_id: string;
  business_id: string;
  email: string;
  send_count: Generated<number>;
  last_sent_at: Timestamp | null;
  /** Reminders sent (migration 0016). */
  remind_count: Generated<number>;
  last_reminded_at: Timestamp | null;
}

export interface LinkTokensTable {
  id: Generated<string>;
  business_id: string;
  purpose: string;
  subject_id: string;
  contact_id: string;
  selector: string;
  verifier_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  first_opened_at: Timestamp | null;
  last_opened_at: Timestamp | null;
  open_count: Generated<number>;
}

export interface LinkSessionsTable {
  id_hash: string;
  business_id: string;
  link_token_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: Timestamp;
}

export interface DB {
  businesses: BusinessesTable;
  hosts: HostsTable;
  business_configs: BusinessConfigsTable;
  ui_settings: UiSettingsTable;
  accounts: AccountsTable;
  feature_toggles: FeatureTogglesTable;
  contacts: ContactsTable;
  account_contacts: AccountContactsTable;
  invoices: InvoicesTable;
  statement_lines: StatementLinesTable;
  statement_daily_totals: StatementDailyTotalsTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  rate_limit_hits: RateLimitHitsTable;
  sign_in_addresses: SignInAddressesTable;
  audit_events: AuditEventsTable;
  schema_migrations: SchemaMigrationsTable;
  cards: CardsTable;
  fee_rules: FeeRulesTable;
  payments: PaymentsTable;
  payment_allocations: PaymentAllocationsTable;
  bank_accounts: BankAccountsTable;
  sandbox_gateway_tokens: SandboxGatewayTokensTable;
  sandbox_gateway_charges: SandboxGatewayChargesTable;
  sandbox_faults: SandboxFaultsTable;
  payto_settings: PayToSettingsTable;
  payto_agreements: PayToAgreementsTable;
  payto_agreement_events: PayToAgreementEventsTable;
  payto_webhook_events: PayToWebhookEventsTable;
  payto_payids: PayToPayIdsTable;
  payto_incoming_payments: PayToIncomingPaymentsTable;
  sandbox_payto_agreements: SandboxPayToAgreementsTable;
  sandbox_payto_payments: SandboxPayToPaymentsTable;
  sandbox_payto_payids: SandboxPayToPayIdsTable;
  sandbox_payto_incoming: SandboxPayToIncomingTable;
  sandbox_payto_webhooks: SandboxPayToWebhooksTable;
  api_keys: ApiKeysTable;
  api_idempotency_keys: ApiIdempotencyKeysTable;
  adhoc_settings: AdhocSettingsTable;
  payment_requests: PaymentRequestsTable;
  payment_request_invoices: PaymentRequestInvoicesTable;
  payment_request_recipients: PaymentRequestRecipientsTable;
  link_tokens: LinkTokensTable;
  link_sessions: LinkSessionsTable;
  agreement_documents: AgreementDocumentsTable;
  agreement_versions: AgreementVersionsTable;
  agreement_offers: AgreementOffersTable;
  agreement_decisions: AgreementDecisionsTable;
  payment_schedules: PaymentSchedulesTable;
  payment_schedule_invoices: PaymentScheduleInvoicesTable;
  schedule_instalments: ScheduleInstalmentsTable;
  instalment_attempts: InstalmentAttemptsTable;
  brand_assets: BrandAssetsTable;
  brand_versions: BrandVersionsTable;
  brand_drafts: BrandDraftsTable;
  brand_publications: BrandPublicationsTable;
  credit_applications: CreditApplicationsTable;
  credit_application_documents: CreditApplicationDocumentsTable;
  credit_trade_references: CreditTradeReferencesTable;
  communication_preferences: CommunicationPreferencesTable;
  communication_preference_changes: CommunicationPreferenceChangesTable;
  response_requests: ResponseRequestsTable;
  mail_outbox: MailOutboxTable;
  response_answers: ResponseAnswersTable;
}

// Issue 15: agreements and payment schedules (db/migrations/0011-schedules-and-agreements.ts).

export type AgreementKind = "terms-of-trade" | "direct-debit" | "card-authority" | "other";

export interface AgreementDocumentsTable {
  id: Generated<string>;
  business_id: string;
  kind: AgreementKind;
  title: string;
  created_at: Timestamp;
}

/** Published text: never updated or deleted (a trigger refuses). */
export interface AgreementVersionsTable {
  id: Generated<string>;
  business_id: string;
  document_id: string;
  version: number;
  body: string;
  body_sha256: string;
  published_at: Timestamp;
}

export type AgreementOfferStatus = "offered" | "accepted" | "declined" | "withdrawn";

export interface AgreementOffersTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  contact_id: string;
  document_id: string;
  reference: string;
  status: Generated<AgreementOfferStatus>;
  email: string;
  expires_at: Timestamp;
  sent_at: Timestamp | null;
  send_count: Generated<number>;
  decided_at: Timestamp | null;
  withdrawn_at: Timestamp | null;
  created_by_api_key: string | null;
  created_at: Timestamp;
}

/** A contact's accept or decline: never updated or deleted (a trigger refuses). */
export interface AgreementDecisionsTable {
  id: Generated<string>;
  business_id: string;
  offer_id: string;
  account_id: string;
  contact_id: string;
  version_id: string;
  decision: "accepted" | "declined";
  typed_name: string;
  body_sha256: string;
  ip_address: string;
  user_agent: Generated<string>;
  decided_at: Timestamp;
}

export interface PaymentSchedulesTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  reference: string;
  description: Generated<string>;
  currency: string;
  total_cents: number;
  paid_cents: Generated<number>;
  status: Generated<ScheduleStatus>;
  contact_id: string;
  email: string;
  expires_at: Timestamp;
  card_id: string | null;
  payto_agreement_id: string | null;
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  accepted_ip: string | null;
  authority_text: string | null;
  sent_at: Timestamp | null;
  send_count: Generated<number>;
  withdrawn_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  completed_at: Timestamp | null;
  arrears_at: Timestamp | null;
  created_by_api_key: string | null;
  created_at: Timestamp;
}

export interface PaymentScheduleInvoicesTable {
  schedule_id: string;
  invoice_id: string;
  business_id: string;
  amount_cents: number;
}

export interface ScheduleInstalmentsTable {
  id: Generated<string>;
  business_id: string;
  schedule_id: string;
  seq: number;
  due_date: DateOnly;
  amount_cents: number;
  status: Generated<InstalmentStatus>;
  next_attempt_on: DateOnly | null;
  attempts: Generated<number>;
  last_failure: string | null;
  payment_id: string | null;
  paid_at: Timestamp | null;
}

export type InstalmentAttemptOutcome = "started" | "succeeded" | "declined" | "pending" | "error";

export interface InstalmentAttemptsTable {
  id: Generated<string>;
  business_id: string;
  instalment_id: string;
  attempt_no: number;
  trigger: "runner" | "contact";
  request_guid: string;
  outcome: Generated<InstalmentAttemptOutcome>;
  failure_code: string | null;
  payment_id: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  /** The way the try was claimed with (migration 0013); null on older attempts. */
  way: "saved-card" | "payto" | "new-card" | null;
  card_id: string | null;
  payto_agreement_id: string | null;
}

// Issue 16: host admins' brands (db/migrations/0014-brands.ts).

export type BrandAssetKind = "logo" | "favicon";
export type BrandAssetType = "image/png" | "image/jpeg" | "image/webp" | "image/svg+xml";

export interface BrandAssetsTable {
  id: Generated<string>;
  business_id: string;
  kind: BrandAssetKind;
  content_type: BrandAssetType;
  bytes: Buffer;
  byte_size: number;
  width: number;
  height: number;
  sha256: string;
  created_by: string | null;
  created_at: Generated<Timestamp>;
}

export interface BrandVersionsTable {
  id: Generated<string>;
  business_id: string;
  theme: ThemeName;
  brand_colour: string | null;
  /** The derived colour roles of a custom brand colour (ThemeTokens), null for a named theme. */
  tokens: ColumnType<unknown, string | null, string | null> | null;
  business_name: string;
  label: Generated<string>;
  logo_asset_id: string | null;
  favicon_asset_id: string | null;
  logo_directory: string;
  created_by: string | null;
  created_at: Generated<Timestamp>;
}

export interface BrandDraftsTable {
  business_id: string;
  version_id: string;
  saved_by: string | null;
  saved_at: Generated<Timestamp>;
}

export type BrandChange = { field: string; from: string | null; to: string | null };

export interface BrandPublicationsTable {
  id: Generated<string>;
  business_id: string;
  version_id: string;
  previous_id: string | null;
  kind: "publish" | "rollback";
  changes: ColumnType<BrandChange[], string | undefined, string>;
  published_by: string | null;
  client_ip: Generated<string>;
  published_at: Generated<Timestamp>;
}

// Issue 17: credit applications (db/migrations/0015-credit-applications.ts).

export type CreditApplicationStatus = "draft" | "submitted" | "accepted" | "declined";
export type CreditDocumentKind = "financial-statements" | "identification" | "trust-deed" | "other";
export type CreditDocumentType = "application/pdf" | "image/png" | "image/jpeg";
type JsonObject = ColumnType<Record<string, unknown>, string | undefined, string>;

export interface CreditApplicationsTable {
  id: Generated<string>;
  business_id: string;
  status: Generated<CreditApplicationStatus>;
  draft_key_hash: string | null;
  country: "AU" | "NZ";
  answers: JsonObject;
  reference: string | null;
  legal_name: string | null;
  applicant_email: string | null;
  requested_limit_cents: number | null;
  terms_version_id: string | null;
  terms_sha256: string | null;
  terms_name_typed: string | null;
  terms_accepted_at: Timestamp | null;
  client_ip: string | null;
  user_agent: string | null;
  submitted_at: Timestamp | null;
  decided_at: Timestamp | null;
  decision_reason: string | null;
  approved_limit_cents: number | null;
  decided_by: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CreditApplicationDocumentsTable {
  id: Generated<string>;
  business_id: string;
  application_id: string;
  kind: CreditDocumentKind;
  file_name: string;
  content_type: CreditDocumentType;
  byte_size: number;
  sha256: string;
  storage_key: string;
  created_at: Timestamp;
}

export interface CreditTradeReferencesTable {
  id: Generated<string>;
  business_id: string;
  application_id: string;
  position: number;
  referee_business: string;
  contact_name: string;
  email: string;
  phone: string | null;
  selector: string;
  verifier_hash: string;
  link_expires_at: Timestamp;
  first_opened_at: Timestamp | null;
  open_count: Generated<number>;
  answered_at: Timestamp | null;
  answer: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  answered_by_name: string | null;
  answer_ip: string | null;
  answer_user_agent: string | null;
  created_at: Timestamp;
}

// Issue 17: communication preferences (db/migrations/0016-communication-preferences.ts).

export interface CommunicationPreferencesTable {
  business_id: string;
  contact_id: string;
  topic: PreferenceTopic;
  channel: Channel;
  enabled: boolean;
  updated_at: Timestamp;
}

/** A consent record: never updated or deleted (a trigger refuses). */
export interface CommunicationPreferenceChangesTable {
  id: Generated<string>;
  business_id: string;
  contact_id: string;
  topic: PreferenceTopic;
  channel: Channel;
  enabled: boolean;
  via: ChangeVia;
  changed_by_contact_id: string | null;
  api_key_id: string | null;
  note: string | null;
  changed_at: Timestamp;
}

// Issue 17: response requests (db/migrations/0017-response-requests.ts; decision 040).

export type ResponseKind = "delivery-address" | "statement" | "dispute";
export type ResponseRequestStatus = "open" | "answered" | "withdrawn";
export type ResponseChoice = "confirmed" | "corrected" | "acknowledged" | "disputed" | "accepted" | "rejected";

/** What a business asked one contact; the question never changes (a trigger), only its state. */
export interface ResponseRequestsTable {
  id: Generated<string>;
  business_id: string;
  account_id: string;
  contact_id: string;
  reference: string;
  kind: ResponseKind;
  details: ColumnType<Record<string, unknown>, string, string>;
  invoice_id: string | null;
  message: Generated<string>;
  email: string;
  status: Generated<ResponseRequestStatus>;
  expires_at: Timestamp;
  sent_at: Timestamp | null;
  send_count: Generated<number>;
  answered_at: Timestamp | null;
  withdrawn_at: Timestamp | null;
  created_by_api_key: string | null;
  created_at: Timestamp;
}

/** The contact's answer, once per request: never updated or deleted (a trigger refuses). */
export interface ResponseAnswersTable {
  id: Generated<string>;
  business_id: string;
  request_id: string;
  account_id: string;
  contact_id: string;
  link_token_id: string | null;
  choice: ResponseChoice;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  typed_name: string | null;
  ip_address: string;
  user_agent: Generated<string>;
  answered_at: Timestamp;
}

/** The mail outbox (migration 0019; decision 044). */
export interface MailOutboxTable {
  id: Generated<string>;
  key: string;
  business_id: string | null;
  category: string;
  recipient: string | null;
  message_id: string;
  /** Sealed (AES-256-GCM) JSON: the message, or what to render it from. Null once sent. */
  payload: string | null;
  status: Generated<"pending" | "sending" | "sent" | "dropped">;
  attempts: Generated<number>;
  claim_token: string | null;
  claimed_at: Timestamp | null;
  last_error: string | null;
  created_at: Generated<Timestamp>;
  sent_at: Timestamp | null;
}
