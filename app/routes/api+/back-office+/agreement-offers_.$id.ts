import { getAgreementOffer, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/agreement-offers/:id (agreements:read): one offer by its id or reference
 * (AG-…), with its decision once made. Another business's offer is a 404, exactly like one that
 * does not exist.
 */
const route = {
  read: {
    scope: "agreements:read",
    run: (businessId, params) => getAgreementOffer(businessId, params.id),
    as: "offer",
    notFound: "No such agreement offer.",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
