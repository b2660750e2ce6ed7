import type { ActionFunctionArgs } from "@remix-run/node";
import {
  apiJson,
  methodNotAllowed,
  bankAccountJson,
  parseSaveBankAccount,
  readPaymentMethodCall,
  refusalError,
  validationError,
  saveBankAccount,
} from "./sample-api.server";

/**
 * POST /api/sample/save-bank-account (spec §3): accountName, accountRouting (BSB; in New
 * Zealand bank-branch), accountNumber (NZ: account-suffix, checked by the NZ rules),
 * description, authorityReference. 201 with the account, number masked.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { body, branding, actor } = await readPaymentMethodCall(request, "POST");
  const parsed = parseSaveBankAccount(body, branding.country);
  if (!parsed.success) return validationError(parsed.error.issues);
  const result = await saveBankAccount(actor, parsed.data);
  if (!result.ok) return refusalError(result.refusal);
  return apiJson(bankAccountJson(actor.accountId, result.bankAccount), { status: 201 });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
