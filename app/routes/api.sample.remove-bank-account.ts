import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed } from "~/services/platform/http.server";
import { requireApiPaymentAccount } from "~/services/payment-methods/payment-methods-api.server";
import { removeBankAccount } from "~/services/payment-methods/payment-methods.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

/** DELETE /api/sample/remove-bank-account?bankAccountId=&accountId= (spec §5: no id → 'missing bank account ID'). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  requireSameOrigin(request);
  const params = new URL(request.url).searchParams;
  const bankAccountId = params.get("bankAccountId");
  if (!bankAccountId) return apiError(400, "missing bank account ID");
  const { actor } = await requireApiPaymentAccount(request, params.get("accountId"));
  if (!(await removeBankAccount(actor, bankAccountId))) return apiError(404, "Bank account not found");
  return apiJson({ removed: true, bankAccountId });
}

export function loader() {
  return methodNotAllowed(["DELETE"]);
}
