import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPageContext } from "~/services/auth/auth.server";
import { apiError, apiJson, methodNotAllowed } from "~/services/platform/http.server";
import { checkResetToken } from "~/services/auth/password-flows.server";
import { consume, TOKEN_CHECKS } from "~/services/platform/rate-limit.server";
import { clientAddress } from "~/services/platform/request-context.server";

/** GET /api/auth/token-verify?token= (spec §5, §7): is this reset token still good? Rate limited. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return apiError(400, "Missing token");
  const limits = [{ key: `token-verify:ip:${clientAddress(request)}`, ...TOKEN_CHECKS }];
  if (!(await consume(branding.businessId, limits))) {
    return apiError(429, "Too many checks. Please wait 15 minutes and try again.", { "Retry-After": "900" });
  }
  const live = await checkResetToken(branding, token);
  return apiJson({ valid: live !== null });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
