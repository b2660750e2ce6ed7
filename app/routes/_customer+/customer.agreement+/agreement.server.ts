/**
 * The front door to the services for the routes in app/routes/_customer+/customer.agreement+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { resolveSelectedAccount } from "~/services/accounts/account-access.server";
export { agreementBySession, agreementDownload, agreementView } from "~/services/agreements/agreement-page.server";
export { agreementHref, listOffersFor } from "~/services/agreements/queries.server";
export { hasPortalAccess } from "~/services/auth/access.server";
export { agreementPdfDownload } from "~/services/documents/pdf-pages.server";
export { requireSession } from "~/services/auth/auth.server";
export { updateSessionData } from "~/services/auth/session.server";
export { LINK_PAGE_HEADERS } from "~/services/links/link-pages.server";
export { pageDates } from "~/services/host/language.server";
