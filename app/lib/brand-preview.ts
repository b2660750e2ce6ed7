/**
 * The pages a brand preview shows, each the page customers get (issues 16 and 32). A module of
 * its own, so the preview page's bundle takes these few strings and not the draft form's schema.
 *
 * Two kinds of page (decision 082):
 * - the portal's own routes: sign-in (asked for signed out, `?preview=signed-out`, so the frame
 *   shows what a visitor sees and not the admin's signed-in shell), the dashboard, invoices, pay;
 * - the pages contacts open from an email (a payment request, an ad-hoc payment link, a payment
 *   schedule's proposal, an agreement offer), which carry a token no admin has: shown by
 *   `/admin/branding/preview/page/<kind>` with the business's own data, signed out, and inert.
 */
export const LINK_PREVIEW_KINDS = ["request", "adhoc", "schedule", "agreement"] as const;
export type LinkPreviewKind = (typeof LINK_PREVIEW_KINDS)[number];

export function isLinkPreviewKind(value: unknown): value is LinkPreviewKind {
  return typeof value === "string" && (LINK_PREVIEW_KINDS as readonly string[]).includes(value);
}

/** Where an emailed link's page is previewed (the route `admin+/branding+/preview.page.$kind.tsx`). */
export const LINK_PREVIEW_PATH = "/admin/branding/preview/page/";

/** The query that asks a portal page for its signed-out look while previewing (sign-in). */
export const SIGNED_OUT_PREVIEW = { name: "preview", value: "signed-out" } as const;

export const PREVIEW_PAGES = {
  signin: `/auth/signin?${SIGNED_OUT_PREVIEW.name}=${SIGNED_OUT_PREVIEW.value}`,
  dashboard: "/",
  invoices: "/customer/invoices-and-payments/invoices",
  pay: "/customer/invoices-and-payments/pay?all=1",
  request: `${LINK_PREVIEW_PATH}request`,
  adhoc: `${LINK_PREVIEW_PATH}adhoc`,
  schedule: `${LINK_PREVIEW_PATH}schedule`,
  agreement: `${LINK_PREVIEW_PATH}agreement`,
} as const satisfies Record<string, string>;
export type PreviewPage = keyof typeof PREVIEW_PAGES;

export function isPreviewPage(value: unknown): value is PreviewPage {
  return typeof value === "string" && Object.hasOwn(PREVIEW_PAGES, value);
}

/**
 * Whether this address asks to be shown as a signed-out visitor sees it: an emailed link's preview,
 * or a page asked for with `?preview=signed-out`. The root loader honours it only while the
 * request's own session previews a draft (a verified host admin of this business; `withPreview`
 * in host/tenant.server.ts), and then only hides the session from the shell: it signs no one out
 * and opens nothing a signed-out visitor could not.
 */
export function asksSignedOutPreview(url: URL): boolean {
  const path = url.pathname.toLowerCase().replace(/\.data$/, "");
  if (path.startsWith(LINK_PREVIEW_PATH)) return true;
  return url.searchParams.get(SIGNED_OUT_PREVIEW.name) === SIGNED_OUT_PREVIEW.value;
}
