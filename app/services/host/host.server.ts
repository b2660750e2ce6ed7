import type { Db } from "../platform/db.server";
import type { EmailBrand } from "../platform/email-layout.server";
import { feeRulesFromRow, type FeeRules } from "~/lib/payment-calc";
import { storedBrandTokens } from "~/lib/brand-colours";
import type { ThemeName } from "~/themes/names";
import type { ThemeTokens } from "~/themes/tokens";
import type { BrandAssetType } from "../platform/db-schema.server";
import { lastForwardedValue } from "../platform/forwarded.server";

/** What a host name resolves to (spec §1, §3: business id, theme, logo directory, name, label). */
export type HostBranding = {
  hostname: string;
  businessId: string;
  theme: ThemeName;
  logoDirectory: string;
  businessName: string;
  businessLabel: string;
  /** The header's logo: the uploaded one (`/brand-assets/<version>/logo.<ext>`) or `<logoDirectory>/logo.svg`. */
  logoUrl: string;
  /** The page's icon, the same way (`…/favicon.<ext>` or the static directory's favicon.svg), and its type. */
  faviconUrl: string;
  faviconType: string;
  /** A custom brand colour's stylesheet (`/brand-assets/<version>/theme.css`), null for a named theme. */
  customCss: string | null;
  /**
   * A custom brand colour's derived roles (checked: every pair passes WCAG AA), which the emails
   * are coloured with; null for a named theme (the theme's own tokens). Decision 081.
   */
  brandTokens: ThemeTokens | null;
  /** The logo as emails show it: a PNG on the host (decision 081), and its shown size in CSS pixels. */
  emailLogo: EmailLogo;
  /**
   * Set when this request's session previews a draft brand (issue 16): the brand fields above are
   * the draft's, for this session alone. Never set by findHostBranding (emails, back office, bootstrap).
   */
  preview: { versionId: string } | null;
  country: "AU" | "NZ";
  currency: string;
  timeZone: string;
  /**
   * The business's support email and phone, read with the host so that a link page that is not
   * found can name them without a query of its own. Optional only for hand-made test brandings.
   */
  supportEmail?: string | null;
  supportPhone?: string | null;
  authProvider: "credentials" | "auth0";
  auth0Domain: string | null;
  auth0ClientId: string | null;
  /** The host's configured canonical origin (hosts.public_base_url); see `publicBaseUrl`. */
  publicBaseUrl: string | null;
  /**
   * The business's PayTo settings as stored (null: none), read with the host so that every
   * request starts with them (spec §4 step 3); `payToConfigurationOf` says what they mean.
   */
  payToSettings: { enabled: boolean; providerName: string; maxPaymentCents: number; payIdDomain: string | null } | null;
  /** The business's card surcharge, late fee and early-payment discount, read with the host the same way. */
  feeRules: FeeRules;
  /**
   * Whether the business takes ad-hoc payments and between which amounts (decision 033), read
   * with the host too; no settings means it does not. The payment engine checks them again
   * under its own transaction.
   */
  adhoc: { enabled: boolean; minCents: number; maxCents: number };
};

/**
 * The origin every link in this host's emails is built from: the host's configured
 * canonical base URL, else https://<hostname>. Never the request's Host, port or
 * X-Forwarded-* headers, which a client (or a misconfigured proxy) chooses. Decision 024.
 */
export function publicBaseUrl(branding: Pick<HostBranding, "hostname" | "publicBaseUrl">): string {
  return branding.publicBaseUrl ?? `https://${branding.hostname}`;
}

/** An absolute link on the host's canonical origin, for emails. `path` starts with "/". */
export function publicLink(branding: Pick<HostBranding, "hostname" | "publicBaseUrl">, path: string): string {
  return new URL(path, `${publicBaseUrl(branding)}/`).toString();
}

/** The five fields of GET /api/host/bootstrap. */
export type HostBootstrap = Pick<
  HostBranding,
  "businessId" | "theme" | "logoDirectory" | "businessName" | "businessLabel"
>;

export function toBootstrap(branding: HostBranding): HostBootstrap {
  return {
    businessId: branding.businessId,
    theme: branding.theme,
    logoDirectory: branding.logoDirectory,
    businessName: branding.businessName,
    businessLabel: branding.businessLabel,
  };
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Lower-cases a Host-style value, drops the port and a trailing dot, and checks it is a
 * plausible DNS name (or IP literal). Returns null for anything else, so hostile input
 * (spaces, markup, over-long names, unicode look-alikes) never reaches a query.
 */
export function normalizeHostname(raw: string | null | undefined): string | null {
  if (typeof raw !== "string") return null;
  let value = raw.trim().toLowerCase();
  if (value.length === 0 || value.length > 260) return null;
  if (value.startsWith("[")) {
    // IPv6 literal, with or without a port: never a tenant, but not malformed either.
    const end = value.indexOf("]");
    if (end < 0) return null;
    const literal = value.slice(1, end);
    return /^[0-9a-f:.]+$/.test(literal) ? `[${literal}]` : null;
  }
  const colon = value.lastIndexOf(":");
  if (colon >= 0) {
    const port = value.slice(colon + 1);
    if (!/^\d{1,5}$/.test(port)) return null;
    value = value.slice(0, colon);
  }
  if (value.endsWith(".")) value = value.slice(0, -1);
  if (value.length === 0 || value.length > 253) return null;
  const labels = value.split(".");
  return labels.every((label) => HOST_LABEL.test(label)) ? value : null;
}

/**
 * The host the browser asked for. `X-Forwarded-Host` is believed only behind a proxy the
 * operator has declared trusted (TRUST_PROXY); otherwise anyone could pick a tenant. Its
 * right-most value, the one that proxy wrote: a proxy that appends keeps the client's own
 * values to the left (decision 024).
 */
export function hostnameFromRequest(request: Request, options: { trustProxy: boolean }) {
  const forwarded = options.trustProxy ? lastForwardedValue(request.headers.get("x-forwarded-host")) : null;
  const raw = forwarded ?? request.headers.get("host") ?? new URL(request.url).host;
  return normalizeHostname(raw);
}

export async function findHostBranding(db: Db, hostname: string): Promise<HostBranding | null> {
  const row = await db
    .selectFrom("hosts")
    .innerJoin("businesses", "businesses.id", "hosts.business_id")
    .leftJoin("payto_settings", "payto_settings.business_id", "businesses.id")
    .leftJoin("fee_rules", "fee_rules.business_id", "businesses.id")
    .leftJoin("adhoc_settings", "adhoc_settings.business_id", "businesses.id")
    // The published brand version (issue 16) and the types of its uploaded logo and favicon.
    .leftJoin("brand_versions", (join) =>
      join
        .onRef("brand_versions.id", "=", "businesses.brand_version_id")
        .onRef("brand_versions.business_id", "=", "businesses.id"),
    )
    .leftJoin("brand_assets as logo_asset", "logo_asset.id", "brand_versions.logo_asset_id")
    .leftJoin("brand_assets as favicon_asset", "favicon_asset.id", "brand_versions.favicon_asset_id")
    .select([
      "hosts.hostname",
      "businesses.id as businessId",
      "businesses.theme",
      "businesses.logo_directory as logoDirectory",
      "businesses.name as businessName",
      "businesses.label as businessLabel",
      "businesses.country",
      "businesses.currency",
      "businesses.time_zone as timeZone",
      "businesses.support_email as supportEmail",
      "businesses.support_phone as supportPhone",
      "businesses.auth_provider as authProvider",
      "businesses.auth0_domain as auth0Domain",
      "businesses.auth0_client_id as auth0ClientId",
      "hosts.public_base_url as publicBaseUrl",
      "payto_settings.enabled as payToEnabled",
      "payto_settings.provider_name as payToProviderName",
      "payto_settings.max_payment_cents as payToMaxPaymentCents",
      "payto_settings.payid_domain as payToPayIdDomain",
      "fee_rules.business_id as feeRulesBusinessId",
      "fee_rules.surcharge as feeSurcharge",
      "fee_rules.late_fee_bps as lateFeeBps",
      "fee_rules.late_fee_fixed_cents as lateFeeFixedCents",
      "fee_rules.early_discount_bps as earlyDiscountBps",
      "fee_rules.early_discount_days as earlyDiscountDays",
      "adhoc_settings.enabled as adhocEnabled",
      "adhoc_settings.min_cents as adhocMinCents",
      "adhoc_settings.max_cents as adhocMaxCents",
      "brand_versions.id as versionId",
      "brand_versions.logo_directory as versionLogoDirectory",
      "brand_versions.brand_colour as brandColour",
      "brand_versions.tokens as brandTokens",
      "logo_asset.content_type as logoType",
      "logo_asset.width as logoWidth",
      "logo_asset.height as logoHeight",
      "favicon_asset.content_type as faviconType",
    ])
    .where("hosts.hostname", "=", hostname)
    .executeTakeFirst();
  if (!row) return null;
  const {
    payToEnabled,
    payToProviderName,
    payToMaxPaymentCents,
    payToPayIdDomain,
    feeRulesBusinessId,
    feeSurcharge,
    lateFeeBps,
    lateFeeFixedCents,
    earlyDiscountBps,
    earlyDiscountDays,
    adhocEnabled,
    adhocMinCents,
    adhocMaxCents,
    versionId,
    versionLogoDirectory,
    brandColour,
    brandTokens,
    logoType,
    logoWidth,
    logoHeight,
    faviconType,
    ...host
  } = row;
  const look = brandLook(
    versionId === null || versionLogoDirectory === null
      ? { versionId: null, logoDirectory: host.logoDirectory, custom: false, logoType: null, faviconType: null }
      : {
          versionId,
          logoDirectory: versionLogoDirectory,
          custom: brandColour !== null,
          tokens: brandTokens,
          logoType,
          logoSize: logoWidth !== null && logoHeight !== null ? { width: logoWidth, height: logoHeight } : null,
          faviconType,
        },
  );
  return {
    ...host,
    ...look,
    preview: null,
    adhoc: {
      enabled: adhocEnabled === true,
      minCents: Number(adhocMinCents ?? 0),
      maxCents: Number(adhocMaxCents ?? 0),
    },
    feeRules: feeRulesFromRow(
      feeRulesBusinessId === null
        ? null
        : {
            surcharge: feeSurcharge,
            lateFeeBps: lateFeeBps ?? 0,
            lateFeeFixedCents: Number(lateFeeFixedCents ?? 0),
            earlyDiscountBps: earlyDiscountBps ?? 0,
            earlyDiscountDays: earlyDiscountDays ?? 0,
          },
    ),
    payToSettings:
      payToEnabled === null || payToProviderName === null || payToMaxPaymentCents === null
        ? null
        : {
            enabled: payToEnabled,
            providerName: payToProviderName,
            maxPaymentCents: Number(payToMaxPaymentCents),
            payIdDomain: payToPayIdDomain,
          },
  };
}

const ASSET_EXTENSIONS: Record<BrandAssetType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/svg+xml": "svg",
};

/** Where a brand version's files are served (routes/brand-assets.$versionId.$file.ts). */
export const brandAssetsDirectory = (versionId: string) => `/brand-assets/${versionId}`;

/** The logo an email shows (decision 081): a PNG, and the size it is shown at in CSS pixels. */
export type EmailLogo = { url: string; width: number; height: number };

/**
 * An email's logo is shown at most EMAIL_LOGO.height px tall and EMAIL_LOGO.maxWidth px wide, its
 * proportions kept; its PNG is made at EMAIL_LOGO.scale times that (sharp screens).
 */
export const EMAIL_LOGO = { height: 48, maxWidth: 240, scale: 2 } as const;

/** The shown size of a logo of `width` × `height` (any unit): inside EMAIL_LOGO's box, never 0. */
export function emailLogoSize(size: { width: number; height: number } | null): { width: number; height: number } {
  if (!size || !(size.width > 0) || !(size.height > 0)) return { width: EMAIL_LOGO.height, height: EMAIL_LOGO.height };
  const scale = Math.min(EMAIL_LOGO.height / size.height, EMAIL_LOGO.maxWidth / size.width);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

/**
 * The addresses a brand's pages use (issue 16). A version's uploaded logo and favicon are served
 * from `/brand-assets/<version>/logo.<ext>` and `favicon.<ext>` (ext from the stored type), a custom
 * colour's stylesheet from `…/theme.css`; without an upload, the static logo directory's SVGs. The
 * logo directory (bootstrap's field) is `/brand-assets/<version>` when the logo is uploaded.
 * `logoDirectory` here is always the static one (`/brands/<name>`).
 *
 * Emails (decision 081) show `email-logo.png` of the same directory: an uploaded logo made into a
 * PNG by the brand-assets route, or the static directory's PNG beside its SVG (square, as every
 * static logo is). A custom colour's tokens are read (and checked) for the emails' colours.
 */
export function brandLook(brand: {
  versionId: string | null;
  logoDirectory: string;
  custom: boolean;
  /** The version's stored tokens (JSON), read when `custom`. */
  tokens?: unknown;
  logoType: BrandAssetType | null;
  /** The uploaded logo's size in pixels (brand_assets.width, height). */
  logoSize?: { width: number; height: number } | null;
  faviconType: BrandAssetType | null;
}): Pick<
  HostBranding,
  "logoDirectory" | "logoUrl" | "faviconUrl" | "faviconType" | "customCss" | "brandTokens" | "emailLogo"
> {
  const staticDirectory = brand.logoDirectory.replace(/\/+$/, "");
  const assets = brand.versionId ? brandAssetsDirectory(brand.versionId) : null;
  const uploadedLogo = assets !== null && brand.logoType !== null;
  const brandTokens = assets && brand.custom ? storedBrandTokens(brand.tokens) : null;
  return {
    logoDirectory: uploadedLogo ? assets : staticDirectory,
    logoUrl: uploadedLogo ? `${assets}/logo.${ASSET_EXTENSIONS[brand.logoType!]}` : `${staticDirectory}/logo.svg`,
    faviconUrl:
      assets && brand.faviconType
        ? `${assets}/favicon.${ASSET_EXTENSIONS[brand.faviconType]}`
        : `${staticDirectory}/favicon.svg`,
    faviconType: assets && brand.faviconType ? brand.faviconType : "image/svg+xml",
    customCss: assets && brand.custom ? `${assets}/theme.css` : null,
    brandTokens,
    emailLogo: {
      url: `${uploadedLogo ? assets : staticDirectory}/${EMAIL_LOGO_FILE}`,
      ...emailLogoSize(uploadedLogo ? (brand.logoSize ?? null) : null),
    },
  };
}

/** The email logo's file name, in a version's asset directory and in a static logo directory. */
export const EMAIL_LOGO_FILE = "email-logo.png";

export type LegalDocument = "privacy_policy" | "terms_and_conditions";

export async function getLegalDocument(db: Db, businessId: string, document: LegalDocument) {
  const row = await db.selectFrom("businesses").select(document).where("id", "=", businessId).executeTakeFirst();
  return row ? (row[document] as string) : null;
}

/**
 * A business's branding when no request names its host (emails sent from the back-office API,
 * the CLI, jobs): its host with a canonical base URL first, else the first by name. Null when
 * the business has no host at all, so no link to it can be built.
 */
export async function findBusinessBranding(db: Db, businessId: string): Promise<HostBranding | null> {
  const host = await db
    .selectFrom("hosts")
    .select("hostname")
    .where("business_id", "=", businessId)
    .orderBy((eb) => eb("public_base_url", "is", null))
    .orderBy("hostname")
    .executeTakeFirst();
  return host ? findHostBranding(db, host.hostname) : null;
}

/**
 * How the host's emails look (decision 081): the published brand's name, its colours (a custom
 * colour's derived roles, else the theme's) and its logo as a PNG, an absolute URL on the public base.
 */
export function emailBrandOf(branding: HostBranding): EmailBrand {
  return {
    businessName: branding.businessName,
    theme: branding.theme,
    tokens: branding.brandTokens,
    logo: { ...branding.emailLogo, url: publicLink(branding, branding.emailLogo.url) },
  };
}
