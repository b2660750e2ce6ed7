/**
 * The front door to the services for the routes in app/routes/sandbox+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { getPayToProvider } from "~/services/payments/payto/index.server";
export {
  asSandboxPayTo,
  type BankAgreement,
  type PayerAction,
  type PayerActionResult,
  payerKeysFromInput,
  type SandboxPayTo,
} from "~/services/payments/payto/sandbox-provider.server";
export { readForm } from "~/services/platform/http.server";
export { requireSameOrigin } from "~/services/platform/request-context.server";
