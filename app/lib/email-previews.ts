/**
 * The emails a brand preview shows (issue 32, decision 081): each a contact gets, rendered with
 * the admin's draft brand and demo data of the admin's own business at
 * `/admin/branding/preview/email/<kind>`. A module of its own (the preview page's bundle takes
 * these few strings), beside app/lib/brand-preview.ts, which lists the pages.
 */
export const EMAIL_PREVIEWS = ["request", "reminder", "receipt", "schedule", "agreement"] as const;
export type EmailPreview = (typeof EMAIL_PREVIEWS)[number];

export function isEmailPreview(value: unknown): value is EmailPreview {
  return typeof value === "string" && (EMAIL_PREVIEWS as readonly string[]).includes(value);
}

/** Where one email preview is answered (the HTML of the email, for a frame). */
export const emailPreviewPath = (kind: EmailPreview) => `/admin/branding/preview/email/${kind}`;

/** The widths an email preview is shown at: a phone, and a desktop mail client's reading pane. */
export const EMAIL_PREVIEW_WIDTHS = [360, 800] as const;
