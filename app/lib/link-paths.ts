/**
 * Paths that carry an emailed link's token (decision 031): `/customer/payment-request/<token>`
 * (and `…/<token>/invoice/<id>`), `/customer/invoices-and-payments/<token>` (beside the signed-in
 * `invoices`, `invoice/<id>` and `pay` pages of that folder), `/customer/adhoc/<token>`,
 * `/agreements/acceptance/<token>` (and `…/<token>/download`; decision 036) beside the same page
 * opened signed in by the offer's reference (`AG-…`, never a token: 59 characters are), and a
 * payment schedule's `/payment-schedule/acceptance/<token>` and `/customer/payment-schedule/<token>`
 * (beside the signed-in pages of the same folders, named by the schedule's reference `PS-…`), and a
 * response request's `/response/<token>` and `/response/complete/<token>` (decision 040), and a
 * receipt email's signed `/customer/receipt/<token>` (decision 076).
 * The preference centre's signed links (decision 039): `/communication/<token>`, and the one-click
 * unsubscribe page `/communication/unsubscribe`, whose token is in its query (which no log keeps).
 *
 * The token must never be written whole into a log, nor sent on in a Referer: the request line and
 * the error log write `redactLinkPath(path)`, the logger applies it to any `url` or `path` field
 * (decision 061), and these pages answer
 * `Referrer-Policy: strict-origin` (`isLinkPagePath`). Pure, so the server's logging, its headers
 * and the tests share one rule.
 */
const LINK_FOLDERS = [
  "/customer/payment-request/",
  "/customer/invoices-and-payments/",
  "/customer/adhoc/",
  // A receipt email's signed link (decision 076): always a token, never a payment's reference.
  "/customer/receipt/",
  "/agreements/acceptance/",
  // Payment schedules (decision 034): a token, or a reference (PS-…) for a signed-in contact.
  "/payment-schedule/acceptance/",
  "/customer/payment-schedule/",
  // A trade referee's link (issue 17; decision 041): always a token, never a reference.
  "/credit-trade-reference/",
  // Communication preferences (decision 039): a signed link; `unsubscribe` names a page, not a token.
  "/communication/",
  // Response requests (decision 040): the question and, once answered, what was recorded. The
  // complete page first: its folder sits inside the question's.
  "/response/complete/",
  "/response/",
] as const;

/** Link pages whose token travels in the query string (RFC 8058's List-Unsubscribe URL). */
const QUERY_TOKEN_PAGES = /^\/communication\/unsubscribe(\.data)?\/?$/i;

/** The signed-in pages of `/customer/invoices-and-payments/` (decision 016): not tokens. */
const SIGNED_IN_PAGES = new Set(["invoices", "invoice", "pay"]);

/** An agreement offer's reference: the signed-in page of `/agreements/acceptance/`, not a token. */
const AGREEMENT_REFERENCE = /^AG-[0-9A-Z]{6,12}$/;

/** What a token becomes in a log: its first six characters, enough to correlate, never to use. */
export const redactToken = (token: string) => `${token.slice(0, 6)}…`;

/** Where the token segment of a link path starts and ends, or null for any other path. */
function tokenSegment(path: string): { start: number; end: number } | null {
  const lower = path.toLowerCase();
  for (const folder of LINK_FOLDERS) {
    if (!lower.startsWith(folder)) continue;
    const start = folder.length;
    const slash = path.indexOf("/", start);
    const end = slash === -1 ? path.length : slash;
    // A single-fetch request names the page with `.data` after it: the suffix is not the token.
    const segment = path.slice(start, end).replace(/\.data$/, "");
    if (segment === "" || (folder === "/customer/invoices-and-payments/" && SIGNED_IN_PAGES.has(segment))) return null;
    if (folder === "/agreements/acceptance/" && AGREEMENT_REFERENCE.test(segment)) return null;
    // A schedule's reference names its signed-in page: no token (59 characters) looks like one.
    if (/^PS-[0-9A-Z]{6,12}$/.test(segment)) return null;
    if (folder === "/communication/" && segment.toLowerCase() === "unsubscribe") return null;
    return { start, end: start + segment.length };
  }
  return null;
}

/** Is this the path of a page opened by a link token (it carries the token)? */
export function isLinkPagePath(pathname: string): boolean {
  return tokenSegment(pathname) !== null || QUERY_TOKEN_PAGES.test(pathname);
}

/**
 * The path as a log may keep it: the token segment cut to six characters and "…"; any query
 * string dropped (it may carry one-time tokens too). Every other path is returned unchanged.
 */
export function redactLinkPath(path: string): string {
  const bare = path.split("?")[0]!.split("#")[0]!;
  const segment = tokenSegment(bare);
  if (!segment) return bare;
  return `${bare.slice(0, segment.start)}${redactToken(bare.slice(segment.start, segment.end))}${bare.slice(segment.end)}`;
}
