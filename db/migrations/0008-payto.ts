/**
 * PayTo (issue 13; decision 027): the business's PayTo settings, agreements (mandates) with
 * their status history, PayTo payments through the same payments table as cards, the
 * webhook events already received (replays are refused), and each account's receivable
 * PayID with the money that arrived at it (applied once per provider transaction id).
 *
 * The sandbox_payto_* tables belong to the sandbox provider adapter, standing in for the
 * provider's own storage: a production adapter would not use them.
 */
export const name = "0008-payto";

export const up = /* sql */ `
CREATE TABLE payto_settings (
  business_id          uuid PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  enabled              boolean NOT NULL DEFAULT false,
  provider_name        text NOT NULL DEFAULT 'PayTo sandbox' CHECK (length(provider_name) BETWEEN 1 AND 80),
  -- The most one PayTo payment may take, and the limit written into each new agreement.
  max_payment_cents    bigint NOT NULL DEFAULT 1000000 CHECK (max_payment_cents > 0),
  -- Receivable PayIDs are <account number>@<payid_domain>; null: no receivable PayIDs.
  payid_domain         text CHECK (payid_domain ~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$')
);

CREATE TABLE payto_agreements (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id            uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id             uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  request_guid           uuid NOT NULL,
  request_hash           text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  status                 text NOT NULL CHECK (status IN ('CREATED', 'ACTIVE', 'SUSPENDED', 'CANCELLED', 'DECLINED', 'EXPIRED', 'FAILED')),
  status_reason          text CHECK (length(status_reason) <= 200),
  provider_agreement_id  text CHECK (length(provider_agreement_id) BETWEEN 1 AND 100),
  -- The provider's version of the agreement we last applied: older snapshots are ignored.
  provider_version       integer NOT NULL DEFAULT 0,
  party_name             text NOT NULL CHECK (length(party_name) BETWEEN 1 AND 140),
  ultimate_party_name    text NOT NULL DEFAULT '' CHECK (length(ultimate_party_name) <= 140),
  -- Either a BSB and account number (BBAN) or a PayID (alias), never both.
  bsb                    char(6) CHECK (bsb ~ '^[0-9]{6}$'),
  account_number         text CHECK (account_number ~ '^[0-9]{4,9}$'),
  alias_type             text CHECK (alias_type IN ('EMAL', 'TELI', 'AUBN', 'ORGN')),
  alias_value            text CHECK (length(alias_value) BETWEEN 1 AND 256),
  max_amount_cents       bigint NOT NULL CHECK (max_amount_cents > 0),
  frequency              text NOT NULL DEFAULT 'ADHOC' CHECK (frequency IN ('ADHOC')),
  created_by             uuid REFERENCES contacts (id) ON DELETE SET NULL,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, request_guid),
  UNIQUE (business_id, provider_agreement_id),
  CHECK ((bsb IS NOT NULL AND account_number IS NOT NULL AND alias_type IS NULL AND alias_value IS NULL)
      OR (bsb IS NULL AND account_number IS NULL AND alias_type IS NOT NULL AND alias_value IS NOT NULL))
);
CREATE INDEX payto_agreements_account_idx ON payto_agreements (business_id, account_id, created_at DESC, id);
-- The poller's work: agreements whose state can still change.
CREATE INDEX payto_agreements_open_idx ON payto_agreements (updated_at) WHERE status IN ('CREATED', 'ACTIVE', 'SUSPENDED');

CREATE TABLE payto_agreement_events (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id    uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  agreement_id   uuid NOT NULL REFERENCES payto_agreements (id) ON DELETE CASCADE,
  from_status    text,
  to_status      text NOT NULL,
  version        integer NOT NULL,
  -- How we learnt it: the portal's own request, a webhook, the poller, a payment's rejection.
  source         text NOT NULL CHECK (source IN ('portal', 'webhook', 'poll', 'payment')),
  reason         text CHECK (length(reason) <= 200),
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payto_agreement_events_agreement_idx ON payto_agreement_events (business_id, agreement_id, id);

-- PayTo payments go through the same claim/settle path as cards. "submitted": the provider
-- has accepted the payment and it is waiting to settle (it still reserves the invoices).
-- "payid": money that arrived at the account's receivable PayID.
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('pending', 'submitted', 'succeeded', 'failed', 'unknown', 'promised'));
ALTER TABLE payments DROP CONSTRAINT payments_method_check;
ALTER TABLE payments ADD CONSTRAINT payments_method_check CHECK (method IN ('card', 'payto', 'payid', 'promise'));
ALTER TABLE payments ADD COLUMN payto_agreement_id uuid REFERENCES payto_agreements (id);
ALTER TABLE payments ADD COLUMN provider_payment_id text CHECK (length(provider_payment_id) <= 100);
DROP INDEX payments_unsettled_idx;
CREATE INDEX payments_unsettled_idx ON payments (created_at) WHERE status IN ('pending', 'unknown', 'submitted');

CREATE TABLE payto_webhook_events (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  event_id     text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 100),
  type         text NOT NULL CHECK (length(type) <= 60),
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, event_id)
);

CREATE TABLE payto_payids (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  payid        text NOT NULL CHECK (length(payid) BETWEEN 3 AND 256),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, account_id),
  UNIQUE (payid)
);

CREATE TABLE payto_incoming_payments (
  business_id              uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  provider_transaction_id  text NOT NULL CHECK (length(provider_transaction_id) BETWEEN 1 AND 100),
  account_id               uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  payid                    text NOT NULL,
  amount_cents             bigint NOT NULL CHECK (amount_cents > 0),
  payer_name               text NOT NULL DEFAULT '' CHECK (length(payer_name) <= 140),
  payment_id               uuid REFERENCES payments (id),
  received_at              timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, provider_transaction_id)
);

-- The sandbox provider's own records (its "bank side").
CREATE TABLE sandbox_payto_agreements (
  id                text PRIMARY KEY,
  idempotency_key   text NOT NULL UNIQUE,
  merchant          text NOT NULL,
  hostname          text NOT NULL,
  status            text NOT NULL,
  status_reason     text,
  version           integer NOT NULL DEFAULT 1,
  payer             text NOT NULL,
  party_name        text NOT NULL,
  outcome           text NOT NULL,
  max_amount_cents  bigint NOT NULL,
  description       text NOT NULL DEFAULT '',
  -- Something the payer's bank will do by itself later (expire, suspend), and when.
  next_action       text,
  next_action_at    timestamptz,
  -- Changes the provider does not announce by webhook (only polling sees them).
  silent            boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_payto_agreements_payer_idx ON sandbox_payto_agreements (payer, created_at DESC);
CREATE INDEX sandbox_payto_agreements_due_idx ON sandbox_payto_agreements (next_action_at) WHERE next_action IS NOT NULL;

CREATE TABLE sandbox_payto_payments (
  id               text PRIMARY KEY,
  idempotency_key  text NOT NULL UNIQUE,
  agreement_id     text NOT NULL REFERENCES sandbox_payto_agreements (id),
  amount_cents     bigint NOT NULL CHECK (amount_cents > 0),
  currency         text NOT NULL,
  status           text NOT NULL,
  failure_reason   text,
  version          integer NOT NULL DEFAULT 1,
  settle_at        timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_payto_payments_due_idx ON sandbox_payto_payments (settle_at) WHERE status = 'CREATED';

CREATE TABLE sandbox_payto_payids (
  payid      text PRIMARY KEY,
  merchant   text NOT NULL,
  hostname   text NOT NULL,
  reference  text NOT NULL,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_payto_incoming (
  id           text PRIMARY KEY,
  payid        text NOT NULL REFERENCES sandbox_payto_payids (payid),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  payer_name   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- Webhooks the sandbox owes the portal, retried until answered 2xx (as providers do).
CREATE TABLE sandbox_payto_webhooks (
  id               text PRIMARY KEY,
  hostname         text NOT NULL,
  body             text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  last_status      integer
);
CREATE INDEX sandbox_payto_webhooks_due_idx ON sandbox_payto_webhooks (next_attempt_at) WHERE delivered_at IS NULL;
`;
