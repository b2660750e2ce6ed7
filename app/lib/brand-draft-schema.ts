import { z } from "zod";
import { THEME_NAMES } from "~/themes/names";
import { CUSTOM_COLOUR_CHOICE } from "./brand-admin";
import { BRAND_LABEL_MAX_LENGTH, BRAND_NAME_MAX_LENGTH, checkBrandText } from "./brand-text";

/**
 * The host admin's draft form (issue 16): its schema, for the server's validation and the
 * form's HTML constraints (sent by the loader). A module of its own so that the pages' browser
 * code, which needs only the constants of ./brand-admin, does not carry zod.
 */

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
