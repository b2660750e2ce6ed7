import type { ActionFunctionArgs } from "@remix-run/node";
import {
  answer,
  apiProblem,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  invalid,
  cancelSchedule,
  sendSchedule,
  withdrawSchedule,
} from "./back-office.server";

/**
 * POST /api/back-office/payment-schedules/:id/send | resend | withdraw | cancel (schedules:write).
 * send: email a proposal never sent; resend: a new link, the old one revoked; withdraw: take a
 * proposal back; cancel: end an accepted schedule (nothing more is charged). Again: no change.
 */
const VERBS = ["send", "resend", "withdraw", "cancel"] as const;
const NOT_A_VERB = "Use send, resend, withdraw or cancel.";

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    const verb = VERBS.find((v) => v === params.verb);
    if (!verb) return apiProblem(404, "not_found", NOT_A_VERB);
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "schedules:write");
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
      switch (verb) {
        case "withdraw":
          return {
            status: 200,
            body: { schedule: await withdrawSchedule(caller.businessId, id, { beforeCommit: onCommit }) },
          };
        case "cancel":
          return {
            status: 200,
            body: { schedule: await cancelSchedule(caller.businessId, id, { beforeCommit: onCommit }) },
          };
        case "send":
        case "resend":
          return {
            status: 200,
            body: await sendSchedule(caller.businessId, id, { resend: verb === "resend", beforeCommit: onCommit }),
          };
      }
    });
  });
}

export async function loader({ params }: { params: { verb?: string } }) {
  if (!VERBS.some((v) => v === params.verb)) return apiProblem(404, "not_found", NOT_A_VERB);
  return notAllowed(["POST"]);
}
