import { z } from "zod";
import type { MessageKey } from "./i18n";

/**
 * New passwords: long enough to resist guessing, any characters at all (spaces, %, +, &,
 * emoji), because length matters and composition rules do not (NIST SP 800-63B 5.1.1).
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** The numbers the password messages mention (`{min}`, `{max}`). */
export const PASSWORD_PARAMS = { min: PASSWORD_MIN, max: PASSWORD_MAX };

// The messages are message keys: pages translate them, the JSON API gives the English.
const key = (message: MessageKey) => message;

export const NewPasswordSchema = z
  .string({ required_error: key("auth.form.newPasswordRequired") })
  .min(PASSWORD_MIN, key("auth.form.passwordTooShort"))
  .max(PASSWORD_MAX, key("auth.form.passwordTooLong"));

export const EmailSchema = z
  .string({ required_error: key("auth.form.emailRequired") })
  .trim()
  .toLowerCase()
  .min(1, key("auth.form.emailRequired"))
  .max(254, key("auth.form.emailTooLong"))
  .email(key("auth.form.emailInvalid"));

/** The one answer to "forgot password", whether or not the email has a login. */
export const RESET_SENT_MESSAGE: MessageKey = "auth.reset.sent";
