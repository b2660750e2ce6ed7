/**
 * The front door to the services for the routes in app/routes/api+/payTo+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { requireApiAccountAccess } from "~/services/accounts/account-access.server";
export { requireApiPortalAccess } from "~/services/auth/auth.server";
export { hostnameFromRequest } from "~/services/host/host.server";
export { requireHostBranding } from "~/services/host/tenant.server";
export { requireApiPaymentAccount } from "~/services/payment-methods/payment-methods-api.server";
export { gatewayContextFrom } from "~/services/payment-methods/payment-methods.server";
export { findPaymentByReference } from "~/services/payments/invoices.server";
export { loadPayable, previewPayment } from "~/services/payments/payable.server";
export type { PaymentOutcome } from "~/services/payments/payment-records.server";
export { parseTokenRequest } from "~/services/payments/payto/agreement-request.server";
export { createAgreement } from "~/services/payments/payto/agreements.server";
export { getAccountPayId } from "~/services/payments/payto/payids.server";
export { invoicesOfAccount } from "~/services/payments/payto/payto-payments.server";
export { getPayToConfiguration, payToConfigurationOf } from "~/services/payments/payto/settings.server";
export { receiveWebhook } from "~/services/payments/payto/webhook.server";
export { checkPayToAgreement, findPaymentByGuid, submitPayment } from "~/services/payments/submit.server";
export { getEnv } from "~/services/platform/env.server";
export { apiError, apiJson, methodNotAllowed, readApiBody, readCapped } from "~/services/platform/http.server";
export { logger } from "~/services/platform/logger.server";
export { problemBody } from "~/services/platform/problems.server";
export { clientAddress, requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
export { businessToday } from "~/services/platform/clock.server";
