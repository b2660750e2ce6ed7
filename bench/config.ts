/**
 * What the benchmark measures: the one list of pages. A new page is one line here;
 * "Bytes per route" needs not even that, because it walks every route in the build's
 * manifest by itself. See docs/performance.md and docs/decisions/020-benchmark.md.
 */
import { createHash } from "node:crypto";
import { DEMO_REQUEST_REFERENCE, DEMO_REQUEST_TOKEN } from "../db/seed/demo";
import { DEMO_ACCEPTED_AGREEMENT_REFERENCE, DEMO_AGREEMENT_TOKEN } from "../db/seed/agreements";
import { DEMO_SCHEDULE_REFERENCE, DEMO_SCHEDULE_TOKEN } from "../db/seed/schedules";
import { DEMO_TRADE_REFERENCE_TOKEN } from "../db/seed/credit";
import { DEMO_ANSWERED_RESPONSE_TOKEN, DEMO_RESPONSE_TOKENS } from "../db/seed/responses";

export type BenchPage = {
  /** Short name used in tables, results and budgets. */
  name: string;
  path: string;
  /** Needs a signed-in contact with portal access (else the page is fetched signed out). */
  signedIn: boolean;
  /** Signed in as a host admin of the brand instead of the customer (issue 16's /admin/* pages). */
  login?: "hostAdmin";
  /** Loaded in throttled mobile Chromium (Lighthouse's mobile settings), five times. */
  mobile?: boolean;
  /**
   * CSS selector of the page's primary submit button: the benchmark times how long a
   * JavaScript-disabled browser takes to show it (the page's "pay button works" moment).
   */
  submit?: string;
  /** Load-tested with autocannon against the /heartbeat floor. */
  load?: boolean;
  /**
   * The path on the bench's own brand for the account of `rows` rows, where `path` (the demo
   * host's) does not exist there: a page opened by an emailed link has a token per record.
   */
  benchPath?: (rows: number) => string;
  /**
   * Read-only (decision 049): the document must make the browser download or run no JavaScript at
   * all. The bench fetches it as a browser would and counts every script byte (budget: 0).
   */
  readOnly?: boolean;
  /**
   * Only on the demo host: the page's fixed data exists there alone (bench/seed.ts makes it), so it
   * has no bench-brand twin to count SQL statements on ("queries per page" leaves it out).
   */
  demoOnly?: boolean;
  /** Run through real Lighthouse (mobile preset, all four categories; budget: 100 in each). */
  lighthouse?: boolean;
};

/**
 * The bench brand's link tokens (bench/seed.ts makes them), one per kind and account size. Bench
 * data only: 59 URL-safe characters like a real token, but derived from the kind and the size, so
 * the bench can open them. Hashed, so every kind and size has a selector (the first 16
 * characters) of its own, however long the kind's name.
 */
export const benchLinkToken = (
  kind:
    | "request"
    | "invoice"
    | "agreement"
    | "schedule"
    | "trade-reference"
    | "response"
    | "responded"
    | "paid-request"
    | "journey",
  rows: number,
) => {
  const part = (salt: string) => createHash("sha256").update(`bench link ${kind} ${rows} ${salt}`).digest("base64url");
  return (part("selector") + part("verifier")).slice(0, 59);
};

/**
 * The accounts the ad-hoc page is measured on (bench/seed.ts makes them, with these fixed ids):
 * one on acme joined to the demo login, and one per account size on the bench brand joined to
 * that size's contact. The page's path carries the account's id (decision 033).
 */
export const BENCH_ADHOC_ACCOUNT = {
  demo: "00000000-0000-4000-8000-00000000ad0c",
  rows: (rows: number) => `00000000-0000-4000-8000-${String(rows).padStart(12, "0")}`,
};

/**
 * The preference centre's signed links (decision 039): signed by bench/seed.ts with the key the
 * bench's portal will use, for the demo login on acme and for the bench brand's first contact
 * (the page does not grow with an account), so they exist only once the seed has run.
 */
export const BENCH_COMMUNICATION_LINKS = { demo: "", bench: "" };

/**
 * The read-only pages' fixed data on acme, found or made by bench/seed.ts (ids are random per seed):
 * an invoice of the demo login's account that PR-DEMO0001 also asks for, a receipt of the login's,
 * and a link to a paid payment request (PR-DEMO0004) with the token `benchLinkToken("paid-request", 0)`.
 */
export const BENCH_READ_ONLY = { invoiceId: "", receiptReference: "" };
/** That invoice's number in the demo seed: bench/seed.ts finds its id by it, and its PDF's name carries it. */
export const BENCH_READ_ONLY_INVOICE = "ACME-1000-INV-023";
const seeded = (value: string, what: string) => value || `/not-seeded-yet-run-the-bench-seed-first/${what}`;
const communicationLink = (which: "demo" | "bench") =>
  BENCH_COMMUNICATION_LINKS[which] || "/communication/not-signed-yet-run-the-bench-seed-first";

/** The accepted agreement offer bench/seed.ts makes on the bench brand, one per account size. */
export const BENCH_AGREEMENT_REFERENCE = (rows: number) => `AG-BENCH${rows}`;

export const PAGES: BenchPage[] = [
  {
    name: "sign-in",
    path: "/auth/signin",
    signedIn: false,
    mobile: true,
    lighthouse: true,
    submit: 'main form[method="post"] button[type="submit"]',
  },
  { name: "forgot-password", path: "/auth/password/reset", signedIn: false },
  { name: "dashboard", path: "/", signedIn: true, mobile: true, load: true, lighthouse: true },
  { name: "accounts", path: "/accounts", signedIn: true },
  { name: "account", path: "/account", signedIn: true },
  {
    name: "statements",
    path: "/statements",
    signedIn: true,
    mobile: true,
    load: true,
    lighthouse: true,
    readOnly: true,
  },
  {
    name: "invoices",
    path: "/customer/invoices-and-payments/invoices",
    signedIn: true,
    mobile: true,
    load: true,
    lighthouse: true,
    readOnly: true,
  },
  // Read-only pages of fixed data on acme (decision 049): no script at all, checked byte by byte.
  {
    name: "invoice",
    get path() {
      return `/customer/invoices-and-payments/invoice/${seeded(BENCH_READ_ONLY.invoiceId, "invoice")}`;
    },
    signedIn: true,
    readOnly: true,
    demoOnly: true,
  },
  {
    name: "request-invoice",
    get path() {
      return `/customer/payment-request/${DEMO_REQUEST_TOKEN}/invoice/${seeded(BENCH_READ_ONLY.invoiceId, "invoice")}`;
    },
    signedIn: false,
    readOnly: true,
    demoOnly: true,
  },
  {
    name: "receipt",
    get path() {
      return `/payment/complete/${seeded(BENCH_READ_ONLY.receiptReference, "receipt")}`;
    },
    signedIn: true,
    readOnly: true,
    demoOnly: true,
  },
  {
    name: "request-link-paid",
    path: `/customer/payment-request/${benchLinkToken("paid-request", 0)}`,
    signedIn: false,
    readOnly: true,
    demoOnly: true,
  },
  {
    name: "pay",
    path: "/customer/invoices-and-payments/pay?all=1",
    signedIn: true,
    mobile: true,
    lighthouse: true,
    submit: 'main form[method="post"] button[value="pay"]',
  },
  { name: "payment-methods", path: "/payment-methods", signedIn: true },
  {
    name: "add-card",
    path: "/payment-methods/cards/new",
    signedIn: true,
    mobile: true,
    submit: 'main form[method="post"] button[type="submit"]',
  },
  {
    name: "set-up-payto",
    path: "/payment-methods/payto/new",
    signedIn: true,
    mobile: true,
    submit: 'main form[method="post"] button[type="submit"]',
  },
  // Pages opened from an emailed link (decision 031): the demo seed's fixed link to PR-DEMO0001 on acme.
  {
    name: "request-link",
    path: `/customer/payment-request/${DEMO_REQUEST_TOKEN}`,
    signedIn: false,
    mobile: true,
    submit: 'main form[method="post"] button[value="pay"]',
    benchPath: (rows) => `/customer/payment-request/${benchLinkToken("request", rows)}`,
  },
  {
    name: "request-signed-in",
    path: `/payment/payment-request/${DEMO_REQUEST_REFERENCE}`,
    signedIn: true,
    benchPath: (rows) => `/payment/payment-request/PR-BENCH${rows}`,
  },
  // The customer-style home and an ad-hoc payment (decision 033); the demo login may open both.
  { name: "customer-home", path: "/payment/payment-request/all", signedIn: true, mobile: true },
  {
    name: "adhoc",
    path: `/payment/adhoc/${BENCH_ADHOC_ACCOUNT.demo}`,
    signedIn: true,
    mobile: true,
    benchPath: (rows) => `/payment/adhoc/${BENCH_ADHOC_ACCOUNT.rows(rows)}`,
  },
  // Agreements (decision 036): the demo seed's fixed link to AG-DEMO0002 (waiting) on acme, the
  // signed-in list, and AG-DEMO0001 as accepted; on the bench brand, an offer of each per size.
  {
    name: "agreement-link",
    path: `/agreements/acceptance/${DEMO_AGREEMENT_TOKEN}`,
    signedIn: false,
    mobile: true,
    submit: 'main form[method="post"] button[value="accept"]',
    benchPath: (rows) => `/agreements/acceptance/${benchLinkToken("agreement", rows)}`,
  },
  { name: "agreements", path: "/customer/agreement/all", signedIn: true },
  {
    name: "agreement-record",
    path: `/customer/agreement/${DEMO_ACCEPTED_AGREEMENT_REFERENCE}`,
    signedIn: true,
    benchPath: (rows) => `/customer/agreement/${BENCH_AGREEMENT_REFERENCE(rows)}`,
  },
  // Payment schedules (decision 034): the proposal by its emailed link (acme's fixed demo link) and
  // signed in with the accept form, an active schedule's progress, and the list. The bench brand
  // has a proposal (PS-BENCHP<rows>) and an active schedule (PS-BENCHA<rows>) per account size.
  {
    name: "schedule-link",
    path: `/payment-schedule/acceptance/${DEMO_SCHEDULE_TOKEN}`,
    signedIn: false,
    mobile: true,
    benchPath: (rows) => `/payment-schedule/acceptance/${benchLinkToken("schedule", rows)}`,
  },
  {
    name: "schedule-accept",
    path: `/payment-schedule/acceptance/${DEMO_SCHEDULE_REFERENCE}`,
    signedIn: true,
    mobile: true,
    submit: 'main form[method="post"] button[type="submit"]',
    benchPath: (rows) => `/payment-schedule/acceptance/PS-BENCHP${rows}`,
  },
  {
    name: "schedule",
    path: "/customer/payment-schedule/PS-DEMO0001",
    signedIn: true,
    mobile: true,
    benchPath: (rows) => `/customer/payment-schedule/PS-BENCHA${rows}`,
  },
  { name: "schedules", path: "/customer/payment-schedule", signedIn: true },
  // A trade referee's page (decision 041): acme's fixed demo link (CA-DEMO0001's second referee); on the
  // bench brand, one application per account size (its size does not matter to a referee: the count stays flat).
  {
    name: "trade-reference-link",
    path: `/credit-trade-reference/${DEMO_TRADE_REFERENCE_TOKEN}`,
    signedIn: false,
    mobile: true,
    submit: 'main form[method="post"] button[type="submit"]',
    benchPath: (rows) => `/credit-trade-reference/${benchLinkToken("trade-reference", rows)}`,
  },
  // Response requests (decision 040): acme's fixed demo links — a credit proposed on a disputed
  // invoice (the question with the most facts) and an acknowledged statement's complete page; on
  // the bench brand, an open one (benchLinkToken "response") and an answered one ("responded") per size.
  {
    name: "response-link",
    path: `/response/${DEMO_RESPONSE_TOKENS.dispute}`,
    signedIn: false,
    mobile: true,
    submit: 'main form[method="post"] button[type="submit"]',
    benchPath: (rows) => `/response/${benchLinkToken("response", rows)}`,
  },
  {
    name: "response-complete",
    path: `/response/complete/${DEMO_ANSWERED_RESPONSE_TOKEN}`,
    signedIn: false,
    mobile: true,
    benchPath: (rows) => `/response/complete/${benchLinkToken("responded", rows)}`,
  },
  // Communication preferences (decision 039): signed in, and from the signed link in any email.
  {
    name: "communication",
    path: "/communication",
    signedIn: true,
    mobile: true,
    submit: 'main form[method="post"] button[value="save"]',
  },
  {
    name: "communication-link",
    get path() {
      return communicationLink("demo");
    },
    signedIn: false,
    mobile: true,
    submit: 'main form[method="post"] button[value="save"]',
    benchPath: () => communicationLink("bench"),
  },
  // The PayTo sandbox's stand-in for the payer's banking app: not the portal, but served by it.
  { name: "sandbox-bank", path: "/sandbox/payto-bank", signedIn: false },
  { name: "change-password", path: "/auth/password", signedIn: true },
  // A host admin's branding pages (issue 16): the draft form with its 15 swatches and contrast
  // table, and the preview page (its frames are the pages above, measured on their own).
  {
    name: "admin-branding",
    path: "/admin/branding",
    signedIn: true,
    login: "hostAdmin",
    mobile: true,
    submit: 'main form[method="post"] button[value="save"]',
  },
  { name: "admin-branding-preview", path: "/admin/branding/preview", signedIn: true, login: "hostAdmin" },
  // Issue 32: the admin home, the admins screen, and the preview of an emailed link's page (the email previews are
  // documents of their own, not pages: a resource route, which the query count's header does not reach).
  { name: "admin-home", path: "/admin", signedIn: true, login: "hostAdmin", mobile: true },
  { name: "admin-admins", path: "/admin/admins", signedIn: true, login: "hostAdmin", mobile: true },
  { name: "admin-preview-request", path: "/admin/branding/preview/page/request", signedIn: true, login: "hostAdmin" },
  // The public trade-credit application (issue 17; decision 038), signed out: the start page and its first step
  // (a browser without the draft's cookie sees the empty form; the draft is made only by that form's POST).
  { name: "credit", path: "/credit", signedIn: false, mobile: true },
  {
    name: "credit-business",
    path: "/credit/business",
    signedIn: false,
    mobile: true,
    submit: 'main form[method="post"] button[type="submit"]',
  },
  { name: "privacy-policy", path: "/privacy-policy", signedIn: false, readOnly: true },
  { name: "terms", path: "/terms-and-conditions", signedIn: false, readOnly: true },
  { name: "heartbeat", path: "/heartbeat", signedIn: false },
];

/** The throughput floor: the cheapest page there is (host lookup, one ping, a small document). */
export const FLOOR_PATH = "/heartbeat";

/** The bench's own ports and data (other engineers' test servers use 4310+ and 5310+). */
export const BENCH_PORT = Number(process.env.BENCH_PORT ?? 6310);
export const BENCH_DATA_DIR = ".tmp/bench/data";
export const RESULTS_FILE = "bench/results/latest.json";
/** What a query-count-only run (BENCH_ONLY=queries) writes: step 4 alone. */
export const QUERIES_FILE = "bench/results/queries.json";
/** What a PDF-documents-only run (BENCH_ONLY=documents) writes: step 10 alone. */
export const DOCUMENTS_FILE = "bench/results/documents.json";
export const BUDGETS_FILE = "bench/budgets.json";

/** The demo brand and contact the browser and load runs use (db/seed/demo.ts). */
export const DEMO_HOST = "acme.localhost";
export const DEMO_LOGIN = { email: "olivia@coastal.example", password: "Portal!2026" };
/** The demo brand's host admin (db/seed/demo.ts), for the pages with `login: "hostAdmin"`. */
export const DEMO_ADMIN_LOGIN = { email: "admin@acme.example", password: "Portal!2026" };

/**
 * The second demo brand, for the Lighthouse sweep (issue 19: 100 "on every page of both demo brands"):
 * its customer and host admin (db/seed/demo.ts) and the pages that exist there as they do on acme.
 * Left out: pages whose paths carry acme's own records or links, and PayTo's set-up page (Kiwi
 * Freight has no PayTo, so the portal answers it with "Page not found").
 */
export const SECOND_BRAND = {
  host: "kiwi.localhost",
  login: { email: "aroha@orchards.example", password: "Portal!2026" },
  admin: { email: "admin@kiwi.example", password: "Portal!2026" },
  pages: [
    "sign-in",
    "forgot-password",
    "dashboard",
    "accounts",
    "account",
    "statements",
    "invoices",
    "pay",
    "payment-methods",
    "add-card",
    "customer-home",
    "agreements",
    "schedules",
    "communication",
    "change-password",
    "admin-branding",
    "admin-branding-preview",
    "admin-home",
    "admin-admins",
    "credit",
    "credit-business",
    "privacy-policy",
    "terms",
    "sandbox-bank",
    "heartbeat",
  ],
};

/** The session cookies a run signs in for: the demo customer's and the host admin's. */
export type BenchCookies = { customer: string; hostAdmin: string };

/** The cookie a page is fetched with: none signed out, else its login's. */
export function cookieFor(page: Pick<BenchPage, "signedIn" | "login">, cookies: BenchCookies): string | undefined {
  if (!page.signedIn) return undefined;
  return page.login === "hostAdmin" ? cookies.hostAdmin : cookies.customer;
}

/** The bench's own brand, with one small and one large account, for "queries per page". */
export const BENCH_HOST = "bench.localhost";
export const QUERY_SIZES = [10, 5_000] as const;
export const benchEmail = (rows: number) => `rows-${rows}@bench.example`;
/** The bench brand's host admin (bench/seed.ts), for the pages with `login: "hostAdmin"`. */
export const BENCH_ADMIN_EMAIL = "admin@bench.example";

/**
 * The statement bench/documents.ts files: the bench brand's account of `rows` rows, for a period that holds
 * exactly `lines` of its statement lines (issue 34's budget is for a statement of 1,000). bench/seed.ts finds
 * the period in the data it has just written (the latest run of whole days with that many lines), counts the
 * lines in it again and fails unless the count is exact, then sets `from` and `to`.
 */
export const BENCH_STATEMENT: { rows: (typeof QUERY_SIZES)[number]; lines: number; from: string; to: string } = {
  rows: 5_000,
  lines: 1_000,
  from: "",
  to: "",
};

/**
 * A PDF the portal files (issue 34): not a page (no HTML, nothing for a browser to load, so not in PAGES,
 * which the browser steps open), but a document fetched signed in as `login` on `host`. bench/documents.ts
 * times it, weighs it and checks it is a PDF; `bench:check` holds it to `documents` in bench/budgets.json
 * (150 ms unless `perDocument` names it). A new document is one entry here.
 */
export type BenchDocument = {
  /** Short name used in tables, results and budgets. */
  name: string;
  host: string;
  login: { email: string; password: string };
  path: string;
  /**
   * What the file's name (Content-Disposition) must carry, so the bench times the document it means to:
   * the invoice's number, or the account and the period (the session's selected account is the first).
   */
  fileNameHas: string[];
  /** Statement lines the file lists, counted in the seeded database (recorded with the results). */
  lines?: number;
  /** Made again with /heartbeat polled beside it: how long another request waits while it is made. */
  heartbeat?: boolean;
};

export const DOCUMENTS: BenchDocument[] = [
  // The read-only invoice page's invoice (BENCH_READ_ONLY), as the demo login files it.
  {
    name: "invoice",
    host: DEMO_HOST,
    login: DEMO_LOGIN,
    get path() {
      return `/customer/invoices-and-payments/invoice/${seeded(BENCH_READ_ONLY.invoiceId, "invoice")}/pdf`;
    },
    fileNameHas: [BENCH_READ_ONLY_INVOICE],
  },
  // The read-only receipt page's receipt (a paid instalment of PS-DEMO0001), as the demo login files it.
  {
    name: "receipt",
    host: DEMO_HOST,
    login: DEMO_LOGIN,
    get path() {
      return `/payment/complete/${seeded(BENCH_READ_ONLY.receiptReference, "receipt")}/pdf`;
    },
    get fileNameHas() {
      return [`Receipt-${BENCH_READ_ONLY.receiptReference}`];
    },
  },
  {
    name: "statement-1000-lines",
    host: BENCH_HOST,
    login: { email: benchEmail(BENCH_STATEMENT.rows), password: DEMO_LOGIN.password },
    get path() {
      const from = seeded(BENCH_STATEMENT.from, "statement-from");
      const to = seeded(BENCH_STATEMENT.to, "statement-to");
      return `/statements/pdf?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    },
    get fileNameHas() {
      return [`ROWS-${BENCH_STATEMENT.rows}`, BENCH_STATEMENT.from, BENCH_STATEMENT.to];
    },
    lines: BENCH_STATEMENT.lines,
    heartbeat: true,
  },
];

/**
 * Step 10's fetches per document (bench/documents.ts), one after another: `warmUps` unmeasured, `measured`
 * timed (median and max kept); for a document with `heartbeat`, `idleHeartbeats` heartbeats alone, then
 * `beside` more of the document with /heartbeat polled beside it.
 */
export const DOCUMENT_RUNS = { warmUps: 1, measured: 7, idleHeartbeats: 50, beside: 5 };

/** Lighthouse's mobile preset ("Moto G Power" on slow 4G). */
export const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  // Medians of 3, as Lighthouse's: the pages' runs sit far inside these budgets
  // (LCP 0.3-0.7 s of 1.4 s, TBT 0-4 ms of 200 ms in the 5-run medians this replaced; issue 29).
  runs: 3,
};

/**
 * The low-end phone (issue 19): Slow 3G-like, 400 ms round trip, 400 kbps down and up, CPU 6×
 * slower. Its budgets (LCP, TBT, the pay page's INP) are measured with it applied through DevTools
 * in Debian's Chromium, as a real slow phone would feel it (`runs` loads per page, median kept).
 * Lighthouse's simulation of it is printed beside, for comparison only, by a Lighthouse-only run:
 * its model adds a DNS lookup and a TCP handshake of one round trip each before every document
 * (1.2 s at 400 ms), which a phone returning to its portal does not pay (docs/performance.md).
 */
export const LOW_END = {
  latencyMs: 400,
  downloadBitsPerSecond: 400_000,
  uploadBitsPerSecond: 400_000,
  cpuSlowdown: 6,
  // Medians of 5, as issue 33 has them: each load's TBT moves with what else the shared cores run, and
  // three of five agreeing on every verdict ends the page's runs early (decision 060).
  runs: 5,
};

/**
 * Real Lighthouse (the npm package; Debian's Chromium). The mobile preset is Lighthouse's default
 * (simulated slow 4G, 4× CPU, a Moto G Power's screen); `runs` per page, the median kept.
 */
export const LIGHTHOUSE = {
  categories: ["performance", "accessibility", "best-practices", "seo"] as const,
  runs: 3,
  chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
};

/** The pay page's interaction (Interaction to Next Paint) on the low-end profile: runs, median kept (5, as the low-end loads'). */
export const INP_RUNS = 5;

/**
 * The emailed request's journey on the low-end phone (bench/journey.ts): runs, the median time to
 * the receipt kept. Each run pays a request of its own on acme (bench/seed.ts), for `amountCents`.
 */
export const JOURNEY = { runs: 5, amountCents: 123_45 };

/**
 * autocannon on loopback. The floor and the pages take turns in short rounds, and each
 * figure is the median over rounds (the ratio is taken within a round), so load from other
 * jobs on a shared machine hits floor and page alike instead of whichever ran last.
 */
export const LOAD = { connections: [10, 50], rounds: 3, roundSeconds: 2, warmupSeconds: 1 };

/** Growth on PostgreSQL (only with TEST_DATABASE_URL). */
export const GROWTH = { statementLines: 1_000_000, invoices: 100_000, samples: 100 };
export { STATEMENT_PAGE_SIZE as STATEMENT_PAGE } from "../app/lib/statement-query";
