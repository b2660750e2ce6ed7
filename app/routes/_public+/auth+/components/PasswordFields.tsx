import { Form, Link } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, formStyles } from "~/components/Form";
import { useT, withElements } from "~/components/useT";
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PARAMS } from "~/lib/password-rules";

/**
 * The new password, twice, as the change and the reset forms ask for it (decision 012): the
 * rules as native constraints and a hint, each error tied to its field. Never a `value` or
 * `defaultValue`: a typed password is not sent back into the page.
 */
export function NewPasswordFields({
  name,
  error,
  confirmError,
}: {
  /** The field's name in the form's schema: `newPassword` (change) or `password` (reset). */
  name: "newPassword" | "password";
  error?: string;
  confirmError?: string;
}) {
  const t = useT();
  return (
    <>
      <Field
        id={name}
        name={name}
        label={t("auth.field.newPassword")}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        maxLength={PASSWORD_MAX}
        hint={t("auth.field.passwordHint", PASSWORD_PARAMS)}
        error={error}
      />
      <Field
        id="confirm"
        name="confirm"
        label={t("auth.field.newPasswordAgain")}
        type="password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        error={confirmError}
      />
    </>
  );
}

/**
 * Forgot password, first step: the email to send a reset link to. A plain POST to the page
 * it is on, with `intent=request`; the page's action answers the same whether or not the
 * email has a login.
 */
export function ResetRequestForm({
  defaultEmail,
  error,
  busy,
}: {
  defaultEmail: string;
  error?: string;
  busy: boolean;
}) {
  const t = useT();
  return (
    <>
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
          defaultValue={defaultEmail}
          error={error}
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

/** A host whose contacts sign in through an identity provider has no portal passwords to reset. */
export function NoPortalPasswords({ businessName }: { businessName: string }) {
  const t = useT();
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
