import { changeContactPermission, notAllowed, verbRoute, type RouteArgs, type VerbRoute } from "./back-office.server";

/**
 * POST /api/back-office/contacts/:contact/permissions/grant | revoke (contacts:write), body
 * `{"permission": "hostAdmin"}` (or accessCustomerPortal). 200 `{contact, permission, changed}`;
 * granting what the contact holds (or revoking what it does not) is `changed: false`. A host
 * admin's previews end with the permission: every page checks it again (requireHostBranding).
 */
const route = {
  scope: "contacts:write",
  body: "json",
  verbs: {
    grant: async ({ caller, params, body, onCommit }) => ({
      status: 200,
      body: await changeContactPermission(caller.businessId, params.contact, body, "grant", {
        beforeCommit: onCommit,
        keyId: caller.keyId,
      }),
    }),
    revoke: async ({ caller, params, body, onCommit }) => ({
      status: 200,
      body: await changeContactPermission(caller.businessId, params.contact, body, "revoke", {
        beforeCommit: onCommit,
        keyId: caller.keyId,
      }),
    }),
  },
} satisfies VerbRoute;

/** Unlike the other verb routes, a GET here is a 405 whatever the verb: as it has always answered. */
export const loader = () => notAllowed(["POST"]);
export const action = (args: RouteArgs) => verbRoute.action(route, args);
