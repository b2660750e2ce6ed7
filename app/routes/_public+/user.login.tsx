import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireHostBranding } from "./public.server";

/** The original product's sign-in address (spec §2): the same page as /auth/signin. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireHostBranding(request);
  const url = new URL(request.url);
  return redirect(`/auth/signin${url.search}`);
}
