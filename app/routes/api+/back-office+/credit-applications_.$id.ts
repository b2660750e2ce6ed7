import { getCreditApplication, itemRoute, type ItemRoute, type RouteArgs } from "./back-office.server";

/**
 * GET /api/back-office/credit-applications/:id (credit:read): one submitted application by its id
 * or reference (CA-…): its answers as stored, the terms accepted (version, hash, the name typed,
 * when and from where), the decision, its documents' facts and its trade references with their
 * answers. A draft, or another business's application, is a 404 exactly like one that does not
 * exist.
 */
const route = {
  read: {
    scope: "credit:read",
    run: (businessId, params) => getCreditApplication(businessId, params.id),
    as: "application",
    notFound: "No such credit application.",
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = () => itemRoute.action(route);
