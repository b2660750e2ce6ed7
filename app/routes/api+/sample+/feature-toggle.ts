import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getFeatureToggles,
  requireApiAccountAccess,
  requireApiPortalAccess,
  apiError,
  apiJson,
  methodNotAllowed,
} from "./sample-api.server";

/** GET /api/sample/feature-toggle?accountId= (spec §3, §7): name, enabled, configurationValue. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const accountId = new URL(request.url).searchParams.get("accountId");
  if (!accountId) return apiError(400, "missing accountId");
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, accountId);
  return apiJson(await getFeatureToggles(branding.businessId, account.accountId));
}

export function action() {
  return methodNotAllowed(["GET"]);
}
