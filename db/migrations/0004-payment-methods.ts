/**
 * Saved payment methods (cards, bank accounts) and the sandbox card gateway's own records.
 *
 * Cards keep only what PCI DSS lets a merchant keep: the gateway's token, brand, first
 * digit, last four, expiry and holder name (3.3.1.2: never the CVN; 3.4.1: at most the
 * first six and last four). There is no column a card number or CVN could land in.
 *
 * The sandbox_gateway_* tables belong to the sandbox adapter, standing in for the card
 * gateway's own storage: a production adapter would not use them.
 */
export const name = "0004-payment-methods";

export const up = /* sql */ `
CREATE TABLE cards (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id          uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id           uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  gateway              text NOT NULL CHECK (length(gateway) <= 40),
  gateway_token        text NOT NULL CHECK (length(gateway_token) BETWEEN 1 AND 200),
  brand                text NOT NULL CHECK (brand IN ('visa', 'mastercard', 'amex', 'diners', 'jcb', 'discover', 'unionpay')),
  first_digit          char(1) NOT NULL CHECK (first_digit ~ '^[0-9]$'),
  last4                char(4) NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  expiry_month         smallint NOT NULL CHECK (expiry_month BETWEEN 1 AND 12),
  expiry_year          smallint NOT NULL CHECK (expiry_year BETWEEN 2000 AND 2099),
  holder_name          text NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 100),
  is_default           boolean NOT NULL DEFAULT false,
  authority_reference  text NOT NULL CHECK (length(authority_reference) BETWEEN 1 AND 100),
  consented_at         timestamptz NOT NULL,
  consented_by         uuid REFERENCES contacts (id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  removed_at           timestamptz
);
CREATE INDEX cards_account_idx ON cards (business_id, account_id, created_at, id) WHERE removed_at IS NULL;
-- At most one default card per account among the cards still saved.
CREATE UNIQUE INDEX cards_one_default_idx ON cards (business_id, account_id) WHERE is_default AND removed_at IS NULL;

CREATE TABLE bank_accounts (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id          uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id           uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  country              text NOT NULL CHECK (country IN ('AU', 'NZ')),
  account_name         text NOT NULL CHECK (length(account_name) BETWEEN 1 AND 100),
  -- AU: the BSB, 6 digits. NZ: bank-branch, "12-3456" (spec §3).
  routing              text NOT NULL CHECK (routing ~ '^([0-9]{6}|[0-9]{2}-[0-9]{4})$'),
  -- AU: 4 to 9 digits. NZ: number-suffix, "1234567-000".
  account_number       text NOT NULL CHECK (account_number ~ '^([0-9]{4,9}|[0-9]{7}-[0-9]{2,3})$'),
  description          text NOT NULL DEFAULT '' CHECK (length(description) <= 100),
  authority_reference  text NOT NULL CHECK (length(authority_reference) BETWEEN 1 AND 100),
  consented_at         timestamptz NOT NULL,
  consented_by         uuid REFERENCES contacts (id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  removed_at           timestamptz
);
CREATE INDEX bank_accounts_account_idx ON bank_accounts (business_id, account_id, created_at, id) WHERE removed_at IS NULL;

-- The sandbox gateway's vault: what a real gateway keeps behind a token. No card number.
CREATE TABLE sandbox_gateway_tokens (
  token         text PRIMARY KEY,
  brand         text NOT NULL,
  last4         char(4) NOT NULL,
  expiry_month  smallint NOT NULL,
  expiry_year   smallint NOT NULL,
  outcome       text NOT NULL,
  origin        text NOT NULL DEFAULT '',
  client_ip     text NOT NULL DEFAULT '',
  extra_data    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- The sandbox gateway's charges, unique by the merchant's idempotency key.
CREATE TABLE sandbox_gateway_charges (
  id               text PRIMARY KEY,
  idempotency_key  text NOT NULL UNIQUE,
  token            text NOT NULL,
  amount_cents     bigint NOT NULL CHECK (amount_cents > 0),
  currency         text NOT NULL,
  status           text NOT NULL CHECK (status IN ('captured', 'declined', 'refunded')),
  decline_code     text,
  refunded_cents   bigint NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now()
);
`;
