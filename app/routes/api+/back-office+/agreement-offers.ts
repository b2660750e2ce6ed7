import {
  collectionRoute,
  createAgreementOffer,
  listAgreementOffers,
  type CollectionRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * GET  /api/back-office/agreement-offers?account=&contact=&state=&limit=&cursor= (agreements:read):
 *      the offers of one account (id or number) or to one contact (id or email), newest first.
 * POST /api/back-office/agreement-offers (agreements:write): offers a document to a contact of an
 *      account and emails them the link, `{ document, account, contact, expiresInDays? }`.
 */
const route = {
  list: { scope: "agreements:read", filters: ["account", "contact", "state"], run: listAgreementOffers },
  post: {
    scope: "agreements:write",
    run: async ({ caller, body, onCommit }) => ({
      status: 201,
      body: await createAgreementOffer(caller.businessId, body, { apiKeyId: caller.keyId, beforeCommit: onCommit }),
    }),
  },
} satisfies CollectionRoute<"account" | "contact" | "state">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
