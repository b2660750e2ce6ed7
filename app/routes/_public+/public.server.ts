/**
 * The front door to the services for the routes in app/routes/_public+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { isHostAdmin } from "~/services/auth/access.server";
export { getPageContext } from "~/services/auth/auth.server";
export { brandCss } from "~/services/branding/brand-css.server";
export { emailLogoPng } from "~/services/branding/email-logo.server";
export { preferencesBySession, saveBySession } from "~/services/communication/preference-page.server";
export { serializeLanguageCookie } from "~/services/host/language.server";
export { EMAIL_LOGO_FILE } from "~/services/host/host.server";
export { loadLegalPage } from "~/services/host/legal.server";
export { messagesFileNamed } from "~/services/host/messages-file.server";
export { requireHostBranding, serviceUnavailable } from "~/services/host/tenant.server";
export { businessContact } from "~/services/links/request-links.server";
export { getDb } from "~/services/platform/database.server";
export { checkHealth } from "~/services/platform/heartbeat.server";
export { readForm } from "~/services/platform/http.server";
export { logger } from "~/services/platform/logger.server";
export { requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
