/**
 * The front door to the services for the routes in app/routes/api+/sample+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export {
  ACCOUNT_SORTS,
  getAccountTiles,
  getFeatureToggles,
  listAccountContacts,
  listContactAccounts,
  listStatementLines,
  searchAccounts,
  STATEMENT_SORTS,
  STATEMENT_TYPES,
} from "~/services/accounts/accounts.server";
export { requireApiAccountAccess } from "~/services/accounts/account-access.server";
export { getPageContext, requireApiPortalAccess } from "~/services/auth/auth.server";
export { requestPasswordReset, resetPassword } from "~/services/auth/password-flows.server";
export { ResetRequestSchema, resetPasswordCallSchema } from "~/services/auth/password-forms.server";
export { requireHostBranding } from "~/services/host/tenant.server";
export {
  bankAccountJson,
  cardJson,
  gatewayContextForApi,
  parseSaveBankAccount,
  parseSaveCard,
  parseUpdateCardCall,
  readPaymentMethodCall,
  readRemovalCall,
  refusalError,
  requireApiPaymentAccount,
  validationError,
} from "~/services/payment-methods/payment-methods-api.server";
export {
  findCard,
  listBankAccounts,
  listCards,
  removeBankAccount,
  removeCard,
  saveBankAccount,
  saveCard,
  updateCard,
} from "~/services/payment-methods/payment-methods.server";
export { parseFilter, parseFlag, parseIsoDate, parseSort, requireSkipTake } from "~/services/platform/api-query.server";
export { now } from "~/services/platform/clock.server";
export { getDb } from "~/services/platform/database.server";
export { apiError, apiJson, methodNotAllowed, readApiBody } from "~/services/platform/http.server";
export { requireSameOrigin } from "~/services/platform/request-context.server";
