import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import { NewPasswordFields, NoPortalPasswords, ResetRequestForm } from "./components/PasswordFields";
import { useT, withElements } from "~/components/useT";
import { parseFields, type FieldErrors } from "~/lib/form-errors";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { PASSWORD_PARAMS } from "~/lib/password-rules";
import {
  requestResetFromForm,
  ResetPasswordSchema,
  getPageContext,
  checkResetToken,
  resetPassword,
  readForm,
  requireSameOrigin,
} from "./auth-pages.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

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
  const context = await getPageContext(request);
  const { branding } = context;
  const form = await readForm(request);
  const none: FieldErrors = {};
  const intent = form.get("intent");
  if (intent === "request") {
    const { status, ...result } = await requestResetFromForm(request, form, context);
    return data({ intent, ...result }, { status });
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

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function PasswordReset() {
  const { businessName, mode, token, email, tokenValid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const t = useT();
  const errors: Partial<FieldErrors> = result?.errors ?? {};
  const fieldError = (name: string) => (errors[name] ? t(errors[name], PASSWORD_PARAMS) : undefined);

  if (mode === "external") return <NoPortalPasswords businessName={businessName} />;

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
          <NewPasswordFields name="password" error={fieldError("password")} confirmError={fieldError("confirm")} />
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
      <ResetRequestForm defaultEmail={mode === "reset" ? email : ""} error={fieldError("email")} busy={busy} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches)("auth.reset.metaTitle");
  return [
    { title: data ? `${title} · ${data.businessName}` : title },
    metaDescription(matches, "meta.resetPassword", data?.businessName),
  ];
};
