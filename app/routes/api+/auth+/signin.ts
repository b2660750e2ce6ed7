import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireHostBranding } from "./auth-api.server";

/**
 * GET /api/auth/signin?error=&callbackUrl= (spec §2): the sign-in page, carrying the
 * error and callback along (the page decides what a safe callback is).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireHostBranding(request);
  const url = new URL(request.url);
  const params = new URLSearchParams();
  for (const key of ["error", "callbackUrl"]) {
    const value = url.searchParams.get(key);
    if (value) params.set(key, value.slice(0, 2048));
  }
  const query = params.toString();
  return redirect(`/auth/signin${query ? `?${query}` : ""}`);
}
