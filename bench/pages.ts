import { gzipSync } from "node:zlib";
import {
  BENCH_ADMIN_EMAIL,
  BENCH_HOST,
  benchEmail,
  cookieFor,
  DEMO_HOST,
  DEMO_LOGIN,
  QUERY_SIZES,
  type BenchCookies,
  type BenchPage,
} from "./config";
import { request, signIn } from "./lib/http";

/**
 * Per page over plain HTTP: the HTML document's size, and the SQL statements its loaders
 * run (the X-Query-Count header the portal sends with BENCH_QUERY_COUNT=1) for accounts
 * of each size in QUERY_SIZES. Every page is measured in its steady state, whatever the order
 * of pages and accounts: one unmeasured visit first, on every host and account (one-off work of
 * a session's first page, or of a link's first open, is not counted), then QUERY_VISITS counted
 * visits. Their counts must agree: a page whose statements change from visit to visit (work
 * done by chance, or until some state settles) is reported as such (bench:check fails it),
 * instead of passing or failing by which visit happened to be counted.
 */
export const QUERY_VISITS = 3;

export type PageResult = {
  page: string;
  path: string;
  status: number;
  html: { raw: number; gzip: number };
  /**
   * The stylesheet the document carries inline (decision 049), compressed on its own at zlib's default
   * level: the CSS the page loads. Decision 088: the host's theme preset only. Absent when the document
   * links the bundle instead (BENCH_CSS_DELIVERY=link).
   */
  css?: { raw: number; gzip: number };
  /** Statements per visit (the most of the counted visits), by the number of invoices and statement lines on the account. */
  queries: Record<string, number>;
  /** Every counted visit's statements, by account size: all equal in a steady state. */
  queryVisits?: Record<string, number[]>;
};

async function visit(host: string, path: string, cookie: string | undefined) {
  const response = await request(host, path, { cookie });
  if (response.status !== 200) throw new Error(`GET ${path} on ${host}: HTTP ${response.status}, expected 200`);
  return response;
}

export async function measurePages(pages: BenchPage[], demoCookies: BenchCookies): Promise<PageResult[]> {
  const benchCookies = new Map<number, BenchCookies>();
  // The host admin's pages do not depend on an account's size: one admin serves both sizes.
  const benchAdmin = await signIn(BENCH_HOST, BENCH_ADMIN_EMAIL, DEMO_LOGIN.password);
  for (const rows of QUERY_SIZES)
    benchCookies.set(rows, {
      customer: await signIn(BENCH_HOST, benchEmail(rows), DEMO_LOGIN.password),
      hostAdmin: benchAdmin,
    });
  const results: PageResult[] = [];
  for (const page of pages) {
    // The document's bytes in the same steady state: the demo link's first open is not the one measured.
    await visit(DEMO_HOST, page.path, cookieFor(page, demoCookies));
    const document = await visit(DEMO_HOST, page.path, cookieFor(page, demoCookies));
    const queries: Record<string, number> = {};
    const queryVisits: Record<string, number[]> = {};
    for (const rows of QUERY_SIZES) {
      const cookie = cookieFor(page, benchCookies.get(rows)!);
      const path = page.benchPath?.(rows) ?? page.path;
      await visit(BENCH_HOST, path, cookie);
      const counts: number[] = [];
      for (let n = 0; n < QUERY_VISITS; n++) {
        const counted = await visit(BENCH_HOST, path, cookie);
        const header = counted.headers["x-query-count"];
        if (typeof header !== "string")
          throw new Error(`GET ${page.path}: no X-Query-Count header (is BENCH_QUERY_COUNT=1 set?)`);
        counts.push(Number(header));
      }
      queries[String(rows)] = Math.max(...counts);
      queryVisits[String(rows)] = counts;
    }
    const css = inlineStylesOf(document.body.toString("utf8"));
    results.push({
      page: page.name,
      path: page.path,
      status: document.status,
      html: { raw: document.body.length, gzip: gzipSync(document.body).length },
      ...(css === null ? {} : { css: { raw: Buffer.byteLength(css), gzip: gzipSync(css).length } }),
      queries,
      queryVisits,
    });
  }
  return results;
}

/** The text of the document's inline stylesheet (`<style id="portal-styles">`), or null. */
export function inlineStylesOf(html: string): string | null {
  const match = /<style id="portal-styles"[^>]*>([^<]*)<\/style>/.exec(html);
  return match ? match[1]! : null;
}
