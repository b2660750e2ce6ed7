import { getAgreementDocument, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/agreements/:id (agreements:read): one document with every version, newest
 * first, each with its text, SHA-256 and byte length. Another business's document is a 404,
 * exactly like one that does not exist.
 */
const route = {
  read: {
    scope: "agreements:read",
    run: (businessId, params) => getAgreementDocument(businessId, params.id),
    as: "document",
    notFound: "No such agreement document.",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
