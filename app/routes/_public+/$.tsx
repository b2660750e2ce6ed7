import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireSameOrigin, requireHostBranding } from "./public.server";

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

export default function NotFound() {
  return null;
}
