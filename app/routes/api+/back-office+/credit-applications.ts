import { collectionRoute, listCreditApplications, type CollectionRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/credit-applications?status=&limit=&cursor= (credit:read): the business's
 * submitted credit applications, newest submitted first, optionally of one status (submitted,
 * accepted, declined). Drafts are never listed. Decisions 032 and 041; the API key decides the
 * business.
 */
const route = {
  list: { scope: "credit:read", filters: ["status"], run: listCreditApplications },
} satisfies CollectionRoute<"status">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = () => collectionRoute.action(route);
