import { getContactPermissions, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/contacts/:contact/permissions (contacts:read): a contact of the key's
 * business, named by id or email address, with its permissions (accessCustomerPortal, hostAdmin).
 * Another business's contact is a 404, exactly like one that does not exist (the service says so).
 */
const route = {
  read: {
    scope: "contacts:read",
    run: (businessId, params) => getContactPermissions(businessId, params.contact),
    as: "contact",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = () => itemRoute.action(route);
