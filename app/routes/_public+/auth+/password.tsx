import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { NewPasswordFields, NoPortalPasswords, ResetRequestForm } from "./components/PasswordFields";
import { useT, withElements } from "~/components/useT";
import { parseFields, type FieldErrors } from "~/lib/form-errors";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { PASSWORD_PARAMS } from "~/lib/password-rules";
import {
  ChangePasswordSchema,
  requestResetFromForm,
  getPageContext,
  requireSession,
  changePassword,
  readForm,
  requireSameOrigin,
} from "./auth-pages.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * /auth/password (spec §2: public; §7 update-password). Signed in: change the password (the
 * current one, the new one twice). Signed out: ask for a reset link, as /auth/password/reset
 * does. Each form says which it is (`intent`), so a change form posted after the session ended
 * goes to sign-in rather than being taken for something else.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await getPageContext(request);
  if (!session) {
    return {
      businessName: branding.businessName,
      mode: branding.authProvider === "credentials" ? ("request" as const) : ("external" as const),
      email: "",
      external: false,
    };
  }
  return {
    businessName: branding.businessName,
    mode: "change" as const,
    email: session.contact.email,
    external: session.authMethod === "auth0",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const context = await getPageContext(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "request" && context.branding.authProvider === "credentials") {
    const { status, errors, sent, message } = await requestResetFromForm(request, form, context);
    return data({ intent, done: sent, errors, message }, { status });
  }
  if (intent === "change") {
    const { session } = await requireSession(request);
    const parsed = parseFields(ChangePasswordSchema, form, ["oldPassword", "newPassword", "confirm"]);
    if (!parsed.ok) return data({ intent, done: false, errors: parsed.errors, message: null }, { status: 400 });
    const result = await changePassword(session, parsed.value, request);
    if (!result.ok) {
      const errors: FieldErrors = result.field ? { [result.field]: result.message } : {};
      return data(
        { intent, done: false, errors, message: result.field ? null : result.message },
        { status: result.status },
      );
    }
    return data({ intent, done: true, errors: {} as FieldErrors, message: "auth.change.done" as MessageKey });
  }
  return data(
    { intent: null, done: false, errors: {} as FieldErrors, message: "auth.form.unknownRequest" as MessageKey },
    { status: 400 },
  );
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function PasswordPage() {
  const { businessName, mode, email, external } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const t = useT();
  const errors: Partial<FieldErrors> = result?.errors ?? {};
  const fieldError = (name: string) => (errors[name] ? t(errors[name], PASSWORD_PARAMS) : undefined);
  const message = result?.message ? (
    <FormMessage kind={result.done ? "notice" : "error"}>{t(result.message)}</FormMessage>
  ) : null;

  if (mode === "external") return <NoPortalPasswords businessName={businessName} />;
  if (mode === "request") {
    return (
      <>
        <h1>{t("auth.reset.title")}</h1>
        {message}
        <ResetRequestForm defaultEmail="" error={fieldError("email")} busy={busy} />
      </>
    );
  }
  if (external) {
    return (
      <>
        <h1>{t("auth.change.title")}</h1>
        <p>{t("auth.change.external")}</p>
        <p>
          <Link to="/">{t("auth.change.backToPortal")}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{t("auth.change.title")}</h1>
      <p>{withElements(t("auth.change.intro"), { email: <strong>{email}</strong> })}</p>
      {message}
      {/* A new form after success, so the browser does not keep the typed passwords. */}
      <Form method="post" className={formStyles.form} key={result?.done ? "done" : "form"}>
        <input type="hidden" name="intent" value="change" />
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          id="oldPassword"
          name="oldPassword"
          label={t("auth.field.currentPassword")}
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
          error={fieldError("oldPassword")}
        />
        <NewPasswordFields name="newPassword" error={fieldError("newPassword")} confirmError={fieldError("confirm")} />
        <div>
          <button type="submit" className={button} disabled={busy}>
            {t("auth.change.submit")}
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const change = data?.mode === "change";
  const title = metaTranslator(matches)(change ? "auth.change.title" : "auth.reset.metaTitle");
  return [
    { title: data ? `${title} · ${data.businessName}` : title },
    metaDescription(matches, change ? "meta.changePassword" : "meta.forgot", data?.businessName),
  ];
};
