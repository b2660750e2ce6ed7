import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb, apiError, apiJson, methodNotAllowed, requireHostBranding } from "./sample-api.server";

/**
 * GET /api/sample/business?businessId= (spec §7): the host's own business, public details
 * only. No id → 400 'Missing businessID'; any id but this host's → 404 (one host never
 * describes another business).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  const businessId = new URL(request.url).searchParams.get("businessId");
  if (!businessId) return apiError(400, "Missing businessID");
  if (businessId.toLowerCase() !== branding.businessId) return apiError(404, "Business not found");
  const db = await getDb();
  const business = await db
    .selectFrom("businesses")
    .select([
      "id as businessId",
      "name as businessName",
      "label as businessLabel",
      "country",
      "currency",
      "time_zone as timeZone",
      "theme",
      "logo_directory as logoDirectory",
      "support_email as supportEmail",
    ])
    .where("id", "=", branding.businessId)
    .executeTakeFirstOrThrow();
  return apiJson(business);
}

export function action() {
  return methodNotAllowed(["GET"]);
}
