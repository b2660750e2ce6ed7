import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireSameOrigin, requireHostBranding } from "./public.server";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * Any path no other route claims. The root error boundary renders the branded
 * 'Page not found' screen for a known host, and the neutral one for an unknown host.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireHostBranding(request);
  throw data({ reason: "no-route" }, { status: 404 });
}

export async function action({ request }: LoaderFunctionArgs) {
  requireSameOrigin(request);
  await requireHostBranding(request);
  throw data({ reason: "no-route" }, { status: 404 });
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function NotFound() {
  return null;
}
