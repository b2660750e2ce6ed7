/**
 * The front door to the services for the routes in app/routes/_link+/customer.invoices-and-payments+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { accountNotFound } from "~/services/accounts/account-access.server";
export { requireCustomerAccountPage } from "~/services/accounts/portal.server";
export { hasPortalAccess } from "~/services/auth/access.server";
export { getPageContext } from "~/services/auth/auth.server";
export { updateSessionData } from "~/services/auth/session.server";
export { findLinkedInvoice } from "~/services/links/invoice-links.server";
export { invoiceLinkContext } from "~/services/links/invoice-link-page.server";
export { LINK_PAGE_HEADERS, linkInvalid } from "~/services/links/link-pages.server";
export { checkLinkAccess, recordLinkOpened, rememberLinkInBrowser } from "~/services/links/link-tokens.server";
export { businessContact } from "~/services/links/request-links.server";
export { gatewayContextFrom, listCards } from "~/services/payment-methods/payment-methods.server";
export { invoicePdf } from "~/services/documents/invoice-pdf.server";
export { pdfBrand } from "~/services/documents/pdf-brand.server";
export { pdfFileName, pdfResponse } from "~/services/documents/pdf-pages.server";
export { publicLink } from "~/services/host/host.server";
export { invoiceFacts, signedInInvoiceView } from "~/services/payments/invoice-view.server";
export { findInvoice, listInvoices, listPayments } from "~/services/payments/invoices.server";
export {
  confirmOrPay,
  heldChoice,
  finishPayment,
  agreementView,
  priorAnswer,
  readyToPay,
  resolvePayMethod,
  startPayReply,
  typedAmount,
} from "~/services/payments/pay-form.server";
export { loadPayable, payNowChoice, previewPayment } from "~/services/payments/payable.server";
export { PAYABLE_STATUSES } from "~/services/payments/payment-records.server";
export { getAccountPayId } from "~/services/payments/payto/payids.server";
export { payToChoices } from "~/services/payments/payto/payto-payments.server";
export { payToConfigurationOf } from "~/services/payments/payto/settings.server";
export { submitPayment } from "~/services/payments/submit.server";
export { businessToday, now } from "~/services/platform/clock.server";
export { readForm } from "~/services/platform/http.server";
export { clientAddress, requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
export { pageDates, pageLanguage } from "~/services/host/language.server";
