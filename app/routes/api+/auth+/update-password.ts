import type { ActionFunctionArgs } from "@remix-run/node";
import { apiText } from "~/lib/i18n/catalog";
import { PASSWORD_PARAMS } from "~/lib/password-rules";
import {
  NewPasswordSchema,
  requireApiSession,
  apiError,
  apiJson,
  methodNotAllowed,
  readApiBody,
  changePassword,
  requireSameOrigin,
} from "./auth-api.server";

/**
 * PUT /api/auth/update-password {oldPassword, newPassword} (spec §7). Spec §8 exempts this
 * call from "401 signs you out": a dead session answers 401 and the cookie stays.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"]);
  requireSameOrigin(request);
  const { session } = await requireApiSession(request, { clearCookieOn401: false });
  const body = await readApiBody(request);
  if (typeof body.oldPassword !== "string" || body.oldPassword === "")
    return apiError(400, "Enter your current password.");
  const next = NewPasswordSchema.safeParse(body.newPassword);
  if (!next.success)
    return apiError(400, apiText(next.error.issues[0]?.message ?? "Choose another password.", PASSWORD_PARAMS));
  const result = await changePassword(
    session,
    { oldPassword: body.oldPassword.slice(0, 1024), newPassword: next.data },
    request,
  );
  if (!result.ok) return apiError(result.status, apiText(result.message, PASSWORD_PARAMS));
  return apiJson({ ok: true, message: "Your password has been changed. Your other sessions have ended." });
}

export function loader() {
  return methodNotAllowed(["PUT"]);
}
