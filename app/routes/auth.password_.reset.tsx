import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { useT, withElements } from "~/components/useT";
import { parseFields, type FieldErrors } from "~/lib/form-errors";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PARAMS, RESET_SENT_MESSAGE } from "~/lib/password-rules";
import { ResetPasswordSchema, ResetRequestSchema } from "~/services/auth/password-forms.server";
import { getPageContext } from "~/services/auth/auth.server";
import { checkResetToken, requestPasswordReset, resetPassword } from "~/services/auth/password-flows.server";
import { readForm } from "~/services/platform/http.server";
import { requestLanguage } from "~/services/host/language.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

/**
 * Forgot password (spec §7 forgot-send / forgot-change, §2 /auth/password/reset): without
 * a token, ask for the email; with one (from the email), choose a new password.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const email = url.searchParams.get("email") ?? "";
  if (branding.authProvider !== "credentials") {
    return {
      businessName: branding.businessName,
      mode: "external" as const,
      token: null,
      email: "",
      tokenValid: false,
    };
  }
  if (token === null) {
    return { businessName: branding.businessName, mode: "request" as const, token: null, email: "", tokenValid: false };
  }
  const live = await checkResetToken(branding, token);
  return {
    businessName: branding.businessName,
    mode: "reset" as const,
    token,
    email: email.slice(0, 254),
    tokenValid: live !== null && live.email === email.trim().toLowerCase(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await getPageContext(request);
  const form = await readForm(request);
  const none: FieldErrors = {};
  const intent = form.get("intent");
  if (intent === "request") {
    const parsed = parseFields(ResetRequestSchema, form, ["email"]);
    if (!parsed.ok) return data({ intent, errors: parsed.errors, sent: false, message: null }, { status: 400 });
    // The email goes out in the language the page is shown in.
    const { language } = await requestLanguage(request, branding.businessId, session?.data.selectedAccount);
    const result = await requestPasswordReset(branding, parsed.value.email, request, language);
    if (!result.ok)
      return data({ intent, errors: none, sent: false, message: result.message }, { status: result.status });
    return data({ intent, errors: none, sent: true, message: RESET_SENT_MESSAGE });
  }
  if (intent === "reset") {
    const parsed = parseFields(ResetPasswordSchema, form, ["email", "token", "password", "confirm"]);
    if (!parsed.ok) return data({ intent, errors: parsed.errors, sent: false, message: null }, { status: 400 });
    const result = await resetPassword(branding, parsed.value, request);
    if (!result.ok)
      return data({ intent, errors: none, sent: false, message: result.message }, { status: result.status });
    return redirect(`/auth/signin?${new URLSearchParams({ error: "ResetDone" })}`);
  }
  return data(
    { intent: null, errors: none, sent: false, message: "auth.form.unknownRequest" as MessageKey },
    { status: 400 },
  );
}

export default function PasswordReset() {
  const { businessName, mode, token, email, tokenValid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const t = useT();
  const errors: Partial<FieldErrors> = result?.errors ?? {};
  const fieldError = (name: string) => (errors[name] ? t(errors[name], PASSWORD_PARAMS) : undefined);

  if (mode === "external") {
    return (
      <>
        <h1>{t("auth.reset.title")}</h1>
        <p>
          {withElements(t("auth.reset.external", { businessName }), {
            signInAgain: <Link to="/auth/signin">{t("auth.reset.signInAgain")}</Link>,
          })}
        </p>
      </>
    );
  }

  if (mode === "reset" && tokenValid) {
    return (
      <>
        <h1>{t("auth.reset.chooseTitle")}</h1>
        {result?.message ? <FormMessage kind="error">{t(result.message)}</FormMessage> : null}
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="intent" value="reset" />
          <input type="hidden" name="token" value={token ?? ""} />
          <input type="hidden" name="email" value={email} />
          <p>{withElements(t("auth.reset.for"), { email: <strong>{email}</strong> })}</p>
          <Field
            id="password"
            name="password"
            label={t("auth.field.newPassword")}
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN}
            maxLength={PASSWORD_MAX}
            hint={t("auth.field.passwordHint", PASSWORD_PARAMS)}
            error={fieldError("password")}
          />
          <Field
            id="confirm"
            name="confirm"
            label={t("auth.field.newPasswordAgain")}
            type="password"
            autoComplete="new-password"
            required
            maxLength={PASSWORD_MAX}
            error={fieldError("confirm")}
          />
          <div>
            <button type="submit" className={button} disabled={busy}>
              {t("auth.reset.submit")}
            </button>
          </div>
        </Form>
      </>
    );
  }

  return (
    <>
      <h1>{t("auth.reset.title")}</h1>
      {mode === "reset" && !tokenValid ? <FormMessage kind="error">{t("auth.reset.expired")}</FormMessage> : null}
      {result?.message ? <FormMessage kind={result.sent ? "notice" : "error"}>{t(result.message)}</FormMessage> : null}
      <p>{t("auth.reset.intro")}</p>
      <Form method="post" className={formStyles.form}>
        <input type="hidden" name="intent" value="request" />
        <Field
          id="email"
          name="email"
          label={t("auth.field.email")}
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          defaultValue={mode === "reset" ? email : ""}
          error={fieldError("email")}
        />
        <div>
          <button type="submit" className={button} disabled={busy}>
            {t("auth.reset.send")}
          </button>
        </div>
      </Form>
      <p>
        <Link to="/auth/signin">{t("auth.signin.back")}</Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches)("auth.reset.metaTitle");
  return [{ title: data ? `${title} · ${data.businessName}` : title }];
};
