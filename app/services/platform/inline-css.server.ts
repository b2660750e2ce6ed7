import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ThemeName } from "~/themes/names";
import { themeClass } from "~/themes/themes.css";

/**
 * The built CSS bundle's text, for the document to carry it inline (decision 049). Read once per
 * process: a build's bundle never changes under its hashed name. Looked up under the working
 * directory's `public/` (as remix-serve serves it) and, failing that, beside the server build.
 * Returns null when the file cannot be read, and the page links the bundle as before.
 *
 * With `theme`, the text keeps that theme's preset and drops the other fourteen (decision 088): a
 * document is drawn in its host's theme only. `null` (a document without a brand) keeps none.
 */
const cache = new Map<string, string | null>();

export function inlineCssFor(href: string | undefined, theme?: ThemeName | null): string | null {
  if (theme !== undefined) {
    const key = `${href} ${theme}`;
    if (!cache.has(key)) {
      const whole = inlineCssFor(href);
      cache.set(
        key,
        whole === null ? null : withOnePreset(whole, theme && themeClass[theme], Object.values(themeClass)),
      );
    }
    return cache.get(key) ?? null;
  }
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
 * `text` without the preset rules of `presets` other than `keep`. Each preset is one rule of its own
 * class (`.<class>{--…:…}`, vanilla-extract's `createTheme`), after another rule or at the start.
 * Should any preset not be exactly one such rule (a compiler that writes them otherwise), the text is
 * kept whole: a few hundred bytes more, never a page without its colours.
 */
export function withOnePreset(text: string, keep: string | null, presets: readonly string[]): string {
  let result = text;
  for (const preset of presets) {
    const rule = new RegExp(`(?<=^|\\})\\.${preset.replace(/[^\w-]/g, "\\$&")}\\{[^{}]*\\}`, "g");
    if ((text.match(rule) ?? []).length !== 1) return text;
    if (preset !== keep) result = result.replace(rule, "");
  }
  return result;
}

/**
 * The CSP source that allows exactly this stylesheet text wherever it is inserted: React may create
 * the `<style>` element again in the browser (a root that renders afresh, e.g. an error page after a
 * client navigation), where the per-request nonce is not known. A hash allows that text and no other.
 */
export function styleHashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
