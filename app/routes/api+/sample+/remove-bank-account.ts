import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed, readRemovalCall, removeBankAccount } from "./sample-api.server";

/** DELETE /api/sample/remove-bank-account?bankAccountId=&accountId= (spec §5: no id → 'missing bank account ID'). */
export async function action({ request }: ActionFunctionArgs) {
  const { id, actor } = await readRemovalCall(request, "bankAccountId", "missing bank account ID");
  if (!(await removeBankAccount(actor, id))) return apiError(404, "Bank account not found");
  return apiJson({ removed: true, bankAccountId: id });
}

export function loader() {
  return methodNotAllowed(["DELETE"]);
}
