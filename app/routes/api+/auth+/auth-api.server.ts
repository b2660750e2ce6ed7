/**
 * The front door to the services for the routes in app/routes/api+/auth+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export {
  AUTH0_CALLBACK_PATH,
  auth0StrategyFor,
  callbackCookie,
  getPageContext,
  requireApiSession,
  SignInError,
  stateCookieNames,
} from "~/services/auth/auth.server";
export { csrfTokenFor, csrfTokenMatches } from "~/services/auth/csrf.server";
export { changePassword, checkResetToken } from "~/services/auth/password-flows.server";
export { NewPasswordSchema } from "~/services/auth/password-forms.server";
export { createSession } from "~/services/auth/session.server";
export { SignOutBodySchema, signOut } from "~/services/auth/sign-out.server";
export { SIGN_IN_METHODS, signInApi } from "~/services/auth/sign-in.server";
export { requireHostBranding } from "~/services/host/tenant.server";
export { audit } from "~/services/platform/audit.server";
export {
  CLIENT_LOG_MAX_BYTES,
  clientLogLimits,
  parseClientLog,
  writeClientLog,
} from "~/services/platform/client-log.server";
export { apiError, apiJson, methodNotAllowed, readApiBody, readCapped } from "~/services/platform/http.server";
export { logger } from "~/services/platform/logger.server";
export { consume, TOKEN_CHECKS } from "~/services/platform/rate-limit.server";
export { clientAddress, requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
