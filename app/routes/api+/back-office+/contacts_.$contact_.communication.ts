import {
  getContactCommunication,
  itemRoute,
  recordContactCommunication,
  type ItemRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * GET /api/back-office/contacts/:contact/communication (communication:read): a contact of the
 * key's business, by id or email, with their communication preferences — `preferences` as
 * `{ statements: { email, post }, … }` for a statement run to honour, each choice with whether it
 * is the default, what is always sent, and the latest changes (decision 039).
 *
 * POST (communication:write), body `{"preferences": {"statements": {"post": true}}, "note": "…"}`:
 * records choices the contact gave the business directly, with a note of how; `Idempotency-Key`
 * as every POST. 200 `{…the view, changed: ["statements.post"]}`; a choice already so is no change.
 * Another business's contact is a 404, exactly like one that does not exist (the service says so).
 */
const route = {
  read: {
    scope: "communication:read",
    run: (businessId, params) => getContactCommunication(businessId, params.contact),
  },
  post: {
    scope: "communication:write",
    run: async ({ caller, params, body, onCommit }) => ({
      status: 200,
      body: await recordContactCommunication(caller.businessId, params.contact, body, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      }),
    }),
  },
} satisfies ItemRoute;

export const loader = (args: RouteArgs) => itemRoute.loader(route, args);
export const action = (args: RouteArgs) => itemRoute.action(route, args);
