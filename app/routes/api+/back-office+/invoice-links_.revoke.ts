import { collectionRoute, revokeInvoiceLinks, type CollectionRoute, type RouteArgs } from "./back-office.server";

/**
 * POST /api/back-office/invoice-links/revoke (invoice-links:write; decision 074): `{invoice, contact?}`
 * — every live link to that invoice stops working, or only that contact's. 200 `{invoice, contact,
 * revoked}`; again, `revoked: 0` (nothing left to revoke is not an error). 404 for an invoice that is
 * not the business's.
 */
const route = {
  post: {
    scope: "invoice-links:write",
    run: async ({ caller, body, onCommit }) => ({
      status: 200,
      body: await revokeInvoiceLinks(caller.businessId, body, { beforeCommit: onCommit }),
    }),
  },
} satisfies CollectionRoute;

export const loader = () => collectionRoute.loader(route);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
