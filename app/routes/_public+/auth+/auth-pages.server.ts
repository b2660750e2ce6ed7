/**
 * The front door to the services for the routes in app/routes/_public+/auth+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { peekToken } from "~/services/auth/auth-tokens.server";
export {
  auth0StrategyFor,
  authenticatorFor,
  getPageContext,
  requireSession,
  SignInError,
} from "~/services/auth/auth.server";
export {
  changePassword,
  checkResetToken,
  confirmEmail,
  resetPassword,
  sendVerificationMail,
} from "~/services/auth/password-flows.server";
export { ChangePasswordSchema, requestResetFromForm, ResetPasswordSchema } from "~/services/auth/password-forms.server";
export { signOut } from "~/services/auth/sign-out.server";
export { beginAuth0, finishSignIn } from "~/services/auth/sign-in.server";
export { requestLanguage } from "~/services/host/language.server";
export { readForm } from "~/services/platform/http.server";
export { requestOrigin, requireSameOrigin } from "~/services/platform/request-context.server";
