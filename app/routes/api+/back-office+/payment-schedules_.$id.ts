import type { LoaderFunctionArgs } from "@remix-run/node";
import { answer, apiProblem, isRead, json, notAllowed, requireCaller, getSchedule } from "./back-office.server";

/**
 * GET /api/back-office/payment-schedules/:id (schedules:read): one schedule by its id or
 * reference, with its instalments, their states and tries. Another business's schedule is a
 * 404, exactly like one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "schedules:read");
    const schedule = await getSchedule(caller.businessId, params.id);
    if (!schedule) return apiProblem(404, "not_found", "No such payment schedule.");
    return json({ schedule });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
