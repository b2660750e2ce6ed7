import { data } from "@remix-run/node";

/**
 * What every page opened by an emailed link answers with (decision 031): its path carries the
 * token, so no Referer may carry it on, and no cache may keep the page. `strict-origin`, not
 * `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the page's own form
 * POST, which the cross-site guard must refuse (a no-JavaScript payment could never be made);
 * `strict-origin` sends only the origin, never the path, to every destination, ours included. The document headers
 * (security-headers.server.ts) and data answers (entry.server.tsx) set the referrer policy by
 * path too; routes add these to their own redirects and errors.
 */
export const LINK_PAGE_HEADERS = {
  "Referrer-Policy": "strict-origin",
  "Cache-Control": "private, no-store",
} as const;

/**
 * One answer for every token that does not check out — malformed, truncated, tampered,
 * guessed, another host's or another purpose's: "This link isn't valid", 404, and nothing
 * about whether it ever existed.
 */
export function linkInvalid() {
  return data({ reason: "link-invalid" }, { status: 404, headers: LINK_PAGE_HEADERS });
}

/** Another record under a good link (an invoice the request does not cover): "Page not found". */
export function notUnderThisLink() {
  return data({ reason: "no-access" }, { status: 404, headers: LINK_PAGE_HEADERS });
}
