import type { ActionFunctionArgs } from "@remix-run/node";
import { apiText } from "~/lib/i18n/catalog";
import { PASSWORD_PARAMS } from "~/lib/password-rules";
import {
  EmailSchema,
  NewPasswordSchema,
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
  const body = await readApiBody(request);
  if (typeof body.token !== "string" || body.token === "") return apiError(400, "Missing token");
  const email = EmailSchema.safeParse(body.email);
  if (!email.success)
    return apiError(400, apiText(email.error.issues[0]?.message ?? "Enter your email address.", PASSWORD_PARAMS));
  if (typeof body.password !== "string") return apiError(400, "Enter a new password.");
  let password = body.password;
  if (isJson) {
    try {
      password = decodeURIComponent(body.password);
    } catch {
      return apiError(400, "The password must be URL-encoded (spec §5).");
    }
  }
  const checked = NewPasswordSchema.safeParse(password);
  if (!checked.success)
    return apiError(400, apiText(checked.error.issues[0]?.message ?? "Choose another password.", PASSWORD_PARAMS));
  const result = await resetPassword(
    branding,
    { email: email.data, token: body.token, password: checked.data },
    request,
  );
  if (!result.ok) return apiError(result.status, apiText(result.message, PASSWORD_PARAMS));
  return apiJson({ ok: true, message: apiText("auth.error.resetDone") });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
