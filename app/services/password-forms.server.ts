import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/password-rules";

/**
 * The zod schemas of the password forms and API calls. They live on the server side on
 * purpose: a schema built at the top of a route module (or of a module in app/lib) is a
 * function call the client bundle cannot drop, so it shipped zod (≈14 KB gzip) to the
 * browser on the password pages, over the per-route JavaScript budget
 * (docs/performance.md). The browser gets the limits as HTML attributes instead.
 */

/**
 * New passwords: long enough to resist guessing, any characters at all (spaces, %, +, &,
 * emoji), because length matters and composition rules do not (NIST SP 800-63B 5.1.1).
 */
export const NewPasswordSchema = z
  .string({ required_error: "Enter a new password." })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

export const EmailSchema = z
  .string({ required_error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .email("Enter an email address like name@example.com.");

/** Change password (/auth/password): the current one, and the new one twice. */
export const ChangePasswordSchema = z
  .object({
    oldPassword: z.string({ required_error: "Enter your current password." }).min(1, "Enter your current password.").max(1024),
    newPassword: NewPasswordSchema,
    confirm: z.string({ required_error: "Type the new password again." }).max(PASSWORD_MAX),
  })
  .refine((value) => value.newPassword === value.confirm, { path: ["confirm"], message: "The two passwords don't match." });

/** Forgot password, first step: the email to send the link to. */
export const ResetRequestSchema = z.object({ email: EmailSchema });

/** Forgot password, second step (from the emailed link): the new password twice. */
export const ResetPasswordSchema = z
  .object({
    email: EmailSchema,
    token: z.string({ required_error: "This reset link is incomplete." }).min(1, "This reset link is incomplete.").max(100),
    password: NewPasswordSchema,
    confirm: z.string({ required_error: "Type the new password again." }).max(PASSWORD_MAX),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], message: "The two passwords don't match." });
