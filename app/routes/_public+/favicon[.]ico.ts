import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireHostBranding } from "./public.server";

/**
 * Browsers (and bookmarks, feed readers) ask for /favicon.ico whatever the page's own
 * `<link rel="icon">` says. It leads to this host's brand icon (an uploaded one, or the logo
 * directory's), or the neutral one, instead of a 404 in the console and the logs. A host admin
 * previewing a draft brand is sent to the draft's icon, in an answer no cache keeps.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request).catch(() => null);
  return redirect(branding ? branding.faviconUrl : "/favicon.svg", {
    headers: { "Cache-Control": branding?.preview ? "private, no-store" : "public, max-age=300" },
  });
}
