/**
 * Host admins' brands (issue 16; decision 037): drafts, previews, publishing and rolling back.
 *
 * - brand_assets: an uploaded logo or favicon, as stored after checking (PNG, JPEG and WebP
 *   re-encoded by sharp; SVG sanitised): its bytes, type, size and pixels. Never changed.
 * - brand_versions: one brand, whole — base theme, or a brand colour and the colour roles derived
 *   from it; business name and label; logo and favicon (uploaded assets, else a static logo
 *   directory). Never changed once written: saving a draft writes a new version.
 * - brand_drafts: the business's current draft (one per business): which version, who saved it.
 * - brand_publications: every publish and roll back: who, when, from which version to which, and
 *   what changed. The newest row is what the host shows; businesses' brand columns are kept in
 *   step in the same transaction (bootstrap, title and favicon read them).
 * - businesses.brand_version_id: the published version (null: the seed's columns, no version yet).
 */
export const name = "0014-brands";

export const up = /* sql */ `
ALTER TABLE businesses DROP CONSTRAINT IF EXISTS businesses_logo_directory_check;
ALTER TABLE businesses ADD CONSTRAINT businesses_logo_directory_check
  CHECK (logo_directory ~ '^/(brands/[a-z0-9][a-z0-9-]{0,62}|brand-assets/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$');

CREATE TABLE brand_assets (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('logo', 'favicon')),
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/svg+xml')),
  bytes         bytea NOT NULL,
  byte_size     integer NOT NULL CHECK (byte_size BETWEEN 1 AND 2097152),
  width         integer NOT NULL CHECK (width BETWEEN 1 AND 4096),
  height        integer NOT NULL CHECK (height BETWEEN 1 AND 4096),
  sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  created_by    uuid REFERENCES contacts (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, id)
);
CREATE INDEX brand_assets_business_idx ON brand_assets (business_id, created_at);

CREATE TABLE brand_versions (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id       uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  theme             text NOT NULL CHECK (theme IN (
                      'base', 'light-red', 'dark-blue', 'navy-blue', 'strong-red', 'monza',
                      'torch-red', 'lochmara', 'sorrell-brown', 'blaze-orange', 'science-blue',
                      'crimson', 'sycamore', 'english-holly', 'electric-violet')),
  -- A custom brand colour (lower-case #rrggbb) and the colour roles derived from it; null: the theme's own.
  brand_colour      text CHECK (brand_colour ~ '^#[0-9a-f]{6}$'),
  tokens            jsonb,
  business_name     text NOT NULL CHECK (length(business_name) BETWEEN 1 AND 120),
  label             text NOT NULL DEFAULT '' CHECK (length(label) <= 120),
  logo_asset_id     uuid REFERENCES brand_assets (id) ON DELETE SET NULL,
  favicon_asset_id  uuid REFERENCES brand_assets (id) ON DELETE SET NULL,
  -- The static logo directory used when no logo is uploaded (the seed's /brands/<name>).
  logo_directory    text NOT NULL CHECK (logo_directory ~ '^/brands/[a-z0-9][a-z0-9-]{0,62}$'),
  created_by        uuid REFERENCES contacts (id) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((brand_colour IS NULL) = (tokens IS NULL)),
  UNIQUE (business_id, id)
);
CREATE INDEX brand_versions_business_idx ON brand_versions (business_id, created_at);

CREATE TABLE brand_drafts (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  version_id   uuid NOT NULL,
  saved_by     uuid REFERENCES contacts (id) ON DELETE SET NULL,
  saved_at     timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (business_id, version_id) REFERENCES brand_versions (business_id, id) ON DELETE CASCADE
);

CREATE TABLE brand_publications (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  version_id      uuid NOT NULL,
  -- What was live before (null: the business's first published version).
  previous_id     uuid,
  kind            text NOT NULL CHECK (kind IN ('publish', 'rollback')),
  -- [{field, from, to}] for the fields that changed.
  changes         jsonb NOT NULL DEFAULT '[]',
  published_by    uuid REFERENCES contacts (id) ON DELETE SET NULL,
  client_ip       text NOT NULL DEFAULT '',
  published_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (business_id, version_id) REFERENCES brand_versions (business_id, id) ON DELETE CASCADE,
  FOREIGN KEY (business_id, previous_id) REFERENCES brand_versions (business_id, id) ON DELETE SET NULL (previous_id)
);
CREATE INDEX brand_publications_business_idx ON brand_publications (business_id, published_at DESC);

ALTER TABLE businesses ADD COLUMN brand_version_id uuid;
ALTER TABLE businesses ADD CONSTRAINT businesses_brand_version_fkey
  FOREIGN KEY (id, brand_version_id) REFERENCES brand_versions (business_id, id) ON DELETE SET NULL (brand_version_id);
`;
