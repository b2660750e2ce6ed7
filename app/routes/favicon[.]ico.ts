import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireHostBranding } from "~/services/host/tenant.server";

/**
 * Browsers (and bookmarks, feed readers) ask for /favicon.ico whatever the page's own
 * `<link rel="icon">` says. It leads to this host's brand icon, or the neutral one, instead
 * of a 404 in the console and the logs.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const logoDirectory = await requireHostBranding(request).then(
    (branding) => branding.logoDirectory,
    () => null,
  );
  return redirect(logoDirectory ? `${logoDirectory}/favicon.svg` : "/favicon.svg", {
    headers: { "Cache-Control": "public, max-age=3600" },
  });
}
