import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPageContext, csrfTokenFor, apiJson, methodNotAllowed } from "./auth-api.server";

/**
 * GET /api/auth/csrf (spec §7) → {csrfToken}: the token POST /api/auth/signout wants, bound to
 * this browser's session; null when signed out (decision 025). Every POST is also refused from
 * another origin (decision 009), so this is an extra check, not the only one.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await getPageContext(request);
  return apiJson({ csrfToken: session ? csrfTokenFor(session) : null });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
