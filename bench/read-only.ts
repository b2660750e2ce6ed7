import { gzipSync } from "node:zlib";
import { cookieFor, DEMO_HOST, type BenchCookies, type BenchPage } from "./config";
import { request } from "./lib/http";
import { documentScripts, inlineBytes } from "./lib/scripts";

/**
 * Zero JavaScript on read-only pages (decision 049): each page's document, fetched as the browser
 * would (the demo host, the right cookie), and every byte of JavaScript it makes the browser run
 * or download — inline script text, `<script src>` files and `<link rel="modulepreload">` files,
 * each file fetched from the portal for its real size. Budget: 0 bytes.
 */
export type ReadOnlyResult = {
  page: string;
  path: string;
  htmlGzip: number;
  inlineScripts: number;
  inlineBytes: number;
  files: { href: string; bytes: number }[];
  /** Inline script bytes plus every fetched file's bytes (raw, as the browser gets to run them). */
  jsBytes: number;
};

export async function measureReadOnly(pages: BenchPage[], cookies: BenchCookies): Promise<ReadOnlyResult[]> {
  const results: ReadOnlyResult[] = [];
  for (const page of pages) {
    const cookie = cookieFor(page, cookies);
    const response = await request(DEMO_HOST, page.path, { cookie });
    if (response.status !== 200) throw new Error(`GET ${page.path} on ${DEMO_HOST}: HTTP ${response.status}`);
    const html = response.body.toString("utf8");
    const scripts = documentScripts(html);
    const files: ReadOnlyResult["files"] = [];
    for (const href of scripts.files) {
      const target = new URL(href, `http://${DEMO_HOST}${page.path}`);
      const file = await request(target.hostname, `${target.pathname}${target.search}`, { cookie });
      // Whatever answers is what the browser downloads: a missing file still costs its error page.
      files.push({ href, bytes: file.body.length });
    }
    const inline = inlineBytes(scripts);
    results.push({
      page: page.name,
      path: page.path,
      htmlGzip: gzipSync(response.body).length,
      inlineScripts: scripts.inline.length,
      inlineBytes: inline,
      files,
      jsBytes: inline + files.reduce((sum, file) => sum + file.bytes, 0),
    });
  }
  return results;
}
