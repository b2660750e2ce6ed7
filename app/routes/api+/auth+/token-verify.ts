import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getPageContext,
  apiError,
  apiJson,
  methodNotAllowed,
  checkResetToken,
  consume,
  TOKEN_CHECKS,
  clientAddress,
} from "./auth-api.server";

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
