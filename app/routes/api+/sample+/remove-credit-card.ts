import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed, readRemovalCall, removeCard } from "./sample-api.server";

/** DELETE /api/sample/remove-credit-card?creditCardId=&accountId= (spec §5: no id → 'missing credit card ID'). */
export async function action({ request }: ActionFunctionArgs) {
  const { id, actor } = await readRemovalCall(request, "creditCardId", "missing credit card ID");
  if (!(await removeCard(actor, id))) return apiError(404, "Credit card not found");
  return apiJson({ removed: true, creditCardId: id });
}

export function loader() {
  return methodNotAllowed(["DELETE"]);
}
