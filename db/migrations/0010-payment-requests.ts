/**
 * Emailed payment requests, ad-hoc payments and the links that stand in for a session
 * (issue 14; decisions 031 and 032).
 *
 * - api_keys: a business's back-office keys, kept only as a SHA-256 of the whole key, with scopes.
 * - api_idempotency_keys: the first answer to a back-office POST with an Idempotency-Key.
 * - payment_requests (+ invoices, recipients): what a business asks an account to pay, by link.
 * - link_tokens: selector + hash of the verifier for every emailed link, bound to one purpose,
 *   one record, one contact and one business; expiring and revocable. Later issues (schedules,
 *   agreements, references, unsubscribe) add purposes without a new table.
 * - link_sessions: what a browser that paid from a link may see afterwards (its receipts).
 * - adhoc_settings: whether a business takes ad-hoc payments, and between which amounts.
 * - payments: a payment may pay invoices, a stated-amount request or nothing at all (ad hoc:
 *   credit on the account), and remembers the request and link it came from.
 */
export const name = "0010-payment-requests";

export const up = /* sql */ `
CREATE TABLE api_keys (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- The first characters of the key, to tell keys apart in a list; never enough to use it.
  key_prefix    text NOT NULL CHECK (length(key_prefix) BETWEEN 6 AND 20),
  key_hash      text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  scopes        text[] NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_business_idx ON api_keys (business_id, created_at);

CREATE TABLE api_idempotency_keys (
  business_id      uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  -- Method, path and body of the first request: the same key with other content is refused.
  request_hash     text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  -- Null while the first request is still being answered.
  status_code      integer,
  response         jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, idempotency_key)
);

CREATE TABLE adhoc_settings (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  enabled      boolean NOT NULL DEFAULT false,
  min_cents    bigint NOT NULL DEFAULT 100 CHECK (min_cents >= 1),
  max_cents    bigint NOT NULL DEFAULT 1000000 CHECK (max_cents >= min_cents)
);

CREATE TABLE payment_requests (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id             uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id              uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  reference               text NOT NULL CHECK (reference ~ '^PR-[0-9A-Z]{6,12}$'),
  -- invoices: pays the listed invoices; amount: a stated amount, credited to the account.
  kind                    text NOT NULL CHECK (kind IN ('invoices', 'amount')),
  description             text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  currency                text NOT NULL,
  -- What was asked for at creation (the invoices' balances then, or the stated amount).
  amount_cents            bigint NOT NULL CHECK (amount_cents > 0),
  -- Settled payments made against the request (subtotals, fees excluded).
  paid_cents              bigint NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  allow_part_payment      boolean NOT NULL DEFAULT false,
  -- The smallest part-payment taken (null: any amount of at least one cent).
  min_part_payment_cents  bigint CHECK (min_part_payment_cents > 0),
  due_date                date,
  expires_at              timestamptz NOT NULL,
  -- Stored states; opened, part-paid and expired are read from the columns below.
  status                  text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'sent', 'paid', 'cancelled')),
  sent_at                 timestamptz,
  opened_at               timestamptz,
  paid_at                 timestamptz,
  cancelled_at            timestamptz,
  created_by_api_key      uuid REFERENCES api_keys (id) ON DELETE SET NULL,
  created_at              timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, reference),
  UNIQUE (business_id, id)
);
CREATE INDEX payment_requests_business_idx ON payment_requests (business_id, created_at DESC, id DESC);
CREATE INDEX payment_requests_account_idx ON payment_requests (business_id, account_id, created_at DESC, id DESC);

CREATE TABLE payment_request_invoices (
  request_id    uuid NOT NULL REFERENCES payment_requests (id) ON DELETE CASCADE,
  invoice_id    uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  -- The balance asked for when the request was made; the most a link pays of this invoice.
  amount_cents  bigint NOT NULL CHECK (amount_cents > 0),
  PRIMARY KEY (request_id, invoice_id)
);
CREATE INDEX payment_request_invoices_invoice_idx ON payment_request_invoices (business_id, invoice_id);

CREATE TABLE payment_request_recipients (
  request_id    uuid NOT NULL REFERENCES payment_requests (id) ON DELETE CASCADE,
  contact_id    uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  email         text NOT NULL CHECK (length(email) <= 254),
  send_count    integer NOT NULL DEFAULT 0,
  last_sent_at  timestamptz,
  PRIMARY KEY (request_id, contact_id)
);
CREATE INDEX payment_request_recipients_contact_idx ON payment_request_recipients (business_id, contact_id);

CREATE TABLE link_tokens (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  purpose         text NOT NULL CHECK (purpose ~ '^[a-z][a-z-]{1,39}$'),
  -- The one record the link opens: a payment request, an invoice, an account (ad hoc) …
  subject_id      uuid NOT NULL,
  contact_id      uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  -- Looked up by the selector; the verifier is compared, in constant time, with its hash.
  selector        text NOT NULL UNIQUE CHECK (selector ~ '^[0-9A-Za-z_-]{16}$'),
  verifier_hash   text NOT NULL CHECK (verifier_hash ~ '^[0-9a-f]{64}$'),
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  first_opened_at timestamptz,
  last_opened_at  timestamptz,
  open_count      integer NOT NULL DEFAULT 0
);
CREATE INDEX link_tokens_subject_idx ON link_tokens (business_id, purpose, subject_id);

-- One browser (a random id in a cookie, kept hashed) and each link it has paid from.
CREATE TABLE link_sessions (
  id_hash        text NOT NULL CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  business_id    uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  link_token_id  uuid NOT NULL REFERENCES link_tokens (id) ON DELETE CASCADE,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  PRIMARY KEY (id_hash, link_token_id)
);
CREATE INDEX link_sessions_expiry_idx ON link_sessions (expires_at);

-- Where a link payer turns when a request is paid, expired or cancelled (beside support_email).
ALTER TABLE businesses ADD COLUMN support_phone text CHECK (length(support_phone) <= 40);

ALTER TABLE payments
  ADD COLUMN purpose text NOT NULL DEFAULT 'invoices' CHECK (purpose IN ('invoices', 'request', 'adhoc')),
  ADD COLUMN payment_request_id uuid REFERENCES payment_requests (id) ON DELETE SET NULL,
  ADD COLUMN link_token_id uuid REFERENCES link_tokens (id) ON DELETE SET NULL,
  -- What the payer typed to say what an ad-hoc payment is for.
  ADD COLUMN payer_reference text CHECK (length(payer_reference) <= 80);
CREATE INDEX payments_request_idx ON payments (payment_request_id, status) WHERE payment_request_id IS NOT NULL;
`;
