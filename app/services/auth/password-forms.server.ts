import { z } from "zod";
import type { MessageKey } from "~/lib/i18n";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/password-rules";

/**
 * The zod schemas of the password forms and API calls, on the server side on purpose: a
 * schema built at the top of a route module (or of a module in app/lib that a page imports
 * for anything else) is a call the client bundle cannot drop, so it shipped zod (≈14 KB gzip)
 * to the browser on the password pages (docs/performance.md). The browser gets the limits as
 * HTML attributes instead. The messages are message keys: pages translate them, the JSON API
 * gives the English.
 */
const key = (message: MessageKey) => message;

/**
 * New passwords: long enough to resist guessing, any characters at all (spaces, %, +, &,
 * emoji), because length matters and composition rules do not (NIST SP 800-63B 5.1.1).
 */
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

/** Change password (/auth/password): the current one, and the new one twice. */
export const ChangePasswordSchema = z
  .object({
    oldPassword: z
      .string({ required_error: key("auth.form.currentPasswordRequired") })
      .min(1, key("auth.form.currentPasswordRequired"))
      .max(1024),
    newPassword: NewPasswordSchema,
    confirm: z.string({ required_error: key("auth.form.confirmRequired") }).max(PASSWORD_MAX),
  })
  .refine((value) => value.newPassword === value.confirm, { path: ["confirm"], message: key("auth.form.mismatch") });

/** Forgot password, first step: the email to send the link to. */
export const ResetRequestSchema = z.object({ email: EmailSchema });

/** Forgot password, second step (from the emailed link): the new password twice. */
export const ResetPasswordSchema = z
  .object({
    email: EmailSchema,
    token: z
      .string({ required_error: key("auth.form.linkIncomplete") })
      .min(1, key("auth.form.linkIncomplete"))
      .max(100),
    password: NewPasswordSchema,
    confirm: z.string({ required_error: key("auth.form.confirmRequired") }).max(PASSWORD_MAX),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], message: key("auth.form.mismatch") });
