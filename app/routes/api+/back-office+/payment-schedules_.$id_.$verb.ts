import {
  cancelSchedule,
  sendSchedule,
  verbRoute,
  withdrawSchedule,
  type RouteArgs,
  type VerbRoute,
} from "./back-office.server";

/**
 * POST /api/back-office/payment-schedules/:id/send | resend | withdraw | cancel (schedules:write).
 * send: email a proposal never sent; resend: a new link, the old one revoked; withdraw: take a
 * proposal back; cancel: end an accepted schedule (nothing more is charged). Again: no change.
 * No body, or `{}`.
 */
const route = {
  scope: "schedules:write",
  body: "none",
  verbs: {
    send: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await sendSchedule(caller.businessId, id, { resend: false, beforeCommit: onCommit }),
    }),
    resend: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: await sendSchedule(caller.businessId, id, { resend: true, beforeCommit: onCommit }),
    }),
    withdraw: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: { schedule: await withdrawSchedule(caller.businessId, id, { beforeCommit: onCommit }) },
    }),
    cancel: async ({ caller, id, onCommit }) => ({
      status: 200,
      body: { schedule: await cancelSchedule(caller.businessId, id, { beforeCommit: onCommit }) },
    }),
  },
} satisfies VerbRoute;

export const loader = (args: { params: RouteArgs["params"] }) => verbRoute.loader(route, args);
export const action = (args: RouteArgs) => verbRoute.action(route, args);
