import { collectionRoute, sendAdhocLink, type CollectionRoute, type RouteArgs } from "./back-office.server";

/**
 * POST /api/back-office/adhoc-links (adhoc:write): email a contact of an account a link to pay
 * the business any amount. The answer says to whom and until when; the link is in the email
 * only. 409 when the business does not take ad-hoc payments.
 */
const route = {
  post: {
    scope: "adhoc:write",
    run: async ({ caller, body, onCommit }) => ({
      status: 201,
      body: await sendAdhocLink(caller.businessId, body, { beforeCommit: onCommit }),
    }),
  },
} satisfies CollectionRoute;

export const loader = () => collectionRoute.loader(route);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
