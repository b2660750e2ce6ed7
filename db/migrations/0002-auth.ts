/**
 * Sign-in: database sessions, single-use tokens (password reset, email verification),
 * rate-limit counters shared by every portal process, and an audit trail.
 */
export const name = "0002-auth";

export const up = /* sql */ `
CREATE TABLE sessions (
  -- SHA-256 of the random id in the cookie: a leaked table cannot be replayed as cookies.
  id_hash       text PRIMARY KEY CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  contact_id    uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  auth_method   text NOT NULL CHECK (auth_method IN ('credentials', 'auth0')),
  log_token     text NOT NULL,
  data          jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  user_agent    text NOT NULL DEFAULT '' CHECK (length(user_agent) <= 512)
);
CREATE INDEX sessions_contact_idx ON sessions (business_id, contact_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

CREATE TABLE auth_tokens (
  token_hash   text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  contact_id   uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  purpose      text NOT NULL CHECK (purpose IN ('password-reset', 'email-verify')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);
CREATE INDEX auth_tokens_contact_idx ON auth_tokens (business_id, contact_id, purpose);

CREATE TABLE rate_limits (
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  key           text NOT NULL CHECK (length(key) <= 400),
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, key, window_start)
);
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);

CREATE TABLE audit_events (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  contact_id   uuid REFERENCES contacts (id) ON DELETE SET NULL,
  action       text NOT NULL,
  at           timestamptz NOT NULL DEFAULT now(),
  client_ip    text,
  details      jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_events_business_at_idx ON audit_events (business_id, at DESC);
`;
