import type { ActionFunctionArgs } from "@remix-run/node";
import {
  answer,
  apiProblem,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  cancelPaymentRequest,
  remindPaymentRequest,
  sendPaymentRequest,
  invalid,
} from "./back-office.server";

/**
 * POST /api/back-office/payment-requests/:id/send | resend | remind | cancel (payment-requests:write).
 * send: email a request that was never sent; resend: new links for every recipient, the old
 * ones revoked; remind: a payment reminder to each recipient who has not opted out of reminders
 * and was not reminded in the last 24 hours, with an extra link (none revoked), `{request, sent,
 * skipped, failed}` — 409 when nobody is due one (decision 039); cancel: the request is closed and
 * every link revoked (again: no change).
 */
const VERBS = ["send", "resend", "remind", "cancel"] as const;
const USE = "Use send, resend, remind or cancel.";

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    const verb = VERBS.find((v) => v === params.verb);
    if (!verb) return apiProblem(404, "not_found", USE);
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "payment-requests:write");
    // An empty body is fine; anything sent must be a JSON object with no fields yet.
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
      if (verb === "cancel") {
        const cancelled = await cancelPaymentRequest(caller.businessId, id, { beforeCommit: onCommit });
        return { status: 200, body: { request: cancelled } };
      }
      if (verb === "remind") {
        const reminded = await remindPaymentRequest(caller.businessId, id, { beforeCommit: onCommit });
        return { status: 200, body: reminded };
      }
      const sent = await sendPaymentRequest(caller.businessId, id, {
        resend: verb === "resend",
        beforeCommit: onCommit,
      });
      return { status: 200, body: sent };
    });
  });
}

export async function loader({ params }: { params: { verb?: string } }) {
  if (!VERBS.some((v) => v === params.verb)) return apiProblem(404, "not_found", USE);
  return notAllowed(["POST"]);
}
