/**
 * GENERATED from the migrated schema by `npm run db:types` (scripts/db-types.ts; decision 063). Do not edit:
 * change the schema with a migration, or a column's TypeScript type in db-column-types.server.ts, then run
 * `npm run db:types`. db-schema.test.ts fails while this file differs from what the migrations generate.
 * Code imports the database's types from db-schema.server.ts.
 */

import type {
  AccountContactRole,
  AgreementDecision,
  AgreementKind,
  AgreementOfferStatus,
  AgreementStatusColumn,
  AuthProvider,
  AuthTokenPurpose,
  BrandAssetKind,
  BrandAssetType,
  BrandChange,
  BrandPublicationKind,
  CardBrand,
  ChangeVia,
  Channel,
  CountryCode,
  CreditApplicationStatus,
  CreditDocumentKind,
  CreditDocumentType,
  DateOnly,
  InstalmentAttemptOutcome,
  InstalmentAttemptTrigger,
  InstalmentAttemptWay,
  InstalmentStatus,
  JsonText,
  MailOutboxStatus,
  PaymentMethodKind,
  PaymentPurpose,
  PaymentRequestKind,
  PaymentRequestStoredStatus,
  PaymentStatus,
  PayToAliasType,
  PayToEventSource,
  PayToFrequency,
  PreferenceTopic,
  ResponseChoice,
  ResponseKind,
  ResponseRequestStatus,
  SandboxChargeStatus,
  SandboxFaultMode,
  SandboxFaultPort,
  ScheduleStatus,
  SessionData,
  StatementLineType,
  ThemeName,
} from "./db-column-types.server";
import type { ColumnType } from "kysely";

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AccountContacts {
  account_id: string;
  business_id: string;
  contact_id: string;
  created_at: Generated<Timestamp>;
  role: Generated<AccountContactRole>;
}

export interface Accounts {
  address: Generated<string>;
  business_id: string;
  created_at: Generated<Timestamp>;
  credit_limit_cents: number | null;
  email: Generated<string>;
  id: Generated<string>;
  name: string;
  number: string;
  parent_account_id: string | null;
  payment_terms_days: Generated<number>;
  phone: Generated<string>;
}

export interface AdhocSettings {
  business_id: string;
  enabled: Generated<boolean>;
  max_cents: Generated<number>;
  min_cents: Generated<number>;
}

export interface AgreementDecisions {
  account_id: string;
  body_sha256: string;
  business_id: string;
  contact_id: string;
  decided_at: Generated<Timestamp>;
  decision: AgreementDecision;
  id: Generated<string>;
  ip_address: string;
  offer_id: string;
  typed_name: string;
  user_agent: Generated<string>;
  version_id: string;
}

export interface AgreementDocuments {
  business_id: string;
  created_at: Generated<Timestamp>;
  id: Generated<string>;
  kind: AgreementKind;
  title: string;
}

export interface AgreementOffers {
  account_id: string;
  business_id: string;
  contact_id: string;
  created_at: Generated<Timestamp>;
  created_by_api_key: string | null;
  decided_at: Timestamp | null;
  document_id: string;
  email: string;
  expires_at: Timestamp;
  id: Generated<string>;
  reference: string;
  send_count: Generated<number>;
  sent_at: Timestamp | null;
  status: Generated<AgreementOfferStatus>;
  withdrawn_at: Timestamp | null;
}

export interface AgreementVersions {
  body: string;
  body_sha256: string;
  business_id: string;
  document_id: string;
  id: Generated<string>;
  published_at: Generated<Timestamp>;
  version: number;
}

export interface ApiIdempotencyKeys {
  business_id: string;
  created_at: Generated<Timestamp>;
  idempotency_key: string;
  request_hash: string;
  response: JsonText<unknown> | null;
  status_code: number | null;
}

export interface ApiKeys {
  business_id: string;
  created_at: Generated<Timestamp>;
  id: Generated<string>;
  key_hash: string;
  key_prefix: string;
  last_used_at: Timestamp | null;
  name: string;
  revoked_at: Timestamp | null;
  scopes: Generated<string[]>;
}

export interface AuditEvents {
  action: string;
  at: Generated<Timestamp>;
  business_id: string;
  client_ip: string | null;
  contact_id: string | null;
  details: Generated<JsonText<unknown>>;
  id: Generated<number>;
}

export interface AuthTokens {
  business_id: string;
  contact_id: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  purpose: AuthTokenPurpose;
  token_hash: string;
  used_at: Timestamp | null;
}

export interface BankAccounts {
  account_id: string;
  account_name: string;
  account_number: string;
  authority_reference: string;
  business_id: string;
  consented_at: Timestamp;
  consented_by: string | null;
  country: CountryCode;
  created_at: Generated<Timestamp>;
  description: Generated<string>;
  id: Generated<string>;
  removed_at: Timestamp | null;
  routing: string;
}

export interface BrandAssets {
  business_id: string;
  byte_size: number;
  bytes: Buffer;
  content_type: BrandAssetType;
  created_at: Generated<Timestamp>;
  created_by: string | null;
  height: number;
  id: Generated<string>;
  kind: BrandAssetKind;
  sha256: string;
  width: number;
}

export interface BrandDrafts {
  business_id: string;
  saved_at: Generated<Timestamp>;
  saved_by: string | null;
  version_id: string;
}

export interface BrandPublications {
  business_id: string;
  changes: Generated<JsonText<BrandChange[]>>;
  client_ip: Generated<string>;
  id: Generated<string>;
  kind: BrandPublicationKind;
  previous_id: string | null;
  published_at: Generated<Timestamp>;
  published_by: string | null;
  version_id: string;
}

export interface BrandVersions {
  brand_colour: string | null;
  business_id: string;
  business_name: string;
  created_at: Generated<Timestamp>;
  created_by: string | null;
  favicon_asset_id: string | null;
  id: Generated<string>;
  label: Generated<string>;
  logo_asset_id: string | null;
  logo_directory: string;
  theme: ThemeName;
  tokens: JsonText<unknown> | null;
}

export interface BusinessConfigs {
  business_id: string;
  name: string;
  value: Generated<string>;
}

export interface Businesses {
  auth_provider: Generated<AuthProvider>;
  auth0_client_id: string | null;
  auth0_domain: string | null;
  brand_version_id: string | null;
  country: Generated<CountryCode>;
  created_at: Generated<Timestamp>;
  currency: Generated<string>;
  id: Generated<string>;
  label: Generated<string>;
  logo_directory: Generated<string>;
  name: string;
  notification_email: string | null;
  privacy_policy: Generated<string>;
  support_email: string | null;
  support_phone: string | null;
  terms_and_conditions: Generated<string>;
  theme: Generated<ThemeName>;
  time_zone: Generated<string>;
}

export interface Cards {
  account_id: string;
  authority_reference: string;
  brand: CardBrand;
  business_id: string;
  consented_at: Timestamp;
  consented_by: string | null;
  created_at: Generated<Timestamp>;
  expiry_month: number;
  expiry_year: number;
  first_digit: string;
  gateway: string;
  gateway_token: string;
  holder_name: string;
  id: Generated<string>;
  is_default: Generated<boolean>;
  last4: string;
  removed_at: Timestamp | null;
  updated_at: Generated<Timestamp>;
}

export interface CommunicationPreferenceChanges {
  api_key_id: string | null;
  business_id: string;
  changed_at: Generated<Timestamp>;
  changed_by_contact_id: string | null;
  channel: Channel;
  contact_id: string;
  enabled: boolean;
  id: Generated<string>;
  note: string | null;
  topic: PreferenceTopic;
  via: ChangeVia;
}

export interface CommunicationPreferences {
  business_id: string;
  channel: Channel;
  contact_id: string;
  enabled: boolean;
  topic: PreferenceTopic;
  updated_at: Generated<Timestamp>;
}

export interface Contacts {
  business_id: string;
  created_at: Generated<Timestamp>;
  disabled_at: Timestamp | null;
  email: string;
  external_subject: string | null;
  first_name: Generated<string>;
  id: Generated<string>;
  last_name: Generated<string>;
  password_hash: string | null;
  permissions: Generated<string[]>;
  position: Generated<string>;
  verified_at: Timestamp | null;
}

export interface CreditApplicationDocuments {
  application_id: string;
  business_id: string;
  byte_size: number;
  content_type: CreditDocumentType;
  created_at: Generated<Timestamp>;
  file_name: string;
  id: Generated<string>;
  kind: CreditDocumentKind;
  sha256: string;
  storage_key: string;
}

export interface CreditApplications {
  answers: Generated<JsonText<Record<string, unknown>>>;
  applicant_email: string | null;
  approved_limit_cents: number | null;
  business_id: string;
  client_ip: string | null;
  country: CountryCode;
  created_at: Generated<Timestamp>;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_reason: string | null;
  draft_key_hash: string | null;
  expires_at: Timestamp;
  id: Generated<string>;
  legal_name: string | null;
  reference: string | null;
  requested_limit_cents: number | null;
  status: Generated<CreditApplicationStatus>;
  submitted_at: Timestamp | null;
  terms_accepted_at: Timestamp | null;
  terms_name_typed: string | null;
  terms_sha256: string | null;
  terms_version_id: string | null;
  updated_at: Generated<Timestamp>;
  user_agent: string | null;
}

export interface CreditTradeReferences {
  answer: JsonText<Record<string, unknown>> | null;
  answer_ip: string | null;
  answer_user_agent: string | null;
  answered_at: Timestamp | null;
  answered_by_name: string | null;
  application_id: string;
  business_id: string;
  contact_name: string;
  created_at: Generated<Timestamp>;
  email: string;
  first_opened_at: Timestamp | null;
  id: Generated<string>;
  link_expires_at: Timestamp;
  open_count: Generated<number>;
  phone: string | null;
  position: number;
  referee_business: string;
  selector: string;
  verifier_hash: string;
}

export interface FeatureToggles {
  account_id: string | null;
  business_id: string;
  configuration_value: Generated<JsonText<unknown>>;
  enabled: Generated<boolean>;
  id: Generated<string>;
  name: string;
}

export interface FeeRules {
  business_id: string;
  early_discount_bps: Generated<number>;
  early_discount_days: Generated<number>;
  late_fee_bps: Generated<number>;
  late_fee_fixed_cents: Generated<number>;
  surcharge: Generated<JsonText<unknown>>;
}

export interface HeldCards {
  account_id: string;
  brand: string;
  business_id: string;
  contact_id: string | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  expiry_month: number;
  expiry_year: number;
  first_digit: string;
  gateway_token: string;
  holder_hash: string;
  holder_name: string;
  id: string;
  last4: string;
  request_guid: string;
  save: Generated<boolean>;
}

export interface Hosts {
  business_id: string;
  created_at: Generated<Timestamp>;
  hostname: string;
  public_base_url: string | null;
}

export interface InstalmentAttempts {
  attempt_no: number;
  business_id: string;
  card_id: string | null;
  failure_code: string | null;
  finished_at: Timestamp | null;
  id: Generated<string>;
  instalment_id: string;
  outcome: Generated<InstalmentAttemptOutcome>;
  payment_id: string | null;
  payto_agreement_id: string | null;
  request_guid: string;
  started_at: Generated<Timestamp>;
  trigger: InstalmentAttemptTrigger;
  way: InstalmentAttemptWay | null;
}

export interface Invoices {
  account_id: string;
  amount_cents: number;
  balance_cents: number;
  business_id: string;
  created_at: Generated<Timestamp>;
  description: Generated<string>;
  dispute_reason: string | null;
  due_date: DateOnly;
  id: Generated<string>;
  issue_date: DateOnly;
  number: string;
  promise_date: DateOnly | null;
  status: Generated<number>;
}

export interface LinkSessions {
  business_id: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id_hash: string;
  link_token_id: string;
}

export interface LinkTokens {
  business_id: string;
  contact_id: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  first_opened_at: Timestamp | null;
  id: Generated<string>;
  last_opened_at: Timestamp | null;
  open_count: Generated<number>;
  purpose: string;
  revoked_at: Timestamp | null;
  selector: string;
  subject_id: string;
  verifier_hash: string;
}

export interface MailOutbox {
  attempts: Generated<number>;
  business_id: string | null;
  category: string;
  claim_token: string | null;
  claimed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  id: Generated<string>;
  key: string;
  last_error: string | null;
  message_id: string;
  payload: string | null;
  recipient: string | null;
  sent_at: Timestamp | null;
  status: Generated<MailOutboxStatus>;
}

export interface PaymentAllocations {
  amount_cents: number;
  balance_before_cents: number;
  business_id: string;
  discount_cents: Generated<number>;
  invoice_id: string;
  late_fee_cents: Generated<number>;
  payment_id: string;
}

export interface PaymentRequestInvoices {
  amount_cents: number;
  business_id: string;
  invoice_id: string;
  request_id: string;
}

export interface PaymentRequestRecipients {
  business_id: string;
  contact_id: string;
  email: string;
  last_reminded_at: Timestamp | null;
  last_sent_at: Timestamp | null;
  remind_count: Generated<number>;
  request_id: string;
  send_count: Generated<number>;
}

export interface PaymentRequests {
  account_id: string;
  allow_part_payment: Generated<boolean>;
  amount_cents: number;
  business_id: string;
  cancelled_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  created_by_api_key: string | null;
  currency: string;
  description: Generated<string>;
  due_date: DateOnly | null;
  expires_at: Timestamp;
  id: Generated<string>;
  kind: PaymentRequestKind;
  min_part_payment_cents: number | null;
  opened_at: Timestamp | null;
  paid_at: Timestamp | null;
  paid_cents: Generated<number>;
  reference: string;
  sent_at: Timestamp | null;
  status: Generated<PaymentRequestStoredStatus>;
}

export interface Payments {
  account_id: string;
  amount_cents: number;
  business_id: string;
  card_brand: string | null;
  card_id: string | null;
  card_last4: string | null;
  completed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  created_by: string | null;
  currency: string;
  discount_cents: Generated<number>;
  failure_code: string | null;
  gateway_charge_id: string | null;
  id: Generated<string>;
  last_checked_at: Timestamp | null;
  late_fee_cents: Generated<number>;
  link_token_id: string | null;
  merchant_fee_cents: Generated<number>;
  method: PaymentMethodKind;
  note: Generated<string>;
  payer_reference: string | null;
  payment_request_id: string | null;
  payto_agreement_id: string | null;
  promise_date: DateOnly | null;
  provider_payment_id: string | null;
  purpose: Generated<PaymentPurpose>;
  reference: string;
  request_guid: string;
  request_hash: string;
  schedule_instalment_id: string | null;
  status: PaymentStatus;
  subtotal_cents: number;
}

export interface PaymentScheduleInvoices {
  amount_cents: number;
  business_id: string;
  invoice_id: string;
  schedule_id: string;
}

export interface PaymentSchedules {
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  accepted_ip: string | null;
  account_id: string;
  arrears_at: Timestamp | null;
  authority_text: string | null;
  business_id: string;
  cancelled_at: Timestamp | null;
  card_id: string | null;
  completed_at: Timestamp | null;
  contact_id: string;
  created_at: Generated<Timestamp>;
  created_by_api_key: string | null;
  currency: string;
  description: Generated<string>;
  email: string;
  expires_at: Timestamp;
  id: Generated<string>;
  paid_cents: Generated<number>;
  payto_agreement_id: string | null;
  reference: string;
  send_count: Generated<number>;
  sent_at: Timestamp | null;
  status: Generated<ScheduleStatus>;
  total_cents: number;
  withdrawn_at: Timestamp | null;
}

export interface PaytoAgreementEvents {
  agreement_id: string;
  at: Generated<Timestamp>;
  business_id: string;
  from_status: AgreementStatusColumn | null;
  id: Generated<number>;
  reason: string | null;
  source: PayToEventSource;
  to_status: AgreementStatusColumn;
  version: number;
}

export interface PaytoAgreements {
  account_id: string;
  account_number: string | null;
  alias_type: PayToAliasType | null;
  alias_value: string | null;
  bsb: string | null;
  business_id: string;
  created_at: Generated<Timestamp>;
  created_by: string | null;
  frequency: Generated<PayToFrequency>;
  id: Generated<string>;
  max_amount_cents: number;
  party_name: string;
  provider_agreement_id: string | null;
  provider_version: Generated<number>;
  request_guid: string;
  request_hash: string;
  status: AgreementStatusColumn;
  status_reason: string | null;
  ultimate_party_name: Generated<string>;
  updated_at: Generated<Timestamp>;
}

export interface PaytoIncomingPayments {
  account_id: string;
  amount_cents: number;
  business_id: string;
  payer_name: Generated<string>;
  payid: string;
  payment_id: string | null;
  provider_transaction_id: string;
  received_at: Generated<Timestamp>;
}

export interface PaytoPayids {
  account_id: string;
  business_id: string;
  created_at: Generated<Timestamp>;
  payid: string;
}

export interface PaytoSettings {
  business_id: string;
  enabled: Generated<boolean>;
  max_payment_cents: Generated<number>;
  payid_domain: string | null;
  provider_name: Generated<string>;
}

export interface PaytoWebhookEvents {
  business_id: string;
  event_id: string;
  received_at: Generated<Timestamp>;
  type: string;
}

export interface RateLimitHits {
  at: Timestamp;
  business_id: string;
  id: Generated<number>;
  key: string;
}

export interface ResponseAnswers {
  account_id: string;
  answered_at: Generated<Timestamp>;
  business_id: string;
  choice: ResponseChoice;
  contact_id: string;
  details: Generated<JsonText<Record<string, unknown>>>;
  id: Generated<string>;
  ip_address: string;
  link_token_id: string | null;
  request_id: string;
  typed_name: string | null;
  user_agent: Generated<string>;
}

export interface ResponseRequests {
  account_id: string;
  answered_at: Timestamp | null;
  business_id: string;
  contact_id: string;
  created_at: Generated<Timestamp>;
  created_by_api_key: string | null;
  details: JsonText<Record<string, unknown>>;
  email: string;
  expires_at: Timestamp;
  id: Generated<string>;
  invoice_id: string | null;
  kind: ResponseKind;
  message: Generated<string>;
  reference: string;
  send_count: Generated<number>;
  sent_at: Timestamp | null;
  status: Generated<ResponseRequestStatus>;
  withdrawn_at: Timestamp | null;
}

export interface SandboxFaults {
  delay_ms: Generated<number>;
  mode: SandboxFaultMode;
  port: SandboxFaultPort;
  updated_at: Generated<Timestamp>;
}

export interface SandboxGatewayCharges {
  amount_cents: number;
  created_at: Generated<Timestamp>;
  currency: string;
  decline_code: string | null;
  id: string;
  idempotency_key: string;
  refunded_cents: Generated<number>;
  status: SandboxChargeStatus;
  token: string;
}

export interface SandboxGatewayTokens {
  brand: string;
  client_ip: Generated<string>;
  created_at: Generated<Timestamp>;
  expiry_month: number;
  expiry_year: number;
  extra_data: Generated<JsonText<unknown>>;
  last4: string;
  origin: Generated<string>;
  outcome: string;
  token: string;
}

export interface SandboxPaytoAgreements {
  created_at: Generated<Timestamp>;
  description: Generated<string>;
  hostname: string;
  id: string;
  idempotency_key: string;
  max_amount_cents: number;
  merchant: string;
  next_action: string | null;
  next_action_at: Timestamp | null;
  outcome: string;
  party_name: string;
  payer: string;
  silent: Generated<boolean>;
  status: string;
  status_reason: string | null;
  updated_at: Generated<Timestamp>;
  version: Generated<number>;
}

export interface SandboxPaytoIncoming {
  amount_cents: number;
  created_at: Generated<Timestamp>;
  id: string;
  payer_name: string;
  payid: string;
}

export interface SandboxPaytoPayids {
  created_at: Generated<Timestamp>;
  hostname: string;
  merchant: string;
  name: string;
  payid: string;
  reference: string;
}

export interface SandboxPaytoPayments {
  agreement_id: string;
  amount_cents: number;
  created_at: Generated<Timestamp>;
  currency: string;
  failure_reason: string | null;
  id: string;
  idempotency_key: string;
  settle_at: Timestamp | null;
  status: string;
  updated_at: Generated<Timestamp>;
  version: Generated<number>;
}

export interface SandboxPaytoWebhooks {
  attempts: Generated<number>;
  body: string;
  delivered_at: Timestamp | null;
  hostname: string;
  id: string;
  last_status: number | null;
  next_attempt_at: Generated<Timestamp>;
}

export interface ScheduleInstalments {
  amount_cents: number;
  attempts: Generated<number>;
  business_id: string;
  due_date: DateOnly;
  id: Generated<string>;
  last_failure: string | null;
  next_attempt_on: DateOnly | null;
  paid_at: Timestamp | null;
  payment_id: string | null;
  schedule_id: string;
  seq: number;
  status: Generated<InstalmentStatus>;
}

export interface SchemaMigrations {
  applied_at: Generated<Timestamp>;
  name: string;
}

export interface Sessions {
  auth_method: AuthProvider;
  business_id: string;
  contact_id: string;
  created_at: Generated<Timestamp>;
  data: Generated<JsonText<SessionData>>;
  expires_at: Timestamp;
  id_hash: string;
  last_seen_at: Generated<Timestamp>;
  log_token: string;
  user_agent: Generated<string>;
}

export interface SignInAddresses {
  address: string;
  business_id: string;
  contact_id: string;
  last_success_at: Timestamp;
}

export interface StatementDailyTotals {
  account_id: string;
  business_id: string;
  credit_cents: Generated<number>;
  debit_cents: Generated<number>;
  line_count: Generated<number>;
  line_date: DateOnly;
  type: StatementLineType;
}

export interface StatementLines {
  account_id: string;
  business_id: string;
  credit_cents: Generated<number>;
  debit_cents: Generated<number>;
  description: Generated<string>;
  id: Generated<number>;
  invoice_id: string | null;
  line_date: DateOnly;
  reference: string;
  type: StatementLineType;
}

export interface UiSettings {
  business_id: string;
  is_visible: boolean;
  item_name: string;
}

export interface DB {
  account_contacts: AccountContacts;
  accounts: Accounts;
  adhoc_settings: AdhocSettings;
  agreement_decisions: AgreementDecisions;
  agreement_documents: AgreementDocuments;
  agreement_offers: AgreementOffers;
  agreement_versions: AgreementVersions;
  api_idempotency_keys: ApiIdempotencyKeys;
  api_keys: ApiKeys;
  audit_events: AuditEvents;
  auth_tokens: AuthTokens;
  bank_accounts: BankAccounts;
  brand_assets: BrandAssets;
  brand_drafts: BrandDrafts;
  brand_publications: BrandPublications;
  brand_versions: BrandVersions;
  business_configs: BusinessConfigs;
  businesses: Businesses;
  cards: Cards;
  communication_preference_changes: CommunicationPreferenceChanges;
  communication_preferences: CommunicationPreferences;
  contacts: Contacts;
  credit_application_documents: CreditApplicationDocuments;
  credit_applications: CreditApplications;
  credit_trade_references: CreditTradeReferences;
  feature_toggles: FeatureToggles;
  fee_rules: FeeRules;
  held_cards: HeldCards;
  hosts: Hosts;
  instalment_attempts: InstalmentAttempts;
  invoices: Invoices;
  link_sessions: LinkSessions;
  link_tokens: LinkTokens;
  mail_outbox: MailOutbox;
  payment_allocations: PaymentAllocations;
  payment_request_invoices: PaymentRequestInvoices;
  payment_request_recipients: PaymentRequestRecipients;
  payment_requests: PaymentRequests;
  payment_schedule_invoices: PaymentScheduleInvoices;
  payment_schedules: PaymentSchedules;
  payments: Payments;
  payto_agreement_events: PaytoAgreementEvents;
  payto_agreements: PaytoAgreements;
  payto_incoming_payments: PaytoIncomingPayments;
  payto_payids: PaytoPayids;
  payto_settings: PaytoSettings;
  payto_webhook_events: PaytoWebhookEvents;
  rate_limit_hits: RateLimitHits;
  response_answers: ResponseAnswers;
  response_requests: ResponseRequests;
  sandbox_faults: SandboxFaults;
  sandbox_gateway_charges: SandboxGatewayCharges;
  sandbox_gateway_tokens: SandboxGatewayTokens;
  sandbox_payto_agreements: SandboxPaytoAgreements;
  sandbox_payto_incoming: SandboxPaytoIncoming;
  sandbox_payto_payids: SandboxPaytoPayids;
  sandbox_payto_payments: SandboxPaytoPayments;
  sandbox_payto_webhooks: SandboxPaytoWebhooks;
  schedule_instalments: ScheduleInstalments;
  schema_migrations: SchemaMigrations;
  sessions: Sessions;
  sign_in_addresses: SignInAddresses;
  statement_daily_totals: StatementDailyTotals;
  statement_lines: StatementLines;
  ui_settings: UiSettings;
}
