import { getSchedule, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/payment-schedules/:id (schedules:read): one schedule by its id or
 * reference, with its instalments, their states and tries. Another business's schedule is a
 * 404, exactly like one that does not exist.
 */
const route = {
  read: {
    scope: "schedules:read",
    run: (businessId, params) => getSchedule(businessId, params.id),
    as: "schedule",
    notFound: "No such payment schedule.",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
