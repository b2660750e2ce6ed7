/**
 * The front door to the services for the routes in app/routes/_link+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { getPageContext } from "~/services/auth/auth.server";
export {
  preferencesByLink,
  saveByLink,
  unsubscribeAction,
  unsubscribeIntentOf,
  unsubscribePage,
} from "~/services/communication/preference-page.server";
export { refereeAction, refereePage, requireRefereeLink } from "~/services/credit/trade-reference-page.server";
export { LINK_PAGE_HEADERS, linkInvalid } from "~/services/links/link-pages.server";
export { checkLinkAccess, recordLinkOpened, rememberLinkInBrowser } from "~/services/links/link-tokens.server";
export { closedReason, loadPayerRequest } from "~/services/links/request-links.server";
export {
  closedView,
  openView,
  payerRequestInvoice,
  requestInvoiceView,
  requestPayAction,
  toReceipt,
} from "~/services/links/request-page.server";
export { receiptByLink } from "~/services/payments/receipt-page.server";
export { receiptTokenShape } from "~/services/payments/receipt-links.server";
export { readForm } from "~/services/platform/http.server";
export { clientAddress, requireSameOrigin } from "~/services/platform/request-context.server";
export { markPaymentRequestOpened } from "~/services/requests/commands.server";
export { answerAction, completeView, questionView, responseByLink } from "~/services/responses/response-page.server";
export { pageDates, pageLanguage } from "~/services/host/language.server";
export { invoicePdf } from "~/services/documents/invoice-pdf.server";
export { receiptFileName, receiptHasPdf, receiptPdf } from "~/services/documents/receipt-pdf.server";
export { pdfBrand } from "~/services/documents/pdf-brand.server";
export { pdfFileName, pdfResponse } from "~/services/documents/pdf-pages.server";
export { accountNotFound } from "~/services/accounts/account-access.server";
