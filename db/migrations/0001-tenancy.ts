/**
 * Tenancy, branding, people and accounts: what every later feature stands on.
 * Plain SQL that runs unchanged on PGlite (PostgreSQL 17) and PostgreSQL 15.
 */
export const name = "0001-tenancy";

export const up = /* sql */ `
CREATE TABLE businesses (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  label                 text NOT NULL DEFAULT '' CHECK (length(label) <= 120),
  country               text NOT NULL DEFAULT 'AU' CHECK (country IN ('AU', 'NZ')),
  currency              text NOT NULL DEFAULT 'AUD' CHECK (currency ~ '^[A-Z]{3}$'),
  time_zone             text NOT NULL DEFAULT 'Australia/Sydney',
  theme                 text NOT NULL DEFAULT 'base' CHECK (theme IN (
                          'base', 'light-red', 'dark-blue', 'navy-blue', 'strong-red', 'monza',
                          'torch-red', 'lochmara', 'sorrell-brown', 'blaze-orange', 'science-blue',
                          'crimson', 'sycamore', 'english-holly', 'electric-violet')),
  logo_directory        text NOT NULL DEFAULT '/brands/default'
                          CHECK (logo_directory ~ '^/brands/[a-z0-9][a-z0-9-]{0,62}$'),
  auth_provider         text NOT NULL DEFAULT 'credentials' CHECK (auth_provider IN ('credentials', 'auth0')),
  auth0_domain          text,
  auth0_client_id       text,
  privacy_policy        text NOT NULL DEFAULT '',
  terms_and_conditions  text NOT NULL DEFAULT '',
  support_email         text,
  created_at            timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE hosts (
  hostname     text PRIMARY KEY CHECK (hostname = lower(hostname) AND hostname ~ '^[a-z0-9.-]{1,253}$'),
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hosts_business_idx ON hosts (business_id);

CREATE TABLE business_configs (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name         text NOT NULL,
  value        text NOT NULL DEFAULT '',
  PRIMARY KEY (business_id, name)
);

CREATE TABLE ui_settings (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  item_name    text NOT NULL,
  is_visible   boolean NOT NULL,
  PRIMARY KEY (business_id, item_name)
);

CREATE TABLE accounts (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id        uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  parent_account_id  uuid REFERENCES accounts (id) ON DELETE SET NULL,
  number             text NOT NULL,
  name               text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  address            text NOT NULL DEFAULT '',
  payment_terms_days integer NOT NULL DEFAULT 30 CHECK (payment_terms_days BETWEEN 0 AND 365),
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, number)
);
CREATE INDEX accounts_parent_idx ON accounts (business_id, parent_account_id);
CREATE INDEX accounts_name_idx ON accounts (business_id, name);

CREATE TABLE feature_toggles (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id          uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id           uuid REFERENCES accounts (id) ON DELETE CASCADE,
  name                 text NOT NULL,
  enabled              boolean NOT NULL DEFAULT false,
  configuration_value  jsonb NOT NULL DEFAULT '{}'::jsonb
);
-- One toggle per name for the business, and at most one override per account.
CREATE UNIQUE INDEX feature_toggles_business_name ON feature_toggles (business_id, name) WHERE account_id IS NULL;
CREATE UNIQUE INDEX feature_toggles_account_name ON feature_toggles (business_id, account_id, name) WHERE account_id IS NOT NULL;

CREATE TABLE contacts (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id       uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  email             text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  first_name        text NOT NULL DEFAULT '',
  last_name         text NOT NULL DEFAULT '',
  position          text NOT NULL DEFAULT '',
  verified_at       timestamptz,
  password_hash     text,
  external_subject  text,
  permissions       text[] NOT NULL DEFAULT '{}',
  disabled_at       timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, email)
);
CREATE UNIQUE INDEX contacts_external_subject ON contacts (business_id, external_subject) WHERE external_subject IS NOT NULL;

CREATE TABLE account_contacts (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  contact_id   uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  role         text NOT NULL DEFAULT 'contact' CHECK (role IN ('owner', 'contact', 'billing')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, contact_id)
);
CREATE INDEX account_contacts_contact_idx ON account_contacts (business_id, contact_id);
`;
