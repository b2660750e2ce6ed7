import { collectionRoute, revokeAdhocLinks, type CollectionRoute, type RouteArgs } from "./back-office.server";

/**
 * POST /api/back-office/adhoc-links/revoke (adhoc:write): `{account, contact}` — every live
 * ad-hoc link of that contact for that account stops working. 200 `{accountId, contact,
 * revoked}`; again, `revoked: 0` (nothing left to revoke is not an error).
 */
const route = {
  post: {
    scope: "adhoc:write",
    run: async ({ caller, body, onCommit }) => ({
      status: 200,
      body: await revokeAdhocLinks(caller.businessId, body, { beforeCommit: onCommit }),
    }),
  },
} satisfies CollectionRoute;

export const loader = () => collectionRoute.loader(route);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
