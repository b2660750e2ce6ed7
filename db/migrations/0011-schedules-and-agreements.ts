/**
 * Payment schedules and agreements (issue 15; decisions 034 and 035).
 *
 * Agreements — the documents a contact accepts (terms of trade, a direct-debit request, a card
 * authority):
 * - agreement_documents: a business's document, in versions.
 * - agreement_versions: the exact text of each published version with its SHA-256. Published text
 *   never changes (a trigger refuses UPDATE and DELETE); a new text is a new version.
 * - agreement_offers: a document offered to one contact of one account, by email link. The offer
 *   names the document, not a version: the contact sees the latest version, and acceptance names the
 *   version they saw (a newer one published meanwhile is refused and shown).
 * - agreement_decisions: the contact's accept or decline — who, when, from which address, which
 *   version, the text's hash and the name they typed. Never changed, never deleted (a trigger).
 *
 * Payment schedules — an amount owed paid in instalments:
 * - payment_schedules: proposed by the business (back-office API), accepted by a contact with a way
 *   to pay (a saved card or an active PayTo agreement), then active, in arrears, completed,
 *   withdrawn (before acceptance) or cancelled (after).
 * - payment_schedule_invoices: the invoices the schedule pays, oldest due first as instalments settle.
 * - schedule_instalments: each instalment's day and amount, and its state.
 * - instalment_attempts: every try to charge an instalment, with the payment's idempotency key
 *   (requestGuid), written before the charge: a run that dies after charging and before recording
 *   is finished by the next run with the same key (the engine and the gateway answer it once).
 */
export const name = "0011-schedules-and-agreements";

export const up = /* sql */ `
CREATE TABLE agreement_documents (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('terms-of-trade', 'direct-debit', 'card-authority', 'other')),
  title        text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, id)
);
CREATE INDEX agreement_documents_business_idx ON agreement_documents (business_id, created_at);

CREATE TABLE agreement_versions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id  uuid NOT NULL REFERENCES businesses (id),
  document_id  uuid NOT NULL REFERENCES agreement_documents (id),
  version      integer NOT NULL CHECK (version >= 1),
  -- The text as published (the simple Markdown of app/lib/simple-markdown.ts), and its SHA-256 (hex, of the UTF-8 bytes).
  body         text NOT NULL CHECK (length(body) BETWEEN 1 AND 100000),
  body_sha256  text NOT NULL CHECK (body_sha256 ~ '^[0-9a-f]{64}$'),
  published_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (document_id, version)
);

CREATE TABLE agreement_offers (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id         uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id          uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  contact_id          uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  document_id         uuid NOT NULL REFERENCES agreement_documents (id),
  reference           text NOT NULL CHECK (reference ~ '^AG-[0-9A-Z]{6,12}$'),
  status              text NOT NULL DEFAULT 'offered' CHECK (status IN ('offered', 'accepted', 'declined', 'withdrawn')),
  email               text NOT NULL CHECK (length(email) <= 254),
  expires_at          timestamptz NOT NULL,
  sent_at             timestamptz,
  send_count          integer NOT NULL DEFAULT 0,
  decided_at          timestamptz,
  withdrawn_at        timestamptz,
  created_by_api_key  uuid REFERENCES api_keys (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, reference)
);
CREATE INDEX agreement_offers_account_idx ON agreement_offers (business_id, account_id, created_at DESC, id DESC);
CREATE INDEX agreement_offers_contact_idx ON agreement_offers (business_id, contact_id, created_at DESC);

CREATE TABLE agreement_decisions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id   uuid NOT NULL REFERENCES businesses (id),
  -- One decision per offer: a second accept (or a decline after an accept) is refused by this key.
  offer_id      uuid NOT NULL UNIQUE REFERENCES agreement_offers (id),
  account_id    uuid NOT NULL REFERENCES accounts (id),
  contact_id    uuid NOT NULL REFERENCES contacts (id),
  version_id    uuid NOT NULL REFERENCES agreement_versions (id),
  decision      text NOT NULL CHECK (decision IN ('accepted', 'declined')),
  typed_name    text NOT NULL CHECK (length(typed_name) BETWEEN 1 AND 200),
  body_sha256   text NOT NULL CHECK (body_sha256 ~ '^[0-9a-f]{64}$'),
  ip_address    text NOT NULL CHECK (length(ip_address) <= 64),
  user_agent    text NOT NULL DEFAULT '' CHECK (length(user_agent) <= 500),
  decided_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agreement_decisions_account_idx ON agreement_decisions (business_id, account_id, decided_at DESC);

-- Records that must never change after they are written: published agreement text and decisions.
CREATE FUNCTION refuse_change_of_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never changed or deleted', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER agreement_versions_never_change BEFORE UPDATE OR DELETE ON agreement_versions
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_record();
CREATE TRIGGER agreement_decisions_never_change BEFORE UPDATE OR DELETE ON agreement_decisions
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_record();

CREATE TABLE payment_schedules (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id         uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id          uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  reference           text NOT NULL CHECK (reference ~ '^PS-[0-9A-Z]{6,12}$'),
  description         text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  currency            text NOT NULL,
  -- The amount owed the schedule pays: the sum of its instalments (checked when it is proposed).
  total_cents         bigint NOT NULL CHECK (total_cents > 0),
  -- Settled instalment money (subtotals, fees excluded).
  paid_cents          bigint NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  status              text NOT NULL DEFAULT 'proposed'
                      CHECK (status IN ('proposed', 'active', 'arrears', 'completed', 'withdrawn', 'cancelled')),
  -- The contact the proposal is sent to (and whose link it is).
  contact_id          uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  email               text NOT NULL CHECK (length(email) <= 254),
  -- A proposal not accepted by then can no longer be.
  expires_at          timestamptz NOT NULL,
  -- The way to pay, chosen at acceptance and changeable later: one of the two while active.
  card_id             uuid REFERENCES cards (id),
  payto_agreement_id  uuid REFERENCES payto_agreements (id),
  -- What the contact agreed to: who, when, from where, and the authority's words as shown.
  accepted_at         timestamptz,
  accepted_by         uuid REFERENCES contacts (id) ON DELETE SET NULL,
  accepted_ip         text CHECK (length(accepted_ip) <= 64),
  authority_text      text CHECK (length(authority_text) <= 2000),
  sent_at             timestamptz,
  send_count          integer NOT NULL DEFAULT 0,
  withdrawn_at        timestamptz,
  cancelled_at        timestamptz,
  completed_at        timestamptz,
  arrears_at          timestamptz,
  created_by_api_key  uuid REFERENCES api_keys (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, reference),
  UNIQUE (business_id, id),
  CHECK (card_id IS NULL OR payto_agreement_id IS NULL),
  CHECK (status NOT IN ('active', 'arrears', 'completed') OR accepted_at IS NOT NULL)
);
CREATE INDEX payment_schedules_account_idx ON payment_schedules (business_id, account_id, created_at DESC, id DESC);
CREATE INDEX payment_schedules_business_idx ON payment_schedules (business_id, created_at DESC, id DESC);

CREATE TABLE payment_schedule_invoices (
  schedule_id   uuid NOT NULL REFERENCES payment_schedules (id) ON DELETE CASCADE,
  invoice_id    uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  -- The balance the schedule took on when it was proposed.
  amount_cents  bigint NOT NULL CHECK (amount_cents > 0),
  PRIMARY KEY (schedule_id, invoice_id)
);
CREATE INDEX payment_schedule_invoices_invoice_idx ON payment_schedule_invoices (business_id, invoice_id);

CREATE TABLE schedule_instalments (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id      uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  schedule_id      uuid NOT NULL REFERENCES payment_schedules (id) ON DELETE CASCADE,
  seq              integer NOT NULL CHECK (seq >= 1),
  due_date         date NOT NULL,
  amount_cents     bigint NOT NULL CHECK (amount_cents > 0),
  -- scheduled: waiting for its day (or its next try); processing: a charge is in flight;
  -- paid; failed: the last try was declined (the schedule is in arrears); cancelled: with its schedule.
  status           text NOT NULL DEFAULT 'scheduled'
                   CHECK (status IN ('scheduled', 'processing', 'paid', 'failed', 'cancelled')),
  -- The day (business's time zone) the runner next charges it: the due date, then each retry's day.
  next_attempt_on  date,
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_failure     text,
  payment_id       uuid REFERENCES payments (id),
  paid_at          timestamptz,
  UNIQUE (schedule_id, seq)
);
-- The runner's one query: what is due, across businesses, in day order.
CREATE INDEX schedule_instalments_due_idx ON schedule_instalments (next_attempt_on, id) WHERE status = 'scheduled';
CREATE INDEX schedule_instalments_schedule_idx ON schedule_instalments (schedule_id, seq);

CREATE TABLE instalment_attempts (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  instalment_id   uuid NOT NULL REFERENCES schedule_instalments (id) ON DELETE CASCADE,
  attempt_no      integer NOT NULL CHECK (attempt_no >= 1),
  -- runner: on its day or a retry's; contact: paid early or again from the schedule's page or link.
  trigger         text NOT NULL CHECK (trigger IN ('runner', 'contact')),
  -- The payment's idempotency key, chosen before the charge.
  request_guid    uuid NOT NULL,
  -- started: written, charge not yet recorded; then the payment's outcome.
  outcome         text NOT NULL DEFAULT 'started' CHECK (outcome IN ('started', 'succeeded', 'declined', 'pending', 'error')),
  failure_code    text,
  payment_id      uuid REFERENCES payments (id),
  started_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  UNIQUE (business_id, request_guid),
  UNIQUE (instalment_id, attempt_no)
);
CREATE INDEX instalment_attempts_started_idx ON instalment_attempts (started_at) WHERE outcome IN ('started', 'pending');

-- Where the business is told of a schedule in arrears (and other notices); support_email when empty.
ALTER TABLE businesses ADD COLUMN notification_email text CHECK (length(notification_email) <= 254);

ALTER TABLE payments DROP CONSTRAINT payments_purpose_check;
ALTER TABLE payments ADD CONSTRAINT payments_purpose_check
  CHECK (purpose IN ('invoices', 'request', 'adhoc', 'instalment'));
ALTER TABLE payments ADD COLUMN schedule_instalment_id uuid REFERENCES schedule_instalments (id) ON DELETE SET NULL;
CREATE INDEX payments_instalment_idx ON payments (schedule_instalment_id) WHERE schedule_instalment_id IS NOT NULL;
`;
