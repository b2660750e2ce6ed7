import { z } from "zod";
import { parseFields, type FieldErrors } from "~/lib/form-errors";
import type { MessageKey } from "~/lib/i18n";
import { PASSWORD_MAX, PASSWORD_MIN, RESET_SENT_MESSAGE } from "~/lib/password-rules";
import type { HostBranding } from "../host/host.server";
import { requestLanguage } from "../host/language.server";
import { requestPasswordReset } from "./password-flows.server";
import type { PortalSession } from "./session.server";
import { API_BODY_TEXT_MAX } from "../platform/http.server";

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

/**
 * POST /api/sample/forgot-change {token, email, password} (spec §7), its problems in that order,
 * each answered with the spec's and the pages' messages. The token and the password as sent
 * are bounded by the body alone (API_BODY_TEXT_MAX), so that every one reaches the check it
 * always reached: a long token is told it has expired (and counts against the token checks),
 * a long password that is not URL-encoded is told so. Spec §5: in JSON the password arrives
 * URL-encoded and is decoded here; in a form, the form's encoding is that encoding, already undone.
 */
const MISSING_TOKEN = "Missing token";
const NO_PASSWORD = "Enter a new password.";
const resetPasswordCall = (password: z.ZodType<string, z.ZodTypeDef, unknown>) =>
  z.object({
    token: z
      .string({ required_error: MISSING_TOKEN, invalid_type_error: MISSING_TOKEN })
      .min(1, MISSING_TOKEN)
      .max(API_BODY_TEXT_MAX, MISSING_TOKEN),
    email: EmailSchema,
    password,
  });
const SentPassword = z
  .string({ required_error: NO_PASSWORD, invalid_type_error: NO_PASSWORD })
  .max(API_BODY_TEXT_MAX, NO_PASSWORD);
const ResetPasswordFormCallSchema = resetPasswordCall(SentPassword.pipe(NewPasswordSchema));
const ResetPasswordJsonCallSchema = resetPasswordCall(
  SentPassword.transform((password, ctx) => {
    try {
      return decodeURIComponent(password);
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "The password must be URL-encoded (spec §5)." });
      return z.NEVER;
    }
  }).pipe(NewPasswordSchema),
);

/** The forgot-change call's schema for a body sent as JSON (the password URL-encoded) or as a form. */
export const resetPasswordCallSchema = (sentAs: "json" | "form") =>
  sentAs === "json" ? ResetPasswordJsonCallSchema : ResetPasswordFormCallSchema;

export type ResetRequestResult = { status: number; errors: FieldErrors; sent: boolean; message: MessageKey | null };

/**
 * The forgot-password request of a page form (/auth/password signed out, /auth/password/reset
 * without a token): the same sentence whether or not the email has a login (decision 012). The
 * email goes out in the language the page is shown in.
 */
export async function requestResetFromForm(
  request: Request,
  form: FormData,
  context: { branding: HostBranding; session: PortalSession | null },
): Promise<ResetRequestResult> {
  const parsed = parseFields(ResetRequestSchema, form, ["email"]);
  if (!parsed.ok) return { status: 400, errors: parsed.errors, sent: false, message: null };
  const { branding, session } = context;
  const { language } = await requestLanguage(request, branding.businessId, session?.data.selectedAccount);
  const result = await requestPasswordReset(branding, parsed.value.email, request, language);
  if (!result.ok) return { status: result.status, errors: {}, sent: false, message: result.message };
  return { status: 200, errors: {}, sent: true, message: RESET_SENT_MESSAGE };
}
