/**
 * The pages a brand preview shows, each the real route customers get (issue 16). A module of
 * its own, so the preview page's bundle takes these few strings and not the draft form's schema.
 */
export const PREVIEW_PAGES = {
  signin: "/auth/signin",
  dashboard: "/",
  invoices: "/customer/invoices-and-payments/invoices",
  pay: "/customer/invoices-and-payments/pay?all=1",
} as const;
export type PreviewPage = keyof typeof PREVIEW_PAGES;

export function isPreviewPage(value: unknown): value is PreviewPage {
  return typeof value === "string" && Object.hasOwn(PREVIEW_PAGES, value);
}
