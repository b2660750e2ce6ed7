/**
 * The front door to the services for the routes in app/routes/api+/host+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { requireApiSession } from "~/services/auth/auth.server";
export { findHostBranding, normalizeHostname, toBootstrap } from "~/services/host/host.server";
export { getDb } from "~/services/platform/database.server";
export { checkHealth } from "~/services/platform/heartbeat.server";
export { apiError, apiJson, methodNotAllowed } from "~/services/platform/http.server";
export { logger } from "~/services/platform/logger.server";
