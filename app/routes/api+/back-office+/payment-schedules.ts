import {
  checkSendFlag,
  collectionRoute,
  listSchedules,
  proposeSchedule,
  sendSchedule,
  type CollectionRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * GET  /api/back-office/payment-schedules?state=&account=&limit=&cursor= (schedules:read)
 * POST /api/back-office/payment-schedules (schedules:write): propose a schedule; `"send": true`
 *      also emails it at once. Decisions 032 and 034; authenticated by the business's API key only.
 */
const route = {
  list: { scope: "schedules:read", filters: ["state", "account"], run: listSchedules },
  post: {
    scope: "schedules:write",
    check: checkSendFlag,
    run: async ({ caller, body: { send, ...input }, onCommit }) => {
      const schedule = await proposeSchedule(caller.businessId, input, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      if (!send) return { status: 201, body: { schedule } };
      // The key is marked used when the schedule is made; were the sending lost after that, a
      // repeat is told so (with the schedule's id) instead of proposing a second schedule.
      const sent = await sendSchedule(caller.businessId, schedule.id, { beforeCommit: onCommit });
      return { status: 201, body: sent };
    },
  },
} satisfies CollectionRoute<"state" | "account">;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
