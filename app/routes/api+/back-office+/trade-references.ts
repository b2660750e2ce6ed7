import { collectionRoute, listTradeReferences, type CollectionRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/trade-references?state=answered|unanswered&application=&limit=&cursor=
 * (credit:read): the referees of the business's submitted applications, newest first, with where
 * each link stands (waiting, answered, expired, closed), when it was first opened and how often,
 * and the answer once given: who to chase, and what they said.
 */
const route = {
  list: { scope: "credit:read", filters: ["state", "application"], run: listTradeReferences },
} satisfies CollectionRoute<"state" | "application">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = () => collectionRoute.action(route);
