import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPageContext, apiJson, methodNotAllowed } from "./auth-api.server";

/**
 * GET /api/auth/session: is this browser signed in on this host? Read by the page on
 * window focus and when another tab signs out (spec §4), so a dead session is noticed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await getPageContext(request);
  if (!session) return apiJson({ authenticated: false });
  return apiJson({
    authenticated: true,
    expires: session.expiresAt.toISOString(),
    user: {
      userId: session.contact.id,
      email: session.contact.email,
      firstName: session.contact.firstName,
      lastName: session.contact.lastName,
      verified: session.contact.verified,
    },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
