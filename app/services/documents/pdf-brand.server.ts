import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { themeTokens } from "~/themes/tokens";
import { emailLogoPng } from "../branding/email-logo.server";
import { findHostBranding, EMAIL_LOGO_FILE, type HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import { logger } from "../platform/logger.server";
import type { PdfBrand } from "./pdf.server";

const UPLOADED_LOGO = new RegExp(`^/brand-assets/([0-9a-f-]{36})/${EMAIL_LOGO_FILE.replace(".", "\\.")}$`);
const STATIC_LOGO = new RegExp(`^/brands/[a-z0-9-]+/${EMAIL_LOGO_FILE.replace(".", "\\.")}$`);

/**
 * The brand a PDF carries: the host's published name, main colour (`primary`) and logo (issue 34). A host admin
 * previewing a draft still files documents in the published brand: a PDF leaves the portal, a draft
 * must not. The logo is the emails' PNG (decision 081): an uploaded logo drawn once per process, or the
 * static directory's file. A logo that cannot be read leaves the name alone; the document still comes.
 */
export async function pdfBrand(branding: HostBranding): Promise<PdfBrand> {
  const published = branding.preview
    ? ((await findHostBranding(await getDb(), branding.hostname)) ?? branding)
    : branding;
  const colours = published.brandTokens?.colors ?? themeTokens[published.theme].colors;
  let logoPng: Buffer | null = null;
  try {
    logoPng = await logoBytes(published);
  } catch (error) {
    logger.warn("pdf logo not read", { businessId: published.businessId, error });
  }
  return { businessName: published.businessName, colour: colours.primary, logoPng };
}

async function logoBytes(branding: HostBranding): Promise<Buffer | null> {
  const url = branding.emailLogo.url;
  const uploaded = UPLOADED_LOGO.exec(url);
  if (uploaded) {
    const db = await getDb();
    const asset = await db
      .selectFrom("brand_versions")
      .innerJoin("brand_assets", "brand_assets.id", "brand_versions.logo_asset_id")
      .select([
        "brand_assets.bytes",
        "brand_assets.content_type",
        "brand_assets.width",
        "brand_assets.height",
        "brand_assets.sha256",
      ])
      .where("brand_versions.id", "=", uploaded[1]!)
      .where("brand_versions.business_id", "=", branding.businessId)
      .where("brand_assets.business_id", "=", branding.businessId)
      .executeTakeFirst();
    if (!asset) return null;
    return emailLogoPng({
      bytes: asset.bytes,
      contentType: asset.content_type,
      width: asset.width,
      height: asset.height,
      sha256: asset.sha256,
    });
  }
  if (!STATIC_LOGO.test(url)) return null;
  // The static directories ship in public/: beside the server build, or the working directory's.
  const candidates = [join(process.cwd(), "public", url)];
  try {
    candidates.push(fileURLToPath(new URL(`../public${url}`, import.meta.url)));
  } catch {
    // Not a file URL (a test bundle): the working directory's copy is the only candidate.
  }
  for (const file of candidates) {
    try {
      return await readFile(file);
    } catch {
      // Try the next place.
    }
  }
  return null;
}
