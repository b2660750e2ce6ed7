import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getAccountTiles,
  requireApiAccountAccess,
  requireApiPortalAccess,
  apiError,
  apiJson,
  methodNotAllowed,
  now,
} from "./sample-api.server";
import { todayIn } from "~/lib/dates";

/** GET /api/sample/account-tiles?accountId= (spec §7): the dashboard figures; no id → 400 'Invalid request'. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const accountId = new URL(request.url).searchParams.get("accountId");
  if (!accountId) return apiError(400, "Invalid request");
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, accountId);
  return apiJson(await getAccountTiles(branding.businessId, account.accountId, todayIn(branding.timeZone, now())));
}

export function action() {
  return methodNotAllowed(["GET"]);
}
