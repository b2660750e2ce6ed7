/**
 * The front door to the services for the routes in app/routes/_portal+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export {
  getAccountTiles,
  listAccountContacts,
  listStatementLines,
  searchAccounts,
} from "~/services/accounts/accounts.server";
export { noAccounts, requireAccountAccess } from "~/services/accounts/account-access.server";
export { AGEING_BANDS, getAgeing } from "~/services/accounts/ageing.server";
export { getStatementPeriod, statementLinesInOrder } from "~/services/accounts/statement-period.server";
export { pdfBrand } from "~/services/documents/pdf-brand.server";
export { pdfFileName, pdfResponse } from "~/services/documents/pdf-pages.server";
export { statementPdf } from "~/services/documents/statement-pdf.server";
export { CUSTOMER_HOME_PATH } from "~/services/accounts/customer-home.server";
export { requireAccountPage } from "~/services/accounts/portal.server";
export { hasPortalAccess } from "~/services/auth/access.server";
export { getPageContext, requirePageAccess } from "~/services/auth/auth.server";
export { updateSessionData } from "~/services/auth/session.server";
export { pageDates, pageLanguage, requestLanguage } from "~/services/host/language.server";
export { payNowChoice, payNowHref } from "~/services/payments/payable.server";
export { getAccountPayId } from "~/services/payments/payto/payids.server";
export { businessToday, now } from "~/services/platform/clock.server";
export { readForm } from "~/services/platform/http.server";
export { requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
