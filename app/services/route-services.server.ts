/**
 * What the route modules (and root.tsx) use from the services, re-exported from one place.
 *
 * Why one module: Remix's classic compiler replaces every `.server` module with an empty CommonJS
 * module in the browser bundle, keeps it (esbuild cannot know that it has no side effects), and
 * gives each one a chunk of its own. The pay page downloaded 12 of these empty chunks, each a
 * request on HTTP/1.1. Imported through this single path, they are one (decision 054).
 *
 * A route imports only from here (ESLint's no-restricted-imports says so); services import each
 * other directly. A name two services export is re-exported under a prefixed name.
 */
export { isUuid } from "~/lib/ids";
export {
  ACCOUNT_SORTS,
  accountNotFound,
  getAccountTiles,
  getFeatureToggles,
  listAccountContacts,
  listContactAccounts,
  listStatementLines,
  noAccounts,
  requireAccountAccess,
  requireApiAccountAccess,
  resolveSelectedAccount,
  searchAccounts,
  STATEMENT_SORTS,
  STATEMENT_TYPES,
} from "./accounts/accounts.server";
export {
  CUSTOMER_HOME_PATH,
  customerMenuFor,
  HOME_ACCOUNTS_PAGE,
  listAdhocAccounts,
  listRecentReceipts,
  listRequestsForContact,
} from "./accounts/customer-home.server";
export { requireAccountPage, requireCustomerAccountPage } from "./accounts/portal.server";
export {
  agreementByLink,
  agreementBySession,
  agreementDownload,
  agreementView as agreementPageAgreementView,
  decideAction,
  isAgreementReference,
} from "./agreements/agreement-page.server";
export {
  createAgreementDocument,
  createAgreementOffer,
  publishAgreementVersion,
  resendAgreementOffer,
  withdrawAgreementOffer,
} from "./agreements/commands.server";
export {
  agreementHref,
  getAgreementDocument,
  getAgreementOffer,
  HOME_AGREEMENTS,
  homeAgreementItems,
  listAgreementDocuments,
  listAgreementOffers,
  listOffersFor,
} from "./agreements/queries.server";
export { hasPortalAccess, isHostAdmin } from "./auth/access.server";
export { peekToken } from "./auth/auth-tokens.server";
export {
  AUTH0_CALLBACK_PATH,
  auth0StrategyFor,
  authenticatorFor,
  callbackCookie,
  getPageContext,
  pageNotFound,
  requireApiPortalAccess,
  requireApiSession,
  requirePageAccess,
  requireSession,
  SignInError,
  stateCookieNames,
} from "./auth/auth.server";
export { csrfTokenFor, csrfTokenMatches } from "./auth/csrf.server";
export {
  changePassword,
  checkResetToken,
  confirmEmail,
  requestPasswordReset,
  resetPassword,
  sendVerificationMail,
} from "./auth/password-flows.server";
export {
  ChangePasswordSchema,
  EmailSchema,
  NewPasswordSchema,
  requestResetFromForm,
  ResetPasswordSchema,
} from "./auth/password-forms.server";
export { createSession, updateSessionData } from "./auth/session.server";
export { signOut } from "./auth/sign-out.server";
export {
  answer,
  apiProblem,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
} from "./backoffice/api.server";
export { changeContactPermission, getContactPermissions } from "./backoffice/contact-permissions.server";
export {
  brandAdminView,
  findBrandVersionOf,
  publishBrandDraft,
  readBrandAdminForm,
  requireHostAdminPage,
  restoreBrand,
  saveBrandDraft,
  startBrandPreview,
  stopBrandPreview,
  themeSwatches,
} from "./branding/admin-page.server";
export { brandCss } from "./branding/brand-css.server";
export {
  preferencesByLink,
  preferencesBySession,
  saveByLink,
  saveBySession,
  unsubscribeAction,
  unsubscribeIntentOf,
  unsubscribePage,
} from "./communication/preference-page.server";
export { getContactCommunication, recordContactCommunication } from "./communication/preferences-api.server";
export {
  decideCreditApplication,
  getCreditApplication,
  listCreditApplications,
  listTradeReferences,
  readCreditDocument,
  resendTradeReference,
} from "./credit/credit-backoffice.server";
export {
  checkView,
  CREDIT_PAGE_HEADERS,
  documentsAction,
  type DocumentsReply,
  documentsView,
  startAction,
  startView,
  stepAction,
  stepView,
  submitAction,
  submittedView,
  termsAction,
  type TermsReply,
  termsView,
} from "./credit/credit-pages.server";
export { creditDocumentReader } from "./credit/document-read.server";
export { refereeAction, refereePage, requireRefereeLink } from "./credit/trade-reference-page.server";
export { findHostBranding, hostnameFromRequest, normalizeHostname, toBootstrap } from "./host/host.server";
export { languageFromToggles, requestLanguage, serializeLanguageCookie } from "./host/language.server";
export { loadLegalPage } from "./host/legal.server";
export { requireHostBranding, serviceUnavailable } from "./host/tenant.server";
export { findLinkedInvoice } from "./links/invoice-links.server";
export { LINK_PAGE_HEADERS, linkInvalid } from "./links/link-pages.server";
export { browserUsedLink, checkLinkAccess, recordLinkOpened, rememberLinkInBrowser } from "./links/link-tokens.server";
export { businessContact, closedReason, loadPayerRequest, paymentRequestOf } from "./links/request-links.server";
export { closedView, openView, requestInvoiceView, requestPayAction, toReceipt } from "./links/request-page.server";
export {
  bankAccountJson,
  cardJson,
  gatewayContextForApi,
  parseSaveBankAccount,
  parseSaveCard,
  parseUpdateCard,
  readPaymentMethodCall,
  readRemovalCall,
  refusalError,
  requireApiPaymentAccount,
  validationError,
} from "./payment-methods/payment-methods-api.server";
export {
  PAYMENT_METHOD_NOTICES,
  type PaymentMethodNotice,
  requirePaymentMethodsPage,
} from "./payment-methods/payment-methods-page.server";
export {
  findBankAccount,
  findCard,
  gatewayContextFrom,
  listBankAccounts,
  listCards,
  newAuthorityReference,
  removeBankAccount,
  removeCard,
  saveBankAccount,
  saveCard,
  setDefaultCard,
  updateCard,
} from "./payment-methods/payment-methods.server";
export {
  adhocPageData,
  checkAdhocLink,
  linkOffer,
  payAdhoc,
  requireAdhocAccount,
  signedInOffer,
} from "./payments/adhoc.server";
export { invoiceFacts } from "./payments/invoice-view.server";
export { findInvoice, findPaymentByReference, listInvoices, listPayments } from "./payments/invoices.server";
export {
  agreementView as payFormAgreementView,
  expectedTotal,
  finishPayment,
  priorAnswer,
  readyToPay,
  resolvePayMethod,
  startPayReply,
  typedAmount,
} from "./payments/pay-form.server";
export { loadPayable, previewPayment } from "./payments/payable.server";
export { PAYABLE_STATUSES, type PaymentOutcome } from "./payments/payment-records.server";
export { reconcilePayment } from "./payments/reconcile.server";
export { checkPayToAgreement, findPaymentByGuid, submitPayment } from "./payments/submit.server";
export { agreementFormSchema, parseTokenRequest } from "./payments/payto/agreement-request.server";
export { cancelAgreement, createAgreement, getAgreement } from "./payments/payto/agreements.server";
export { getPayToProvider } from "./payments/payto/index.server";
export { getAccountPayId } from "./payments/payto/payids.server";
export { agreementLabel, payToLimitText, payToSection } from "./payments/payto/payto-page.server";
export { invoicesOfAccount, payToChoices } from "./payments/payto/payto-payments.server";
export {
  asSandboxPayTo,
  type BankAgreement,
  type PayerAction,
  type PayerActionResult,
  payerKeysFromInput,
  type SandboxPayTo,
} from "./payments/payto/sandbox-provider.server";
export { getPayToConfiguration, payToConfigurationOf } from "./payments/payto/settings.server";
export { receiveWebhook } from "./payments/payto/webhook.server";
export { parseFilter, parseFlag, parseIsoDate, parseSort, requireSkipTake } from "./platform/api-query.server";
export { audit } from "./platform/audit.server";
export { processBackgroundWork } from "./jobs/background.server";
export { CLIENT_LOG_MAX_BYTES, clientLogLimits, parseClientLog, writeClientLog } from "./platform/client-log.server";
export { now } from "./platform/clock.server";
export { getDb } from "./platform/database.server";
export { getEnv } from "./platform/env.server";
export { checkHealth } from "./platform/heartbeat.server";
export {
  apiError,
  apiJson,
  attachmentDisposition,
  methodNotAllowed,
  readApiBody,
  readCapped,
  readForm,
} from "./platform/http.server";
export { parseSubmission } from "./platform/form-limits.server";
export { logger } from "./platform/logger.server";
export { consume, TOKEN_CHECKS } from "./platform/rate-limit.server";
export { clientAddress, requestOrigin, requireSameOrigin } from "./platform/request-context.server";
export { moveTestClock, readTestClock, requireTestClock } from "./platform/test-clock.server";
export { revokeAdhocLinks, sendAdhocLink } from "./requests/adhoc-links.server";
export {
  cancelPaymentRequest,
  createPaymentRequest,
  getPaymentRequest,
  listPaymentRequests,
  markPaymentRequestOpened,
  remindPaymentRequest,
  sendPaymentRequest,
} from "./requests/payment-requests.server";
export { invalid } from "./requests/problems.server";
export { answerAction, completeView, questionView, responseByLink } from "./responses/response-page.server";
export {
  createResponseRequest,
  getResponseRequest,
  listResponseRequests,
  resendResponseRequest,
  withdrawResponseRequest,
} from "./responses/responses.server";
export {
  acceptAction,
  acceptanceByLink,
  acceptanceSignedIn,
  changeAction,
  payAction,
  progressByLink,
  progressSignedIn,
  requireSignedInSchedule,
  rescueAction,
} from "./schedules/schedule-pages.server";
export { cancelSchedule, proposeSchedule, sendSchedule, withdrawSchedule } from "./schedules/commands.server";
export { getSchedule, listSchedules, listSchedulesForHome } from "./schedules/queries.server";
