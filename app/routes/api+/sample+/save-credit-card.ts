import type { ActionFunctionArgs } from "@remix-run/node";
import {
  apiJson,
  methodNotAllowed,
  cardJson,
  gatewayContextForApi,
  parseSaveCard,
  readPaymentMethodCall,
  refusalError,
  validationError,
  saveCard,
} from "./sample-api.server";

/**
 * POST /api/sample/save-credit-card (spec §3 save payload): the number and CVN go to the
 * gateway; 201 with the saved card (masked). Field problems → 400 with `errors`; a gateway
 * refusal → 422 (503 when it is not answering). Access and every field are checked before
 * the gateway sees the card, and nothing is stored unless the gateway agrees.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { body, actor, clientIp } = await readPaymentMethodCall(request, "POST");
  const parsed = parseSaveCard(body);
  if (!parsed.success) return validationError(parsed.error.issues);
  const card = parsed.data;
  const result = await saveCard(
    actor,
    card,
    gatewayContextForApi(request, clientIp, card.gatewayOrigin, card.extraData),
  );
  if (!result.ok) return refusalError(result.refusal);
  return apiJson(cardJson(actor.accountId, result.card), { status: 201 });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
