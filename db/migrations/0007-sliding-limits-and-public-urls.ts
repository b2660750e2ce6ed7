/**
 * Issue 12 (decision 024):
 * - Rate limits become a sliding window: each counted attempt is a row with its time, and a
 *   limit counts the rows of the last window (fixed buckets made "15 minutes" mean 0–15).
 * - The addresses a contact has signed in from successfully, so that a correct password from
 *   a known address gets past the per-account ceiling a distributed guesser can fill.
 * - Each host's canonical public base URL, from which every link in every email is built
 *   (never from request headers). Null means https://<hostname>.
 */
export const name = "0007-sliding-limits-and-public-urls";

export const up = /* sql */ `
DROP TABLE rate_limits;

CREATE TABLE rate_limit_hits (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  key          text NOT NULL CHECK (length(key) <= 400),
  at           timestamptz NOT NULL
);
CREATE INDEX rate_limit_hits_key_idx ON rate_limit_hits (business_id, key, at);
CREATE INDEX rate_limit_hits_at_idx ON rate_limit_hits (at);

CREATE TABLE sign_in_addresses (
  business_id      uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  contact_id       uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  address          text NOT NULL CHECK (length(address) <= 64),
  last_success_at  timestamptz NOT NULL,
  PRIMARY KEY (business_id, contact_id, address)
);

ALTER TABLE hosts ADD COLUMN public_base_url text
  CHECK (public_base_url ~ '^https?://[a-z0-9.-]+(:[0-9]{1,5})?$');
`;
