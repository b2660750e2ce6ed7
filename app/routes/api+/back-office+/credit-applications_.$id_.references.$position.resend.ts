import type { ActionFunctionArgs } from "@remix-run/node";
import {
  answer,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  resendTradeReference,
  invalid,
} from "./back-office.server";

/**
 * POST /api/back-office/credit-applications/:id/references/:position/resend (credit:write): emails
 * the referee at that position (1–5) a new link; the one in the earlier email stops working. Only
 * while the reference is unanswered and the application undecided (else 409).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "credit:write");
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
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await resendTradeReference(caller.businessId, params.id ?? "", params.position, {
        beforeCommit: onCommit,
      });
      return { status: 200, body: result };
    });
  });
}

export async function loader() {
  return notAllowed(["POST"]);
}
