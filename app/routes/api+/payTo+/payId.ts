import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  requireApiAccountAccess,
  requireApiPortalAccess,
  getAccountPayId,
  apiError,
  apiJson,
  methodNotAllowed,
} from "./payto-api.server";

/**
 * GET /api/payTo/payId?accountId= (spec §7; issue 13): the account's own receivable PayID, to
 * pay into from any banking app. No id → 400 'Invalid request' (as the other account calls);
 * an account the contact may not see, of this business or another → 404. Errors are values:
 * PayID off for the business → `{ payId: null, enabled: false, reason }`; the provider not
 * answering just now → `{ payId: null, enabled: true, reason: "unavailable" }`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const accountId = new URL(request.url).searchParams.get("accountId");
  if (!accountId) return apiError(400, "Invalid request");
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, accountId);
  const payId = await getAccountPayId({
    businessId: branding.businessId,
    hostname: branding.hostname,
    accountId: account.accountId,
    accountNumber: account.number,
  });
  switch (payId.status) {
    case "ready":
      return apiJson({ payId: payId.payId, name: payId.name, accountNumber: account.number, enabled: true });
    case "off":
      return apiJson({ payId: null, enabled: false, reason: payId.reason });
    case "unavailable":
      return apiJson({ payId: null, enabled: true, reason: "unavailable" });
  }
}

export function action() {
  return methodNotAllowed(["GET"]);
}
