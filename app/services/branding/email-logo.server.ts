import sharp from "sharp";
import { EMAIL_LOGO, emailLogoSize } from "../host/host.server";

/**
 * The logo an email shows, as a PNG (decision 081). Many mail clients (Outlook, Gmail's apps)
 * show no SVG, and a logo uploaded as a large PNG, JPEG or WebP is heavier than a banner needs:
 * every email logo is a PNG fitted inside EMAIL_LOGO's box (48 px tall, at most 240 px wide,
 * proportions kept) made at twice that size, transparent where the logo does not fill it.
 *
 * Made on the first request for it and kept in this process (the most recent EMAIL_LOGO_CACHE
 * of them, by the source's SHA-256): the same source always makes the same PNG, and the answer
 * of a published version is cached for a year by mail proxies and browsers, so a process that
 * restarts makes each one again once. Nothing is written to the database.
 */
export const EMAIL_LOGO_CACHE = 64;

/** How a source logo is read: its bytes, type and size in pixels (brand_assets' columns). */
export type EmailLogoSource = {
  bytes: Uint8Array;
  contentType: string;
  width: number | null;
  height: number | null;
  /** brand_assets.sha256: the cache's key. */
  sha256: string;
};

const made = new Map<string, Promise<Buffer>>();

/** The PNG's size in pixels: the shown size times EMAIL_LOGO.scale. */
export function emailLogoPixels(size: { width: number; height: number } | null) {
  const shown = emailLogoSize(size);
  return { width: shown.width * EMAIL_LOGO.scale, height: shown.height * EMAIL_LOGO.scale };
}

/** Rasterises (an SVG) or resizes (a bitmap) one logo into the email's PNG. */
export async function renderEmailLogo(source: Omit<EmailLogoSource, "sha256">): Promise<Buffer> {
  const size = source.width && source.height ? { width: source.width, height: source.height } : null;
  const target = emailLogoPixels(size);
  // An SVG is drawn at the density that makes it the target's height, so it is sharp, not a
  // small bitmap scaled up (librsvg's default is 72 dpi: one pixel per SVG unit).
  const density =
    source.contentType === "image/svg+xml" && size
      ? Math.min(2400, Math.max(1, (72 * target.height) / size.height))
      : undefined;
  return sharp(Buffer.from(source.bytes), { density, failOn: "error" })
    .resize(target.width, target.height, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The email PNG of a stored logo, made once per process (see above). */
export function emailLogoPng(source: EmailLogoSource): Promise<Buffer> {
  const key = source.sha256;
  const cached = made.get(key);
  if (cached) {
    // Most recently used last: the map's order is the eviction order.
    made.delete(key);
    made.set(key, cached);
    return cached;
  }
  const making = renderEmailLogo(source);
  made.set(key, making);
  // A failure is not kept: the next request tries again.
  making.catch(() => made.delete(key));
  while (made.size > EMAIL_LOGO_CACHE) made.delete(made.keys().next().value!);
  return making;
}

/** How many email logos this process keeps now (for tests). */
export const emailLogosKept = () => made.size;
