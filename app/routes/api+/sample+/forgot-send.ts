import type { ActionFunctionArgs } from "@remix-run/node";
import { apiText } from "~/lib/i18n/catalog";
import { PASSWORD_PARAMS, RESET_SENT_MESSAGE } from "~/lib/password-rules";
import {
  ResetRequestSchema,
  getPageContext,
  apiError,
  apiJson,
  methodNotAllowed,
  readApiBody,
  requestPasswordReset,
  requireSameOrigin,
} from "./sample-api.server";

/** POST /api/sample/forgot-send {email} (spec §7): the same answer whether or not the email exists. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  // Other fields are ignored, as they always were.
  const body = ResetRequestSchema.safeParse(await readApiBody(request));
  if (!body.success)
    return apiError(400, apiText(body.error.issues[0]?.message ?? "Enter your email address.", PASSWORD_PARAMS));
  const result = await requestPasswordReset(branding, body.data.email, request);
  if (!result.ok) return apiError(result.status, apiText(result.message, PASSWORD_PARAMS));
  return apiJson({ ok: true, message: apiText(RESET_SENT_MESSAGE) });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
