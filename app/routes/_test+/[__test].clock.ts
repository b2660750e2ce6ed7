import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireSameOrigin, moveTestClock, readTestClock, requireTestClock } from "./test-hooks.server";

/** The e2e suite's clock (decision 035): "Page not found" unless PORTAL_TEST_CLOCK=on and the caller is local. */
export async function loader({ request }: LoaderFunctionArgs) {
  requireTestClock(request);
  return readTestClock();
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  requireTestClock(request);
  return moveTestClock(request);
}
