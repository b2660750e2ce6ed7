import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { logger } from "./logger.server";

let src: string | null = null;

/**
 * The address of `public/enhance.js` (decision 084) with its content's hash as the version: public
 * files are cached for an hour (scripts/serve.js), and a new version is a new address, so a page
 * never pairs with an older file. Read once per process.
 */
export function enhanceScriptSrc(): string {
  if (src) return src;
  try {
    const hash = createHash("sha256")
      .update(fs.readFileSync(path.resolve("public", "enhance.js")))
      .digest("hex")
      .slice(0, 12);
    src = `/enhance.js?v=${hash}`;
  } catch (error) {
    // Served from elsewhere than the project's root: the file still loads, only unversioned.
    logger.warn("public/enhance.js could not be read for its version", { error });
    src = "/enhance.js";
  }
  return src;
}
