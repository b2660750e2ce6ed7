import {
  checkSendFlag,
  collectionRoute,
  createPaymentRequest,
  listPaymentRequests,
  sendPaymentRequest,
  type CollectionRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * GET  /api/back-office/payment-requests?state=&account=&limit=&cursor= (payment-requests:read)
 * POST /api/back-office/payment-requests (payment-requests:write): create; `"send": true` also
 *      emails it at once. Decision 032; authenticated by the business's API key only.
 */
const route = {
  list: { scope: "payment-requests:read", filters: ["state", "account"], run: listPaymentRequests },
  post: {
    scope: "payment-requests:write",
    check: checkSendFlag,
    run: async ({ caller, body: { send, ...input }, onCommit }) => {
      const created = await createPaymentRequest(caller.businessId, input, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      if (!send) return { status: 201, body: { request: created } };
      // The key is marked used when the request is made; were the sending lost after that, a
      // repeat is told so (with the request's id) instead of making a second request.
      const sent = await sendPaymentRequest(caller.businessId, created.id, { beforeCommit: onCommit });
      return { status: 201, body: sent };
    },
  },
} satisfies CollectionRoute<"state" | "account">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
