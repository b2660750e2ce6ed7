import {
  resendResponseRequest,
  verbRoute,
  withdrawResponseRequest,
  type RouteArgs,
  type VerbRoute,
} from "./back-office.server";

/**
 * POST /api/back-office/response-requests/:id/resend | withdraw (responses:write).
 * resend: a new link by email, the contact's old ones revoked; withdraw: the request can no
 * longer be answered and every link to it stops working (again: no change; answered: 409).
 * No body, or `{}`.
 */
const route = {
  scope: "responses:write",
  body: "none",
  verbs: {
    resend: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await resendResponseRequest(caller.businessId, id, { beforeCommit: onCommit }),
    }),
    withdraw: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: { request: await withdrawResponseRequest(caller.businessId, id, { beforeCommit: onCommit }) },
    }),
  },
} satisfies VerbRoute;

export const loader = (args: { params: RouteArgs["params"] }) => verbRoute.loader(route, args);
export const action = (args: RouteArgs) => verbRoute.action(route, args);
