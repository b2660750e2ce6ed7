import { getResponseRequest, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/response-requests/:id (responses:read): one request by its id or
 * reference (RR-…), with its answer once given. Another business's request is a 404, exactly like
 * one that does not exist.
 */
const route = {
  read: {
    scope: "responses:read",
    run: (businessId, params) => getResponseRequest(businessId, params.id),
    as: "request",
    notFound: "No such response request.",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
