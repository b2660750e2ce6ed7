/**
 * Paths that carry an emailed link's token (decision 031): `/customer/payment-request/<token>`
 * (and `…/<token>/invoice/<id>`), `/customer/invoices-and-payments/<token>` (beside the signed-in
 * `invoices`, `invoice/<id>` and `pay` pages of that folder), `/customer/adhoc/<token>`, and a
 * payment schedule's `/payment-schedule/acceptance/<token>` and `/customer/payment-schedule/<token>`
 * (beside the signed-in pages of the same folders, named by the schedule's reference `PS-…`).
 *
 * The token must never be written whole into a log, nor sent on in a Referer: the request log,
 * the access line and the error log write `redactLinkPath(path)`, and these pages answer
 * `Referrer-Policy: strict-origin` (`isLinkPagePath`). Pure, so the server's logging, its headers
 * and the tests share one rule.
 */
const LINK_FOLDERS = [
  "/customer/payment-request/",
  "/customer/invoices-and-payments/",
  "/customer/adhoc/",
  // Payment schedules (decision 034): a token, or a reference (PS-…) for a signed-in contact.
  "/payment-schedule/acceptance/",
  "/customer/payment-schedule/",
] as const;

/** The signed-in pages of `/customer/invoices-and-payments/` (decision 016): not tokens. */
const SIGNED_IN_PAGES = new Set(["invoices", "invoice", "pay"]);

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
    // A schedule's reference names its signed-in page: no token (59 characters) looks like one.
    if (segment === "" || /^PS-[0-9A-Z]{6,12}$/.test(segment)) return null;
    if (folder === "/customer/invoices-and-payments/" && SIGNED_IN_PAGES.has(segment)) return null;
    return { start, end: start + segment.length };
  }
  return null;
}

/** Is this the path of a page opened by a link token (it carries the token)? */
export function isLinkPagePath(pathname: string): boolean {
  return tokenSegment(pathname) !== null;
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
