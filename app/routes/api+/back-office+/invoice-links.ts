import {
  collectionRoute,
  listInvoiceLinks,
  sendInvoiceLinks,
  type CollectionRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * /api/back-office/invoice-links (issue 31; decision 074). GET (invoice-links:read): the business's
 * single-invoice links, newest first, by `invoice`, `contact` and `state` (live, expired, revoked).
 * POST (invoice-links:write): `{invoice, recipients, expiresInDays?}` emails each recipient a link of
 * their own to pay that invoice; 201 `{invoice, links, deliveries}`. 404 for an invoice that is not
 * the business's, 409 for one that cannot be paid online. The links are in the emails only.
 */
const route = {
  list: {
    scope: "invoice-links:read",
    filters: ["invoice", "contact", "state"],
    run: (businessId, query) => listInvoiceLinks(businessId, query),
  },
  post: {
    scope: "invoice-links:write",
    run: async ({ caller, body, onCommit }) => ({
      status: 201,
      body: await sendInvoiceLinks(caller.businessId, body, { beforeCommit: onCommit }),
    }),
  },
} satisfies CollectionRoute<"invoice" | "contact" | "state">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
