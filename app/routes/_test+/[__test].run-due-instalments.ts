import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  requireSameOrigin,
  apiError,
  apiJson,
  now,
  requireTestClock,
  processBackgroundWork,
} from "./test-hooks.server";
import { data } from "@remix-run/node";

/**
 * The e2e suite's "it is that day now" (decision 035): sweeps for due instalments at the test
 * clock's time and waits until their charge jobs, and the emails those wrote, have run. "Page not
 * found" unless PORTAL_TEST_CLOCK=on and the caller is local.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  requireTestClock(request);
  throw data({ reason: "no-route" }, { status: 404 });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  requireTestClock(request);
  const work = processBackgroundWork();
  if (!work) return apiError(503, "The background work (and so the instalment runner) is not running in this process.");
  const result = await (await work).runDueInstalmentsNow();
  return apiJson({ now: now().toISOString(), ...result });
}
