/**
 * Held cards (issue 31; decision 071): a new card tokenised at the gateway on a pay form's first
 * submit when the total it would pay differs from the total the payer was shown (a brand's
 * surcharge typed without JavaScript, a changed amount). The payer then confirms the exact total;
 * the confirm pays with this token. Never the number or CVN: only the gateway's token and the
 * card's public facts.
 *
 * - One per (business, request_guid): the form's key, so a confirm pays at most once.
 * - holder_hash: sha256 of a random value in an httpOnly cookie of the browser that held it; the
 *   confirm must come from that browser (and the same account and contact).
 * - expires_at: a held card is good for 15 minutes; the expiry sweep removes it and its token.
 */
export const name = "0021-held-cards";

export const up = /* sql */ `
CREATE TABLE held_cards (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  contact_id      uuid REFERENCES contacts (id) ON DELETE CASCADE,
  request_guid    uuid NOT NULL,
  holder_hash     text NOT NULL CHECK (holder_hash ~ '^[0-9a-f]{64}$'),
  gateway_token   text NOT NULL CHECK (length(gateway_token) BETWEEN 1 AND 200),
  brand           text NOT NULL CHECK (brand IN ('visa', 'mastercard', 'amex', 'diners', 'jcb', 'discover', 'unionpay')),
  first_digit     char(1) NOT NULL CHECK (first_digit ~ '^[0-9]$'),
  last4           char(4) NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  expiry_month    smallint NOT NULL CHECK (expiry_month BETWEEN 1 AND 12),
  expiry_year     smallint NOT NULL CHECK (expiry_year BETWEEN 2000 AND 2099),
  holder_name     text NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 100),
  save            boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  UNIQUE (business_id, request_guid)
);
CREATE INDEX held_cards_expiry_idx ON held_cards (expires_at);
`;
