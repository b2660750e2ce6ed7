import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { useT, withElements } from "~/components/useT";
import { parseFields, type FieldErrors } from "~/lib/form-errors";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PARAMS } from "~/lib/password-rules";
import { ChangePasswordSchema } from "~/services/auth/password-forms.server";
import { requireSession } from "~/services/auth/auth.server";
import { changePassword } from "~/services/auth/password-flows.server";
import { readForm } from "~/services/platform/http.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

/** Change password (spec §2 /auth/password, §7 update-password): signed in, old + new. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireSession(request);
  return {
    businessName: branding.businessName,
    email: session.contact.email,
    external: session.authMethod === "auth0",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { session } = await requireSession(request);
  const form = await readForm(request);
  const parsed = parseFields(ChangePasswordSchema, form, ["oldPassword", "newPassword", "confirm"]);
  if (!parsed.ok) return data({ done: false, errors: parsed.errors, message: null }, { status: 400 });
  const result = await changePassword(session, parsed.value, request);
  if (!result.ok) {
    const errors: FieldErrors = result.field ? { [result.field]: result.message } : {};
    return data({ done: false, errors, message: result.field ? null : result.message }, { status: result.status });
  }
  return data({
    done: true,
    errors: {} as FieldErrors,
    message: "auth.change.done" as MessageKey,
  });
}

export default function ChangePassword() {
  const { email, external } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const t = useT();
  const errors: Partial<FieldErrors> = result?.errors ?? {};
  const fieldError = (name: string) => (errors[name] ? t(errors[name], PASSWORD_PARAMS) : undefined);
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
      {result?.done && result.message ? <FormMessage kind="notice">{t(result.message)}</FormMessage> : null}
      {!result?.done && result?.message ? <FormMessage kind="error">{t(result.message)}</FormMessage> : null}
      {/* A new form after success, so the browser does not keep the typed passwords. */}
      <Form method="post" className={formStyles.form} key={result?.done ? "done" : "form"}>
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
        <Field
          id="newPassword"
          name="newPassword"
          label={t("auth.field.newPassword")}
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={t("auth.field.passwordHint", PASSWORD_PARAMS)}
          error={fieldError("newPassword")}
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
            {t("auth.change.submit")}
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches)("auth.change.title");
  return [{ title: data ? `${title} · ${data.businessName}` : title }];
};
