import type { ActionFunctionArgs } from "@remix-run/node";
import {
  answer,
  apiProblem,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  decideCreditApplication,
} from "./back-office.server";

/**
 * POST /api/back-office/credit-applications/:id/accept | decline (credit:write).
 * accept: `{ approvedLimitCents, note? }`; decline: `{ reason }`. A decision is made once: any
 * second decision is a 409 (the same call repeated with its Idempotency-Key gets the first
 * answer). The applicant is emailed the outcome, the note or the reason included, after the
 * decision is committed.
 */
const VERBS = { accept: "accepted", decline: "declined" } as const;
type Verb = keyof typeof VERBS;
const isVerb = (value: unknown): value is Verb => value === "accept" || value === "decline";

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    const verb = params.verb;
    if (!isVerb(verb)) return apiProblem(404, "not_found", "Use accept or decline.");
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "credit:write");
    const body = await readJsonBody(request);
    const id = params.id ?? "";
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await decideCreditApplication(caller.businessId, id, VERBS[verb], body.value, {
        decidedBy: `api-key:${caller.keyId}`,
        beforeCommit: onCommit,
      });
      return { status: 200, body: result };
    });
  });
}

export async function loader({ params }: { params: { verb?: string } }) {
  if (!isVerb(params.verb)) return apiProblem(404, "not_found", "Use accept or decline.");
  return notAllowed(["POST"]);
}
