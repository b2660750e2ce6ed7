import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  requireApiAccountAccess,
  requireApiPortalAccess,
  apiError,
  apiJson,
  methodNotAllowed,
} from "./sample-api.server";

/** GET /api/sample/account?accountId= (spec §7): one account's details; no id → 400 'Invalid request'. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const accountId = new URL(request.url).searchParams.get("accountId");
  if (!accountId) return apiError(400, "Invalid request");
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, accountId);
  return apiJson(account);
}

export function action() {
  return methodNotAllowed(["GET"]);
}
