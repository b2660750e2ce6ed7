import {
  collectionRoute,
  createResponseRequest,
  listResponseRequests,
  type CollectionRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * GET  /api/back-office/response-requests?status=&kind=&account=&contact=&limit=&cursor=
 *      (responses:read): the business's response requests, newest first, with their answers.
 * POST /api/back-office/response-requests (responses:write): asks one contact of one account to
 *      answer, and emails them the link: `{ kind, account, contact, message?, expiresInDays?, … }`
 *      with `address` (delivery-address), `statement` (statement) or `dispute` (dispute).
 */
const route = {
  list: {
    scope: "responses:read",
    filters: ["status", "kind", "account", "contact"],
    run: listResponseRequests,
  },
  post: {
    scope: "responses:write",
    run: async ({ caller, body, onCommit }) => ({
      status: 201,
      body: await createResponseRequest(caller.businessId, body, { apiKeyId: caller.keyId, beforeCommit: onCommit }),
    }),
  },
} satisfies CollectionRoute<"status" | "kind" | "account" | "contact">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
