import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The built CSS bundle's text, for the document to carry it inline (decision 049). Read once per
 * process: a build's bundle never changes under its hashed name. Looked up under the working
 * directory's `public/` (as remix-serve serves it) and, failing that, beside the server build.
 * Returns null when the file cannot be read, and the page links the bundle as before.
 */
const cache = new Map<string, string | null>();

export function inlineCssFor(href: string | undefined): string | null {
  if (!href || !href.startsWith("/build/") || href.includes("..")) return null;
  if (cache.has(href)) return cache.get(href) ?? null;
  const candidates = [join(process.cwd(), "public", href)];
  try {
    candidates.push(fileURLToPath(new URL(`../public${href}`, import.meta.url)));
  } catch {
    // Not a file URL (a test bundle): the working directory's copy is the only candidate.
  }
  let text: string | null = null;
  for (const file of candidates) {
    try {
      text = readFileSync(file, "utf8");
      break;
    } catch {
      // Try the next place.
    }
  }
  // A style element's text ends at the first "</style": a bundle never holds one, but make sure.
  if (text !== null && /<\/style/i.test(text)) text = null;
  cache.set(href, text);
  return text;
}

/**
 * The CSP source that allows exactly this stylesheet text wherever it is inserted: React may create
 * the `<style>` element again in the browser (a root that renders afresh, e.g. an error page after a
 * client navigation), where the per-request nonce is not known. A hash allows that text and no other.
 */
export function styleHashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
