import type { HostBranding } from "../../host/host.server";
import { getDb } from "../../platform/database.server";
import { getPayToProvider } from "./index.server";

/**
 * A business's PayTo configuration (spec §4 step 3, §7 GET /api/payTo/configuration): whether
 * PayTo is offered at all (only Australian businesses: PayTo is part of Australia's New
 * Payments Platform), the provider's name, the most one payment may take, and the domain of
 * its accounts' receivable PayIDs.
 */
export type PayToConfiguration = {
  enabled: boolean;
  providerName: string;
  maxPaymentCents: number;
  payIdDomain: string | null;
};

export async function getPayToConfiguration(businessId: string): Promise<PayToConfiguration> {
  const db = await getDb();
  const row = await db
    .selectFrom("payto_settings")
    .innerJoin("businesses", "businesses.id", "payto_settings.business_id")
    .select([
      "payto_settings.enabled",
      "payto_settings.provider_name as providerName",
      "payto_settings.max_payment_cents as maxPaymentCents",
      "payto_settings.payid_domain as payIdDomain",
      "businesses.country",
    ])
    .where("payto_settings.business_id", "=", businessId)
    .executeTakeFirst();
  if (!row || row.country !== "AU") {
    return { enabled: false, providerName: getPayToProvider().name, maxPaymentCents: 0, payIdDomain: null };
  }
  return {
    enabled: row.enabled,
    providerName: row.providerName,
    maxPaymentCents: Number(row.maxPaymentCents),
    payIdDomain: row.payIdDomain,
  };
}

/**
 * The same configuration from what the request's host resolution already read (no query):
 * what pages and calls with a host use, so PayTo's settings arrive with the host, once per request.
 */
export function payToConfigurationOf(branding: Pick<HostBranding, "country" | "payToSettings">): PayToConfiguration {
  const settings = branding.payToSettings;
  if (!settings || branding.country !== "AU") {
    return { enabled: false, providerName: getPayToProvider().name, maxPaymentCents: 0, payIdDomain: null };
  }
  return { ...settings };
}
