/**
 * The front door to the services for the routes in app/routes/_test+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { processBackgroundWork } from "~/services/jobs/background.server";
export { now } from "~/services/platform/clock.server";
export { apiError, apiJson } from "~/services/platform/http.server";
export { requireSameOrigin } from "~/services/platform/request-context.server";
export { moveTestClock, readTestClock, requireTestClock } from "~/services/platform/test-clock.server";
