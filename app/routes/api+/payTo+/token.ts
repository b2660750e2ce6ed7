import type { ActionFunctionArgs } from "@remix-run/node";
import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import {
  requireApiPaymentAccount,
  parseTokenRequest,
  createAgreement,
  hostnameFromRequest,
  getEnv,
  apiJson,
  problemBody,
  methodNotAllowed,
  readApiBody,
  requireSameOrigin,
} from "./payto-api.server";

const english = translator("en-AU");

/**
 * POST /api/payTo/token (spec §3, §7; decision 028): the spec's PayTo token request, JSON or a
 * form. Access first (method, same origin, session, portal access, the account named by
 * accountID: else 405/403/401/404), then the request's own problems, answered as values:
 * `{ ok: false, reason, message, errors }` with 422 (invalid), 403 (PayTo off) or 409 (the
 * requestGuid was used for something else). A good request answers `{ ok: true, agreement }`;
 * a repeat of its requestGuid answers the first result.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  requireSameOrigin(request);
  // Read whole, then answered in the order of access first: the account it names, then its own problems.
  const parsed = parseTokenRequest(await readApiBody(request));
  const { actor } = await requireApiPaymentAccount(request, parsed.accountId);
  if (!parsed.ok) {
    const errors = Object.fromEntries(Object.entries(parsed.errors).map(([field, key]) => [field, english(key)]));
    const [message] = Object.values(errors);
    const text = message ?? "Invalid request";
    return apiJson(
      { ok: false, reason: "invalid", ...problemBody(422, text, { code: "invalid", fields: errors }), errors },
      { status: 422 },
    );
  }
  const hostname = hostnameFromRequest(request, { trustProxy: getEnv().TRUST_PROXY }) ?? new URL(request.url).hostname;
  const outcome = await createAgreement(actor, parsed.request, { hostname });
  if (!outcome.ok) {
    const status = outcome.reason === "disabled" ? 403 : 409;
    const key: MessageKey = outcome.reason === "disabled" ? "payto.error.disabled" : "payto.error.conflict";
    return apiJson(
      { ok: false, reason: outcome.reason, ...problemBody(status, english(key), { code: outcome.reason }), errors: {} },
      { status },
    );
  }
  const { agreement } = outcome;
  return apiJson({
    ok: true,
    repeat: outcome.repeat,
    agreement,
    message: english(`payto.next.${agreement.status}` as MessageKey),
  });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
