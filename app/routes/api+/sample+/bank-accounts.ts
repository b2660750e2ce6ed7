import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  apiJson,
  methodNotAllowed,
  bankAccountJson,
  requireApiPaymentAccount,
  listBankAccounts,
} from "./sample-api.server";

/** GET /api/sample/bank-accounts?accountId= (spec §7): the account's bank accounts, numbers masked. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireApiPaymentAccount(request, new URL(request.url).searchParams.get("accountId"));
  return apiJson((await listBankAccounts(actor)).map((bank) => bankAccountJson(actor.accountId, bank)));
}

export function action() {
  return methodNotAllowed(["GET"]);
}
