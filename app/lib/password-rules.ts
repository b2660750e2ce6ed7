import { z } from "zod";

/**
 * New passwords: long enough to resist guessing, any characters at all (spaces, %, +, &,
 * emoji), because length matters and composition rules do not (NIST SP 800-63B 5.1.1).
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

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

/** The one answer to "forgot password", whether or not the email has a login. */
export const RESET_SENT_MESSAGE =
  "If that email belongs to a portal login, a reset link is on its way. It works once, for 30 minutes. Check your spam folder if it hasn't arrived in a few minutes.";
