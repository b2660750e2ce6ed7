import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireHostBranding, signInApi } from "./auth-api.server";

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

/**
 * POST /api/auth/signin (spec §4, §7; decision 092): signs in with an email and password, as JSON or a form,
 * under the sign-in page's rules, and answers the sign-in result `{error, status, ok, url}` (with the session
 * cookie when `ok`). Any other method: a JSON 405 naming GET and POST.
 */
export function action({ request }: ActionFunctionArgs) {
  return signInApi(request);
}
