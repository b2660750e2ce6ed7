import type { LoaderFunctionArgs } from "@remix-run/node";
import { isEmailPreview } from "~/lib/email-previews";
import { pageNotFound, publicBaseUrl, renderEmailPreview, requireHostAdminPage } from "./branding.server";

/**
 * /admin/branding/preview/email/<kind> (issue 32, decision 081): one email a contact gets, as its
 * HTML, rendered with this admin's session's draft brand (the published one when it previews
 * none) and demo data of the admin's own business, for the preview page's frames. A host admin of
 * this host's business only; anyone else, and an unknown kind, "Page not found". Nothing is sent,
 * queued or written. The answer is no one else's and kept by no cache; it runs no script and
 * loads nothing but its images (the brand's logo, on this host).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding } = await requireHostAdminPage(request);
  const kind = params.kind;
  if (!isEmailPreview(kind)) throw pageNotFound();
  const { html } = await renderEmailPreview(branding, kind);
  const images = new URL(publicBaseUrl(branding)).origin;
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      // An email's HTML: inline styles and its images, nothing else (no script runs, no form posts).
      "Content-Security-Policy": `default-src 'none'; img-src 'self' ${images}; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`,
    },
  });
}
