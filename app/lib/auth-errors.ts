/**
 * Sign-in error codes (spec §8 and our own) as sentences a person can act on. The sign-in
 * page shows the sentence, never the code. Unknown codes get the generic sentence, so a
 * crafted `?error=` can only ever pick one of these texts.
 */
const CONFIGURATION = "Sign-in isn't set up correctly for this portal yet. Please contact the business and try again later.";

export const SIGN_IN_ERRORS: Record<string, string> = {
  CredentialsSignin: "That email and password don't match. Check them and try again.",
  SessionRequired: "Please sign in to continue.",
  SessionExpired: "Your session has ended. Please sign in again.",
  RateLimited: "Too many attempts. Please wait 15 minutes and try again, or reset your password.",
  AccessDenied: "Sign-in was cancelled. You can try again when you're ready.",
  OAuthCallback: "We couldn't complete sign-in with your identity provider. Please try again.",
  OAuthSignin: "We couldn't start sign-in with your identity provider. Please try again.",
  TokenInvalid: "We couldn't verify your sign-in. Please try again.",
  NoContact: "You signed in, but that login isn't linked to any contact on this portal. Ask the business to give you access.",
  Disabled: "This login has been disabled. Please contact the business.",
  PasswordChanged: "Your password was changed. Please sign in with your new password.",
  ResetDone: "Your password has been reset. Sign in with your new password.",
  Configuration: CONFIGURATION,
  MISSING_NEXTAUTH_API_ROUTE_ERROR: CONFIGURATION,
  NO_SECRET: CONFIGURATION,
  CALLBACK_CREDENTIALS_HANDLER_ERROR: CONFIGURATION,
  EMAIL_REQUIRES_ADAPTER_ERROR: CONFIGURATION,
  MISSING_ADAPTER_METHODS_ERROR: CONFIGURATION,
  CALLBACK_CREDENTIALS_JWT_ERROR: "We couldn't keep you signed in. Please sign in again.",
  INVALID_CALLBACK_URL_ERROR: "That sign-in link pointed somewhere we can't send you. You'll go to the home page instead.",
};

/** Codes that are good news or neutral, shown as a notice rather than an error. */
export const SIGN_IN_NOTICES = new Set(["PasswordChanged", "ResetDone", "SessionRequired"]);

export const GENERIC_SIGN_IN_ERROR = "Sign-in didn't work. Please try again.";

export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code]! : GENERIC_SIGN_IN_ERROR;
}
