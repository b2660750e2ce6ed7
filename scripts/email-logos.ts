/**
 * `npx tsx scripts/email-logos.ts` (decision 081): makes `email-logo.png` beside every static logo
 * (`public/brands/<name>/logo.svg`), the PNG emails show for a brand with no uploaded logo, as the
 * brand-assets route makes one for an uploaded logo. Run it after changing or adding a static logo;
 * app/services/branding/email-logo.test.ts fails while a PNG is missing or differs from its SVG.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { renderEmailLogo } from "../app/services/branding/email-logo.server";

const BRANDS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../public/brands");

for (const name of fs.readdirSync(BRANDS).sort()) {
  const svgPath = path.join(BRANDS, name, "logo.svg");
  if (!fs.existsSync(svgPath)) continue;
  const bytes = fs.readFileSync(svgPath);
  const { width, height } = await sharp(bytes).metadata();
  const png = await renderEmailLogo({
    bytes,
    contentType: "image/svg+xml",
    width: width ?? null,
    height: height ?? null,
  });
  fs.writeFileSync(path.join(BRANDS, name, "email-logo.png"), png);
  console.log(`public/brands/${name}/email-logo.png (${png.byteLength} bytes)`);
}
