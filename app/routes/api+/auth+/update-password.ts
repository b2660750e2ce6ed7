import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
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
 * Any non-empty text, cut at 1,024 characters, never refused for its length: its bound is the body's own (16 KiB,
 * readApiBody), so no password that was taken before is refused now.
 */
const CurrentPasswordSchema = z
  .string()
  .min(1)
  .max(16 * 1024)
  .transform((password) => password.slice(0, 1024));

/**
 * PUT /api/auth/update-password {oldPassword, newPassword} (spec §7). Spec §8 exempts this
 * call from "401 signs you out": a dead session answers 401 and the cookie stays.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"]);
  requireSameOrigin(request);
  const { session } = await requireApiSession(request, { clearCookieOn401: false });
  const body = await readApiBody(request);
  // The current password first: a missing one is named before the new one is judged.
  const current = CurrentPasswordSchema.safeParse(body.oldPassword);
  if (!current.success) return apiError(400, "Enter your current password.");
  const next = NewPasswordSchema.safeParse(body.newPassword);
  if (!next.success)
    return apiError(400, apiText(next.error.issues[0]?.message ?? "Choose another password.", PASSWORD_PARAMS));
  const result = await changePassword(session, { oldPassword: current.data, newPassword: next.data }, request);
  if (!result.ok) return apiError(result.status, apiText(result.message, PASSWORD_PARAMS));
  return apiJson({ ok: true, message: "Your password has been changed. Your other sessions have ended." });
}

export function loader() {
  return methodNotAllowed(["PUT"]);
}
