/**
 * The front door to the services for the routes in app/routes/_portal+/payment-methods+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { accountNotFound } from "~/services/accounts/account-access.server";
export { hostnameFromRequest } from "~/services/host/host.server";
export {
  PAYMENT_METHOD_NOTICES,
  type PaymentMethodNotice,
  requirePaymentMethodsPage,
} from "~/services/payment-methods/payment-methods-page.server";
export {
  findBankAccount,
  findCard,
  listBankAccounts,
  listCards,
  newAuthorityReference,
  removeBankAccount,
  removeCard,
  saveBankAccount,
  saveCard,
  setDefaultCard,
  updateCard,
} from "~/services/payment-methods/payment-methods.server";
export { agreementFormSchema } from "~/services/payments/payto/agreement-request.server";
export { cancelAgreement, createAgreement, getAgreement } from "~/services/payments/payto/agreements.server";
export { agreementLabel, payToLimitText, payToSection } from "~/services/payments/payto/payto-page.server";
export { payToConfigurationOf } from "~/services/payments/payto/settings.server";
export { getEnv } from "~/services/platform/env.server";
export { parseSubmission } from "~/services/platform/form-limits.server";
export { readForm } from "~/services/platform/http.server";
export { requireSameOrigin } from "~/services/platform/request-context.server";
export { pageDates } from "~/services/host/language.server";
