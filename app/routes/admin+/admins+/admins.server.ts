/**
 * The front door to the services for the routes in app/routes/admin+/admins+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { requireHostAdminPage } from "~/services/branding/admin-page.server";
export { grantHostAdminByEmail, hostAdminsView, removeHostAdminById } from "~/services/branding/admins-page.server";
export { parseSubmission } from "~/services/platform/form-limits.server";
export { readForm } from "~/services/platform/http.server";
export { requireSameOrigin } from "~/services/platform/request-context.server";
