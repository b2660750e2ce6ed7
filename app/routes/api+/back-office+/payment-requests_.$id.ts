import { getPaymentRequest, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/payment-requests/:id (payment-requests:read): one request by its id or
 * reference. Another business's request is a 404, exactly like one that does not exist.
 */
const route = {
  read: {
    scope: "payment-requests:read",
    run: (businessId, params) => getPaymentRequest(businessId, params.id),
    as: "request",
    notFound: "No such payment request.",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
