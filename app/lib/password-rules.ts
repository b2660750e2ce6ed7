import type { MessageKey } from "./i18n";

/**
 * Password limits, shared by the pages (HTML attributes) and the server's schemas in
 * services/auth/password-forms.server.ts. No zod here: this module reaches the browser.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** The numbers the password messages mention (`{min}`, `{max}`). */
export const PASSWORD_PARAMS = { min: PASSWORD_MIN, max: PASSWORD_MAX };

/** The one answer to "forgot password", whether or not the email has a login. */
export const RESET_SENT_MESSAGE: MessageKey = "auth.reset.sent";
