import type { ThemeName } from "~/themes/names";

/**
 * The host admin's branding pages (issue 16): the constants and shapes the pages show.
 * Client-safe and free of zod: the draft form's schema is in ./brand-draft-schema.
 */

/** The colour choice: one of the fifteen themes, or a custom brand colour. */
export const CUSTOM_COLOUR_CHOICE = "custom";

export { isPreviewPage, PREVIEW_PAGES, type PreviewPage } from "./brand-preview";

/** One brand as the admin pages show it (published or draft). */
export type BrandSummary = {
  versionId: string | null;
  theme: ThemeName;
  brandColour: string | null;
  businessName: string;
  label: string;
  logoUrl: string;
  faviconUrl: string;
};

/** What changes between two brands, as the publish list and the history show it. */
export type BrandChangeView = { field: string; from: string | null; to: string | null };

/** One line of the branding page's history: a publish or a restore of the brand, with what changed. */
export type PublicationHistoryEntry = {
  id: string;
  kind: "publish" | "rollback";
  at: string;
  by: string | null;
  changes: BrandChangeView[];
  restorable: boolean;
};

/** One line of the history: who gave or took away a contact's admin rights (issue 32; decision 080). */
export type AdminHistoryEntry = {
  id: string;
  kind: "adminGranted" | "adminRemoved";
  at: string;
  by: string | null;
  byBackOffice: boolean;
  whom: string | null;
};

export type BrandHistoryEntry = PublicationHistoryEntry | AdminHistoryEntry;

export const isAdminHistoryEntry = (entry: BrandHistoryEntry): entry is AdminHistoryEntry =>
  entry.kind === "adminGranted" || entry.kind === "adminRemoved";

/** The message key naming a brand field in a change list; unknown fields show as they are. */
export const BRAND_FIELD_KEYS = {
  look: "branding.field.look",
  theme: "branding.field.theme",
  brandColour: "branding.field.brandColour",
  tokens: "branding.field.tokens",
  businessName: "branding.field.businessName",
  label: "branding.field.label",
  logo: "branding.field.logo",
  favicon: "branding.field.favicon",
} as const;

/** The contrast pairs of app/themes/contrast.ts, by name, with their message keys. */
export const CONTRAST_PAIR_KEYS = {
  "body text on page": "branding.pair.bodyOnPage",
  "muted text on page": "branding.pair.mutedOnPage",
  "muted text on surface": "branding.pair.mutedOnSurface",
  "body text on surface": "branding.pair.bodyOnSurface",
  "link on page": "branding.pair.linkOnPage",
  "link hover on page": "branding.pair.linkHoverOnPage",
  "link on surface": "branding.pair.linkOnSurface",
  "button text on button": "branding.pair.buttonText",
  "button text on button hover": "branding.pair.buttonHoverText",
  "banner text on banner background": "branding.pair.bannerText",
  "primary on page": "branding.pair.primaryOnPage",
  "banner icon on banner icon background": "branding.pair.bannerIcon",
  "focus ring on page": "branding.pair.focusOnPage",
} as const;
