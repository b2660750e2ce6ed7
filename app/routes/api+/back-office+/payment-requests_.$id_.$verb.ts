import {
  cancelPaymentRequest,
  remindPaymentRequest,
  sendPaymentRequest,
  verbRoute,
  type RouteArgs,
  type VerbRoute,
} from "./back-office.server";

/**
 * POST /api/back-office/payment-requests/:id/send | resend | remind | cancel (payment-requests:write).
 * send: email a request that was never sent; resend: new links for every recipient, the old
 * ones revoked; remind: a payment reminder to each recipient who has not opted out of reminders
 * and was not reminded in the last 24 hours, with an extra link (none revoked), `{request, sent,
 * skipped, failed}` — 409 when nobody is due one (decision 039); cancel: the request is closed and
 * every link revoked (again: no change). No body, or `{}`.
 */
const route = {
  scope: "payment-requests:write",
  body: "none",
  verbs: {
    send: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await sendPaymentRequest(caller.businessId, id, { resend: false, beforeCommit: onCommit }),
    }),
    resend: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await sendPaymentRequest(caller.businessId, id, { resend: true, beforeCommit: onCommit }),
    }),
    remind: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await remindPaymentRequest(caller.businessId, id, { beforeCommit: onCommit }),
    }),
    cancel: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: { request: await cancelPaymentRequest(caller.businessId, id, { beforeCommit: onCommit }) },
    }),
  },
} satisfies VerbRoute;

export const loader = (args: { params: RouteArgs["params"] }) => verbRoute.loader(route, args);
export const action = (args: RouteArgs) => verbRoute.action(route, args);
