/**
 * The front door to the services for the routes in app/routes/admin+/branding+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { pageNotFound } from "~/services/auth/auth.server";
export {
  brandAdminView,
  discardBrandDraft,
  findBrandVersionOf,
  publishBrandDraft,
  readBrandAdminForm,
  requireHostAdminPage,
  restoreBrand,
  saveBrandDraft,
  startBrandPreview,
  stopBrandPreview,
  themeSwatches,
} from "~/services/branding/admin-page.server";
export { renderEmailPreview } from "~/services/branding/email-previews.server";
export { publicBaseUrl } from "~/services/host/host.server";
export { parseSubmission } from "~/services/platform/form-limits.server";
export { readForm } from "~/services/platform/http.server";
export { requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
// The brand preview of the pages contacts open from an email (decision 082): each domain builds its own.
export { agreementLinkPreview } from "~/services/agreements/agreement-page.server";
export { requestLinkPreview } from "~/services/links/request-page.server";
export { adhocLinkPreview } from "~/services/payments/adhoc.server";
export { scheduleLinkPreview } from "~/services/schedules/schedule-pages.server";
