import type { ActionFunctionArgs } from "@remix-run/node";
import {
  apiError,
  apiJson,
  methodNotAllowed,
  cardJson,
  gatewayContextForApi,
  parseUpdateCardCall,
  readPaymentMethodCall,
  refusalError,
  validationError,
  findCard,
  updateCard,
} from "./sample-api.server";
import { CARD_TYPE_IDS } from "~/lib/card";

/**
 * PUT /api/sample/update-credit-card (spec §3 update payload): a new expiry and, optionally,
 * holder name; a CVN re-verifies the card. The number cannot change (a different card is a
 * new card): a cardNumber that is not this card's → 400. Another account's or business's
 * card → 404.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { body, branding, actor, clientIp } = await readPaymentMethodCall(request, "PUT");
  const call = parseUpdateCardCall(body);
  if (call.businessId !== undefined && call.businessId !== branding.businessId)
    return apiError(404, "Credit card not found");
  if (call.creditCardId === undefined) return apiError(400, "missing credit card ID");
  const card = await findCard(actor, call.creditCardId);
  if (!card) return apiError(404, "Credit card not found");
  if (!call.update.success) return validationError(call.update.error.issues);
  const input = call.update.data;
  if (input.cardNumberLast4 !== null && input.cardNumberLast4 !== card.last4) {
    return apiError(400, "The card number can't be changed: save the new card instead.");
  }
  if (input.cardTypeId !== null && input.cardTypeId !== CARD_TYPE_IDS[card.brand]) {
    return apiError(400, "The card type can't be changed: save the new card instead.");
  }
  const result = await updateCard(
    actor,
    card.cardId,
    {
      expiryMonth: input.expiryMonth,
      expiryYear: input.expiryYear,
      holderName: input.holderName ?? card.holderName,
      cvn: input.cvn,
    },
    gatewayContextForApi(request, clientIp, undefined, {}),
  );
  if (!result) return apiError(404, "Credit card not found");
  if (!result.ok) return refusalError(result.refusal);
  return apiJson(cardJson(actor.accountId, result.card));
}

export function loader() {
  return methodNotAllowed(["PUT"]);
}
