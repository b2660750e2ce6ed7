import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiSession, apiJson, methodNotAllowed } from "./auth-api.server";

/**
 * GET /api/auth/verify (spec §7): is the signed-in contact verified? Spec §8 exempts this
 * call from "401 signs you out", so a dead session answers 401 without clearing the cookie.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await requireApiSession(request, { clearCookieOn401: false });
  return apiJson(session.contact.verified);
}

export function action() {
  return methodNotAllowed(["GET"]);
}
