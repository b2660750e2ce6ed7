import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  listAccountContacts,
  requireApiAccountAccess,
  requireApiPortalAccess,
  apiError,
  apiJson,
  methodNotAllowed,
} from "./sample-api.server";

/** GET /api/sample/contacts?accountId= (spec §7): the people on an account. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const accountId = new URL(request.url).searchParams.get("accountId");
  if (!accountId) return apiError(400, "Invalid request");
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, accountId);
  return apiJson(await listAccountContacts(branding.businessId, account.accountId));
}

export function action() {
  return methodNotAllowed(["GET"]);
}
