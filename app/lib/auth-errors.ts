import type { MessageKey } from "./i18n";

/**
 * Sign-in error codes (spec §8 and our own) as message keys of sentences a person can act
 * on. The sign-in page shows the sentence, never the code. Unknown codes get the generic
 * sentence, so a crafted `?error=` can only ever pick one of these texts.
 */
export const SIGN_IN_ERRORS: Record<string, MessageKey> = {
  CredentialsSignin: "auth.error.credentials",
  SessionRequired: "auth.error.sessionRequired",
  SessionExpired: "auth.error.sessionExpired",
  RateLimited: "auth.error.rateLimited",
  AccessDenied: "auth.error.accessDenied",
  OAuthCallback: "auth.error.oauthCallback",
  OAuthSignin: "auth.error.oauthSignin",
  TokenInvalid: "auth.error.tokenInvalid",
  NoContact: "auth.error.noContact",
  Disabled: "auth.error.disabled",
  PasswordChanged: "auth.error.passwordChanged",
  ResetDone: "auth.error.resetDone",
  Configuration: "auth.error.configuration",
  MISSING_NEXTAUTH_API_ROUTE_ERROR: "auth.error.configuration",
  NO_SECRET: "auth.error.configuration",
  CALLBACK_CREDENTIALS_HANDLER_ERROR: "auth.error.configuration",
  EMAIL_REQUIRES_ADAPTER_ERROR: "auth.error.configuration",
  MISSING_ADAPTER_METHODS_ERROR: "auth.error.configuration",
  CALLBACK_CREDENTIALS_JWT_ERROR: "auth.error.keepSignedIn",
  INVALID_CALLBACK_URL_ERROR: "auth.error.invalidCallback",
};

/** Codes that are good news or neutral, shown as a notice rather than an error. */
export const SIGN_IN_NOTICES = new Set(["PasswordChanged", "ResetDone", "SessionRequired"]);

export const GENERIC_SIGN_IN_ERROR: MessageKey = "auth.error.generic";

/** The message key for a sign-in error code, or null when there is none. */
export function signInErrorKey(code: string | null | undefined): MessageKey | null {
  if (!code) return null;
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code]! : GENERIC_SIGN_IN_ERROR;
}
