import { JSDOM } from "jsdom";

/**
 * What JavaScript a document makes a browser download or run, read from its HTML alone: inline
 * `<script>` text, `<script src>` files and `<link rel="modulepreload">` files. A data block
 * (`type="application/json"`, `application/ld+json`, …) is not JavaScript: the browser neither runs
 * nor fetches it, so it is listed apart and not counted. Parsed with jsdom, which runs no script.
 */
export type DocumentScripts = {
  /** The text of every inline script the browser would run. */
  inline: string[];
  /** `<script src>` and `<link rel="modulepreload" href>`: the files the browser fetches. */
  files: string[];
  /** Inline data blocks: not JavaScript, not counted. */
  dataBlocks: number;
};

// The types a browser runs (HTML's "JavaScript MIME type essence match", plus module and none).
const JS_TYPES = new Set([
  "",
  "module",
  "text/javascript",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/jscript",
  "text/livescript",
]);

export function documentScripts(html: string): DocumentScripts {
  const { document } = new JSDOM(html).window;
  const inline: string[] = [];
  const files: string[] = [];
  let dataBlocks = 0;
  // A page's module scripts and preloads wait in a `<template>` until its first paint (decision 087):
  // the document's own elements and the templates' together.
  const scopes: ParentNode[] = [document, ...[...document.querySelectorAll("template")].map((t) => t.content)];
  const all = (selector: string) => scopes.flatMap((scope) => [...scope.querySelectorAll(selector)]);
  for (const script of all("script")) {
    const type = (script.getAttribute("type") ?? "").trim().toLowerCase();
    if (!JS_TYPES.has(type)) {
      dataBlocks += 1;
      continue;
    }
    const src = script.getAttribute("src");
    if (src !== null) files.push(src);
    else inline.push(script.textContent ?? "");
  }
  for (const link of all("link[href]")) {
    const rel = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rel.includes("modulepreload")) files.push(link.getAttribute("href")!);
  }
  return { inline, files: [...new Set(files)], dataBlocks };
}

/** Inline script bytes as the document carries them (UTF-8). */
export const inlineBytes = (scripts: DocumentScripts) =>
  scripts.inline.reduce((sum, text) => sum + Buffer.byteLength(text, "utf8"), 0);
