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
 * of each size in QUERY_SIZES. The count is read on a second visit, so one-off work of a
 * session's first page (remembering the selected account) does not hide a steady cost.
 */
export type PageResult = {
  page: string;
  path: string;
  status: number;
  html: { raw: number; gzip: number };
  /** Statements per visit, by the number of invoices and statement lines on the account. */
  queries: Record<string, number>;
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
    const document = await visit(DEMO_HOST, page.path, cookieFor(page, demoCookies));
    const queries: Record<string, number> = {};
    for (const rows of QUERY_SIZES) {
      const cookie = cookieFor(page, benchCookies.get(rows)!);
      const path = page.benchPath?.(rows) ?? page.path;
      await visit(BENCH_HOST, path, cookie);
      const counted = await visit(BENCH_HOST, path, cookie);
      const header = counted.headers["x-query-count"];
      if (typeof header !== "string")
        throw new Error(`GET ${page.path}: no X-Query-Count header (is BENCH_QUERY_COUNT=1 set?)`);
      queries[String(rows)] = Number(header);
    }
    results.push({
      page: page.name,
      path: page.path,
      status: document.status,
      html: { raw: document.body.length, gzip: gzipSync(document.body).length },
      queries,
    });
  }
  return results;
}
