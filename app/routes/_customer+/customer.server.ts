/**
 * The front door to the services for the routes in app/routes/_customer+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { accountNotFound, requireAccountAccess } from "~/services/accounts/account-access.server";
export {
  HOME_ACCOUNTS_PAGE,
  listAdhocAccounts,
  listRecentReceipts,
  listRequestsForContact,
} from "~/services/accounts/customer-home.server";
export {
  agreementByLink,
  agreementBySession,
  agreementDownload,
  agreementView,
  decideAction,
  isAgreementReference,
} from "~/services/agreements/agreement-page.server";
export { HOME_AGREEMENTS, homeAgreementItems, listOffersFor } from "~/services/agreements/queries.server";
export { hasPortalAccess } from "~/services/auth/access.server";
export { getPageContext, requirePageAccess, requireSession } from "~/services/auth/auth.server";
export { updateSessionData } from "~/services/auth/session.server";
export { LINK_PAGE_HEADERS, linkInvalid } from "~/services/links/link-pages.server";
export { recordLinkOpened, rememberLinkInBrowser } from "~/services/links/link-tokens.server";
export { receiptForPage } from "~/services/links/receipt-page.server";
export { businessContact, closedReason, loadPayerRequest } from "~/services/links/request-links.server";
export {
  closedView,
  openView,
  requestInvoiceView,
  requestPayAction,
  toReceipt,
} from "~/services/links/request-page.server";
export {
  adhocPageData,
  adhocPayToReturn,
  adhocSignInReturn,
  checkAdhocLink,
  linkOffer,
  payAdhoc,
  requireAdhocAccount,
  signedInOffer,
} from "~/services/payments/adhoc.server";
export {
  HOME_INVOICES,
  listPayableInvoicesForContact,
  payableInvoiceAccount,
} from "~/services/payments/contact-invoices.server";
export { getAccountPayId } from "~/services/payments/payto/payids.server";
export { payToConfigurationOf } from "~/services/payments/payto/settings.server";
export { readForm } from "~/services/platform/http.server";
export { clientAddress, requireSameOrigin } from "~/services/platform/request-context.server";
export { listSchedulesForHome } from "~/services/schedules/queries.server";
export {
  acceptAction,
  acceptanceByLink,
  acceptanceSignedIn,
  requireSignedInSchedule,
} from "~/services/schedules/schedule-pages.server";
export { businessToday } from "~/services/platform/clock.server";
export { pageDates, pageLanguage } from "~/services/host/language.server";
export { pdfBrand } from "~/services/documents/pdf-brand.server";
export { agreementPdfDownload, pdfResponse } from "~/services/documents/pdf-pages.server";
export { receiptFileName, receiptHasPdf, receiptPdf } from "~/services/documents/receipt-pdf.server";
