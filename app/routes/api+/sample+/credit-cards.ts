import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed, cardJson, requireApiPaymentAccount, listCards } from "./sample-api.server";

/** GET /api/sample/credit-cards?accountId= (spec §7): the account's saved cards, masked (spec §9). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireApiPaymentAccount(request, new URL(request.url).searchParams.get("accountId"));
  return apiJson((await listCards(actor)).map((card) => cardJson(actor.accountId, card)));
}

export function action() {
  return methodNotAllowed(["GET"]);
}
