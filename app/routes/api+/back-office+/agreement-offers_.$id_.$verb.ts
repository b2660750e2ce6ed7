import type { ActionFunctionArgs } from "@remix-run/node";
import {
  resendAgreementOffer,
  withdrawAgreementOffer,
  answer,
  apiProblem,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  invalid,
} from "./back-office.server";

/**
 * POST /api/back-office/agreement-offers/:id/resend | withdraw (agreements:write).
 * resend: a new link by email, the contact's old ones revoked; withdraw: the offer can no longer
 * be decided and every link to it stops working (again: no change; a decided offer: 409).
 */
const VERBS = ["resend", "withdraw"] as const;

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    const verb = VERBS.find((v) => v === params.verb);
    if (!verb) return apiProblem(404, "not_found", "Use resend or withdraw.");
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "agreements:write");
    // An empty body is fine; anything sent must be a JSON object with no fields.
    const body = await readJsonBody(request, { optional: true });
    const unknown = Object.keys(body.value);
    if (unknown.length) {
      throw invalid(
        Object.fromEntries(
          unknown.slice(0, 10).map((name) => [name.slice(0, 60), "This field is not part of the call."]),
        ),
      );
    }
    const id = params.id ?? "";
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      if (verb === "withdraw") {
        const offer = await withdrawAgreementOffer(caller.businessId, id, { beforeCommit: onCommit });
        return { status: 200, body: { offer } };
      }
      const result = await resendAgreementOffer(caller.businessId, id, { beforeCommit: onCommit });
      return { status: 200, body: result };
    });
  });
}

export async function loader({ params }: { params: { verb?: string } }) {
  if (!VERBS.some((v) => v === params.verb)) return apiProblem(404, "not_found", "Use resend or withdraw.");
  return notAllowed(["POST"]);
}
