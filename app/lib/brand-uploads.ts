/**
 * A brand's uploads (issue 16; decision 037): what a host admin may upload as a logo or a
 * favicon, and how large. Pure, client-safe: the branding form shows these limits (with
 * formatFileSize, spec §9) and the server (app/services/branding/brand-assets.server.ts)
 * applies the same numbers. The files are identified by their content, never by their name
 * or declared type.
 */
export const BRAND_UPLOAD_KINDS = ["logo", "favicon"] as const;
export type BrandUploadKind = (typeof BRAND_UPLOAD_KINDS)[number];

/** The types stored (migration 0014's check): PNG, JPEG and WebP re-encoded, SVG sanitised. */
export const BRAND_UPLOAD_TYPES = ["image/png", "image/jpeg", "image/webp", "image/svg+xml"] as const;
export type BrandUploadType = (typeof BRAND_UPLOAD_TYPES)[number];

/** The `accept` attribute of the file inputs: a hint for the picker only, never trusted. */
export const BRAND_UPLOAD_ACCEPT = ".png,.jpg,.jpeg,.webp,.svg,image/png,image/jpeg,image/webp,image/svg+xml";

/** A stored file's extension in its address (`/brand-assets/<version>/logo.<ext>`). */
export const BRAND_ASSET_EXTENSIONS: Record<BrandUploadType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/svg+xml": "svg",
};

/**
 * The limits, per kind. A logo is shown at most a few hundred pixels wide (twice that on dense
 * screens), a favicon at most 512 px (the largest icon a browser or phone asks for): these leave
 * room for any sensible file and keep every page's weight and the decoder's work small. The
 * pixel limits are checked from the file's header before anything is decoded (a small file
 * claiming huge dimensions is refused unread); an SVG's are the size it declares.
 */
export const BRAND_UPLOAD_LIMITS: Record<BrandUploadKind, { maxBytes: number; maxWidth: number; maxHeight: number }> = {
  logo: { maxBytes: 1024 * 1024, maxWidth: 2048, maxHeight: 2048 },
  favicon: { maxBytes: 256 * 1024, maxWidth: 512, maxHeight: 512 },
};

/**
 * The most a branding form post may be: both files at their limits and room for the text
 * fields and the multipart framing. scripts/edge.js refuses a larger declared body for
 * /admin/branding (BRAND_FORM_BODY_BYTES there: keep the two in step) and the form reader stops
 * reading past it, so a 30 MB upload is never held in memory.
 */
export const BRAND_FORM_MAX_BYTES = 1536 * 1024;

/** Why an upload was refused (the form says which, per field). */
export type BrandUploadProblem = "empty" | "tooLarge" | "notImage" | "pixels" | "svgUnsafe";

/** Where a version's uploaded file is served (app/routes/brand-assets.$versionId.$file.ts). */
export function brandAssetPath(versionId: string, kind: BrandUploadKind, contentType: BrandUploadType): string {
  return `/brand-assets/${versionId}/${kind}.${BRAND_ASSET_EXTENSIONS[contentType]}`;
}

/** Where a version's stylesheet of derived colours is served (a custom brand colour only). */
export function brandCssPath(versionId: string): string {
  return `/brand-assets/${versionId}/theme.css`;
}
