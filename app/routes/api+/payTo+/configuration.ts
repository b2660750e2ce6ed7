import type { LoaderFunctionArgs } from "@remix-run/node";
import { PAYID_TYPES } from "~/lib/payto-rules";
import { requireApiPortalAccess, payToConfigurationOf, apiJson, methodNotAllowed } from "./payto-api.server";

/**
 * GET /api/payTo/configuration (spec §4 step 3, §7): read with the host at the start of every
 * request, answered here to a signed-in contact. Whether
 * this business offers PayTo (Australian businesses whose settings turn it on), through which
 * provider, the most one payment may take (integer cents, and in the currency's units for the
 * spec's clients), and what a payer may name their account by.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requireApiPortalAccess(request);
  const configuration = payToConfigurationOf(branding);
  return apiJson({
    enabled: configuration.enabled,
    providerName: configuration.providerName,
    currency: branding.currency,
    maxPaymentCents: configuration.maxPaymentCents,
    maxPaymentAmount: configuration.maxPaymentCents / 100,
    frequency: "ADHOC",
    partyType: "PERS",
    accountIdentificationTypes: configuration.enabled ? ["BBAN"] : [],
    accountAliasTypes: configuration.enabled ? [...PAYID_TYPES] : [],
    payIdDomain: configuration.payIdDomain,
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
