import type { ActionFunctionArgs } from "@remix-run/node";
import { apiText } from "~/lib/i18n/catalog";
import { PASSWORD_PARAMS } from "~/lib/password-rules";
import {
  resetPasswordCallSchema,
  getPageContext,
  apiError,
  apiJson,
  methodNotAllowed,
  readApiBody,
  resetPassword,
  requireSameOrigin,
} from "./sample-api.server";

/**
 * POST /api/sample/forgot-change {email, password, token} (spec §7). Spec §5: clients
 * URL-encode the password before sending. In a JSON body it arrives encoded and is
 * decoded here; in a form body the form encoding is that encoding, already undone.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  const isJson = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
  // The first problem in the order token, email, password; other fields are ignored, as they always were.
  const body = resetPasswordCallSchema(isJson ? "json" : "form").safeParse(await readApiBody(request));
  if (!body.success)
    return apiError(400, apiText(body.error.issues[0]?.message ?? "Choose another password.", PASSWORD_PARAMS));
  const result = await resetPassword(branding, body.data, request);
  if (!result.ok) return apiError(result.status, apiText(result.message, PASSWORD_PARAMS));
  return apiJson({ ok: true, message: apiText("auth.error.resetDone") });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
