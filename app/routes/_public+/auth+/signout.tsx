import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getPageContext, signOut, requireSameOrigin } from "./auth-pages.server";

/**
 * Sign-out (spec §4): the session row goes, and with it selectedAccount and
 * invoicePagination. With Auth0 the browser continues to the provider's logout, which
 * returns to this host's origin.
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { cookie, url } = await signOut(request, await getPageContext(request), "/auth/signin");
  return redirect(url, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return redirect("/");
}
