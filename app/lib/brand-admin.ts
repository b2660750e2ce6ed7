import { z } from "zod";
import { THEME_NAMES, type ThemeName } from "~/themes/names";
import { BRAND_LABEL_MAX_LENGTH, BRAND_NAME_MAX_LENGTH, checkBrandText } from "./brand-text";

/**
 * The host admin's branding pages (issue 16): the draft form's schema and the shapes the
 * pages show. Client-safe: the browser derives the form's HTML constraints from the same
 * schema the server validates with.
 */

/** The colour choice: one of the fifteen themes, or a custom brand colour. */
export const CUSTOM_COLOUR_CHOICE = "custom";

/**
 * A business name (required) or label: the brand service's own rule (app/lib/brand-text.ts:
 * at most 120 characters, no control, bidirectional or separator characters; markup is text),
 * checked here too so that a refused field stops the save before any upload is stored.
 */
const brandText = (required: boolean) =>
  z
    .string({ required_error: required ? "branding.error.businessName.required" : undefined })
    .max(BRAND_NAME_MAX_LENGTH, "branding.error.text.tooLong")
    .transform((raw, context) => {
      const checked = checkBrandText(raw, { max: required ? BRAND_NAME_MAX_LENGTH : BRAND_LABEL_MAX_LENGTH, required });
      if (checked.ok) return checked.value;
      context.addIssue({
        code: z.ZodIssueCode.custom,
        message:
          checked.problem === "required"
            ? "branding.error.businessName.required"
            : checked.problem === "tooLong"
              ? "branding.error.text.tooLong"
              : "branding.error.businessName.invalidText",
      });
      return z.NEVER;
    });

export const BrandDraftSchema = z.object({
  theme: z.enum([...THEME_NAMES, CUSTOM_COLOUR_CHOICE], {
    errorMap: () => ({ message: "branding.error.theme.invalid" }),
  }),
  // Checked by parseBrandColour on the server (a custom choice needs one); the length cap
  // only keeps a hostile value short.
  brandColour: z.string().trim().max(20, "branding.error.colour.invalid").optional(),
  brandColourPicker: z.string().max(20).optional(),
  businessName: brandText(true),
  label: brandText(false).optional(),
});

export type BrandDraftInput = z.infer<typeof BrandDraftSchema>;

/** The pages a preview shows, each the real route customers get. */
export const PREVIEW_PAGES = {
  signin: "/auth/signin",
  dashboard: "/",
  invoices: "/customer/invoices-and-payments/invoices",
  pay: "/customer/invoices-and-payments/pay?all=1",
} as const;
export type PreviewPage = keyof typeof PREVIEW_PAGES;

export function isPreviewPage(value: unknown): value is PreviewPage {
  return typeof value === "string" && Object.hasOwn(PREVIEW_PAGES, value);
}

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

/** The message key naming a brand field in a change list; unknown fields show as they are. */
export const BRAND_FIELD_KEYS = {
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
