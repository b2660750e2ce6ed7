/**
 * Payments (issue 3): the business's fee rules, each payment with its idempotency key (the
 * spec's requestGuid), and its allocations to invoices. A payment and its allocations are
 * written together; pending payments reserve the amounts they allocate, so two payments can
 * never take the same balance twice.
 */
export const name = "0006-payments";

export const up = /* sql */ `
CREATE TABLE fee_rules (
  business_id            uuid PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  -- Card surcharge by brand: {"visa": {"bps": 150, "fixedCents": 0}, "default": {...}}.
  surcharge              jsonb NOT NULL DEFAULT '{}'::jsonb,
  late_fee_bps           integer NOT NULL DEFAULT 0 CHECK (late_fee_bps BETWEEN 0 AND 10000),
  late_fee_fixed_cents   bigint NOT NULL DEFAULT 0 CHECK (late_fee_fixed_cents >= 0),
  early_discount_bps     integer NOT NULL DEFAULT 0 CHECK (early_discount_bps BETWEEN 0 AND 10000),
  early_discount_days    integer NOT NULL DEFAULT 0 CHECK (early_discount_days >= 0)
);

CREATE TABLE payments (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id         uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id          uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  request_guid        uuid NOT NULL,
  request_hash        text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  reference           text NOT NULL CHECK (length(reference) BETWEEN 4 AND 40),
  method              text NOT NULL CHECK (method IN ('card', 'payto', 'promise')),
  card_id             uuid REFERENCES cards (id),
  status              text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'unknown', 'promised')),
  currency            text NOT NULL,
  amount_cents        bigint NOT NULL CHECK (amount_cents >= 0),
  subtotal_cents      bigint NOT NULL CHECK (subtotal_cents >= 0),
  merchant_fee_cents  bigint NOT NULL DEFAULT 0 CHECK (merchant_fee_cents >= 0),
  late_fee_cents      bigint NOT NULL DEFAULT 0 CHECK (late_fee_cents >= 0),
  discount_cents      bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
  note                text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  promise_date        date,
  card_brand          text,
  card_last4          char(4),
  gateway_charge_id   text,
  failure_code        text,
  created_by          uuid REFERENCES contacts (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  completed_at        timestamptz,
  UNIQUE (business_id, request_guid),
  UNIQUE (business_id, reference)
);
CREATE INDEX payments_account_idx ON payments (business_id, account_id, created_at DESC, id);
CREATE INDEX payments_unsettled_idx ON payments (created_at) WHERE status IN ('pending', 'unknown');

CREATE TABLE payment_allocations (
  payment_id            uuid NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  invoice_id            uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
  business_id           uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  amount_cents          bigint NOT NULL CHECK (amount_cents > 0),
  discount_cents        bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
  late_fee_cents        bigint NOT NULL DEFAULT 0 CHECK (late_fee_cents >= 0),
  balance_before_cents  bigint NOT NULL CHECK (balance_before_cents >= amount_cents),
  PRIMARY KEY (payment_id, invoice_id)
);
CREATE INDEX payment_allocations_invoice_idx ON payment_allocations (business_id, invoice_id);
-- The invoices page's "largest balance first" order, paged in the index.
CREATE INDEX invoices_account_balance_idx ON invoices (business_id, account_id, balance_cents DESC, id DESC);
-- Its default view, what is still owing by due date, reading only invoices with a balance.
CREATE INDEX invoices_account_owing_due_idx ON invoices (business_id, account_id, due_date, id) WHERE balance_cents > 0;
`;
