import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  answer,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  invalid,
  listSchedules,
  proposeSchedule,
  sendSchedule,
} from "./back-office.server";

/**
 * GET  /api/back-office/payment-schedules?state=&account=&limit=&cursor= (schedules:read)
 * POST /api/back-office/payment-schedules (schedules:write): propose a schedule; `"send": true`
 *      also emails it at once. Decisions 032 and 034; authenticated by the business's API key only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "schedules:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    const page = await listSchedules(caller.businessId, {
      state: params.get("state"),
      account: params.get("account"),
      limit: limit === null ? null : Number(limit),
      cursor: params.get("cursor"),
    });
    return json(page);
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "schedules:write");
    const body = await readJsonBody(request);
    const { send, ...input } = body.value;
    if (send !== undefined && typeof send !== "boolean") throw invalid({ send: "Give true or false." });
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const schedule = await proposeSchedule(caller.businessId, input, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      if (!send) return { status: 201, body: { schedule } };
      // The key is marked used when the schedule is made; were the sending lost after that, a
      // repeat is told so (with the schedule's id) instead of proposing a second schedule.
      const sent = await sendSchedule(caller.businessId, schedule.id, { beforeCommit: onCommit });
      return { status: 201, body: sent };
    });
  });
}
