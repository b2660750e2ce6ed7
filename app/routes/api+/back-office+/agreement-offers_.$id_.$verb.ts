import {
  resendAgreementOffer,
  verbRoute,
  withdrawAgreementOffer,
  type RouteArgs,
  type VerbRoute,
} from "./back-office.server";

/**
 * POST /api/back-office/agreement-offers/:id/resend | withdraw (agreements:write).
 * resend: a new link by email, the contact's old ones revoked; withdraw: the offer can no longer
 * be decided and every link to it stops working (again: no change; a decided offer: 409).
 * No body, or `{}`.
 */
const route = {
  scope: "agreements:write",
  body: "none",
  verbs: {
    resend: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await resendAgreementOffer(caller.businessId, id, { beforeCommit: onCommit }),
    }),
    withdraw: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: { offer: await withdrawAgreementOffer(caller.businessId, id, { beforeCommit: onCommit }) },
    }),
  },
} satisfies VerbRoute;

export const loader = (args: { params: RouteArgs["params"] }) => verbRoute.loader(route, args);
export const action = (args: RouteArgs) => verbRoute.action(route, args);
