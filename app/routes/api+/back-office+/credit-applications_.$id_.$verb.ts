import { decideCreditApplication, verbRoute, type RouteArgs, type VerbRoute } from "./back-office.server";

/**
 * POST /api/back-office/credit-applications/:id/accept | decline (credit:write).
 * accept: `{ approvedLimitCents, note? }`; decline: `{ reason }`. A decision is made once: any
 * second decision is a 409 (the same call repeated with its Idempotency-Key gets the first
 * answer). The applicant is emailed the outcome, the note or the reason included, after the
 * decision is committed.
 */
const route = {
  scope: "credit:write",
  body: "json",
  verbs: {
    accept: async ({ caller, id, body, onCommit }) => ({
      status: 200,
      body: await decideCreditApplication(caller.businessId, id, "accepted", body, {
        decidedBy: `api-key:${caller.keyId}`,
        beforeCommit: onCommit,
      }),
    }),
    decline: async ({ caller, id, body, onCommit }) => ({
      status: 200,
      body: await decideCreditApplication(caller.businessId, id, "declined", body, {
        decidedBy: `api-key:${caller.keyId}`,
        beforeCommit: onCommit,
      }),
    }),
  },
} satisfies VerbRoute;

export const loader = (args: { params: RouteArgs["params"] }) => verbRoute.loader(route, args);
export const action = (args: RouteArgs) => verbRoute.action(route, args);
