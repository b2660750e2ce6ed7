import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiSession, getDb, apiJson, methodNotAllowed } from "./host-api.server";

/**
 * GET /api/host/settings (spec §3, §4 step 3, §7): permissions, contact, configs (name),
 * uiConfig (itemName, isVisible) and business, for the signed-in contact on this host.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiSession(request);
  const db = await getDb();
  const [configs, uiConfig] = await Promise.all([
    db
      .selectFrom("business_configs")
      .select(["name", "value"])
      .where("business_id", "=", branding.businessId)
      .orderBy("name")
      .execute(),
    db
      .selectFrom("ui_settings")
      .select(["item_name as itemName", "is_visible as isVisible"])
      .where("business_id", "=", branding.businessId)
      .orderBy("item_name")
      .execute(),
  ]);
  const contact = session.contact;
  return apiJson({
    permissions: contact.permissions,
    contact: {
      userId: contact.id,
      email: contact.email,
      firstName: contact.firstName,
      lastName: contact.lastName,
      position: contact.position,
      verified: contact.verified,
    },
    configs,
    uiConfig,
    business: {
      businessId: branding.businessId,
      businessName: branding.businessName,
      businessLabel: branding.businessLabel,
      theme: branding.theme,
      logoDirectory: branding.logoDirectory,
      country: branding.country,
      currency: branding.currency,
      timeZone: branding.timeZone,
    },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
