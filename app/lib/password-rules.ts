/**
 * Password limits, shared by the forms' HTML attributes (browser) and the zod schemas
 * (app/services/password-forms.server.ts). No zod here: this module reaches the browser.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** The one answer to "forgot password", whether or not the email has a login. */
export const RESET_SENT_MESSAGE =
  "If that email belongs to a portal login, a reset link is on its way. It works once, for 30 minutes. Check your spam folder if it hasn't arrived in a few minutes.";
