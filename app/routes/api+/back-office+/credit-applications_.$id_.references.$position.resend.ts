import { itemRoute, resendTradeReference, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * POST /api/back-office/credit-applications/:id/references/:position/resend (credit:write): emails
 * the referee at that position (1–5) a new link; the one in the earlier email stops working. Only
 * while the reference is unanswered and the application undecided (else 409). No body, or `{}`.
 */
const route = {
  post: {
    scope: "credit:write",
    body: "none",
    run: async ({ caller, params, onCommit }) => ({
      status: 200,
      body: await resendTradeReference(caller.businessId, params.id ?? "", params.position, {
        beforeCommit: onCommit,
      }),
    }),
  },
} satisfies ItemRoute;

export const loader = () => itemRoute.loader(route);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
