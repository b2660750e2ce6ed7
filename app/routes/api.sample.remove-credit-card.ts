import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed } from "~/services/platform/http.server";
import { requireApiPaymentAccount } from "~/services/payment-methods/payment-methods-api.server";
import { removeCard } from "~/services/payment-methods/payment-methods.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

/** DELETE /api/sample/remove-credit-card?creditCardId=&accountId= (spec §5: no id → 'missing credit card ID'). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  requireSameOrigin(request);
  const params = new URL(request.url).searchParams;
  const cardId = params.get("creditCardId");
  if (!cardId) return apiError(400, "missing credit card ID");
  const { actor } = await requireApiPaymentAccount(request, params.get("accountId"));
  if (!(await removeCard(actor, cardId))) return apiError(404, "Credit card not found");
  return apiJson({ removed: true, creditCardId: cardId });
}

export function loader() {
  return methodNotAllowed(["DELETE"]);
}
