import type { LoaderFunctionArgs } from "@remix-run/node";
import { BRAND_ASSET_EXTENSIONS, type BrandUploadKind } from "~/lib/brand-uploads";
import type { ThemeTokens } from "~/themes/tokens";
import { isHostAdmin, getPageContext, brandCss, emailLogoPng, EMAIL_LOGO_FILE, getDb, logger } from "./public.server";
import { CANONICAL_UUID } from "~/lib/ids";

/**
 * A brand version's files (issue 16; decision 037): `logo.<ext>` and `favicon.<ext>` (the
 * uploaded, checked bytes; the extension is the stored type's) and `theme.css` (the colour
 * roles derived from a custom brand colour), and `email-logo.png` (the logo as emails show it,
 * decision 081: the uploaded logo made into a small PNG). Only a version of this host's business:
 * any other is "not found". A version that is or was published never changes, so it is public and cached
 * for a year; any other (a draft) is shown only to a host admin of the business, never cached.
 */
const VERSION_ID = CANONICAL_UUID;
const FILE = /^(?:(logo|favicon)\.(png|jpg|webp|svg)|theme\.css|email-logo\.png)$/;

const PUBLISHED_CACHE = "public, max-age=31536000, immutable";
const DRAFT_CACHE = "private, no-store";
/** An SVG opened on its own runs nothing and loads nothing, whatever it holds. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

function notFound() {
  return new Response("Not found", {
    status: 404,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const versionId = params.versionId ?? "";
  const file = FILE.exec(params.file ?? "");
  if (!VERSION_ID.test(versionId) || !file) return notFound();
  const emailLogo = file[0] === EMAIL_LOGO_FILE;
  const { branding, session } = await getPageContext(request);
  const businessId = branding.businessId;

  let found;
  try {
    found = await findVersionFile(businessId, versionId, emailLogo ? "logo" : (file[1] as BrandUploadKind | undefined));
  } catch (error) {
    logger.error("brand asset lookup failed", { versionId, error });
    return new Response("Service unavailable", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
    });
  }
  if (!found) return notFound();

  // A draft: a verified host admin of this business, signed in on this host; anyone else sees nothing.
  if (!found.published) {
    const admin =
      session !== null && session.businessId === businessId && session.contact.verified && isHostAdmin(session.contact);
    if (!admin) return notFound();
  }
  const headers = new Headers({
    "Cache-Control": found.published ? PUBLISHED_CACHE : DRAFT_CACHE,
    "X-Content-Type-Options": "nosniff",
    // Published files are the brand's public face (emails' logos, bootstrap clients on other origins).
    "Cross-Origin-Resource-Policy": found.published ? "cross-origin" : "same-origin",
  });

  if (emailLogo) return emailLogoAnswer(request, versionId, found, headers);

  if (!file[1]) {
    const tokens = found.tokens;
    if (!tokens || typeof tokens !== "object") return notFound();
    let css: string;
    try {
      css = brandCss(tokens as ThemeTokens);
    } catch (error) {
      // A damaged row (brandCss re-checks every value): no stylesheet, the theme's own colours show.
      logger.error("brand stylesheet refused", { versionId, error });
      return notFound();
    }
    headers.set("Content-Type", "text/css; charset=utf-8");
    headers.set("Content-Length", String(Buffer.byteLength(css)));
    return new Response(css, { status: 200, headers });
  }

  const asset = found.asset;
  const kind = file[1] as BrandUploadKind;
  if (!asset || BRAND_ASSET_EXTENSIONS[asset.content_type] !== file[2]) {
    // Bootstrap's logo directory promises `logo.svg` and `favicon.svg` (spec §1): those names
    // lead to the version's real file, or to its static directory's when none was uploaded.
    if (file[2] !== "svg") return notFound();
    const target = asset
      ? `/brand-assets/${versionId}/${kind}.${BRAND_ASSET_EXTENSIONS[asset.content_type]}`
      : `${found.logoDirectory}/${kind}.svg`;
    headers.set("Location", target);
    return new Response(null, { status: 302, headers });
  }
  // The address names the stored type: `logo.png` for a stored JPEG is not this file.
  headers.set("Content-Type", asset.content_type);
  headers.set("Content-Length", String(asset.bytes.byteLength));
  headers.set("ETag", `"${asset.sha256}"`);
  if (asset.content_type === "image/svg+xml") headers.set("Content-Security-Policy", SVG_POLICY);
  if (found.published && request.headers.get("if-none-match") === `"${asset.sha256}"`) {
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(asset.bytes), { status: 200, headers });
}

/**
 * The logo as emails show it: the uploaded logo as a PNG (made once per process, kept by its
 * SHA-256); without an upload, the static logo directory's PNG. Its ETag is the source's.
 */
async function emailLogoAnswer(
  request: Request,
  versionId: string,
  found: NonNullable<Awaited<ReturnType<typeof findVersionFile>>>,
  headers: Headers,
) {
  const asset = found.asset;
  if (!asset) {
    headers.set("Location", `${found.logoDirectory}/${EMAIL_LOGO_FILE}`);
    return new Response(null, { status: 302, headers });
  }
  const etag = `"${asset.sha256}-email"`;
  headers.set("ETag", etag);
  if (found.published && request.headers.get("if-none-match") === etag) {
    return new Response(null, { status: 304, headers });
  }
  let png: Buffer;
  try {
    png = await emailLogoPng({
      bytes: asset.bytes,
      contentType: asset.content_type,
      width: asset.width,
      height: asset.height,
      sha256: asset.sha256,
    });
  } catch (error) {
    // A stored logo passed the upload checks; one sharp cannot draw is a bug, not the reader's.
    logger.error("email logo not made", { versionId, error });
    return notFound();
  }
  headers.set("Content-Type", "image/png");
  headers.set("Content-Length", String(png.byteLength));
  return new Response(new Uint8Array(png), { status: 200, headers });
}

async function findVersionFile(businessId: string, versionId: string, kind: BrandUploadKind | undefined) {
  const db = await getDb();
  const version = await db
    .selectFrom("brand_versions")
    .innerJoin("businesses", "businesses.id", "brand_versions.business_id")
    .select([
      "brand_versions.tokens",
      "brand_versions.logo_asset_id",
      "brand_versions.favicon_asset_id",
      "brand_versions.logo_directory",
      "businesses.brand_version_id",
    ])
    .where("brand_versions.id", "=", versionId)
    .where("brand_versions.business_id", "=", businessId)
    .executeTakeFirst();
  if (!version) return null;
  let published = version.brand_version_id === versionId;
  if (!published) {
    const publication = await db
      .selectFrom("brand_publications")
      .select("id")
      .where("business_id", "=", businessId)
      .where("version_id", "=", versionId)
      .limit(1)
      .executeTakeFirst();
    published = publication !== undefined;
  }
  const assetId = kind === "logo" ? version.logo_asset_id : kind === "favicon" ? version.favicon_asset_id : null;
  const asset = assetId
    ? await db
        .selectFrom("brand_assets")
        .select(["content_type", "bytes", "sha256", "width", "height"])
        .where("id", "=", assetId)
        .where("business_id", "=", businessId)
        .where("kind", "=", kind!)
        .executeTakeFirst()
    : undefined;
  return { published, tokens: version.tokens, asset: asset ?? null, logoDirectory: version.logo_directory };
}
