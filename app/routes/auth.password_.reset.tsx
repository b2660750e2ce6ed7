import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { parseFields } from "~/lib/form-errors";
import { PASSWORD_MAX, PASSWORD_MIN, RESET_SENT_MESSAGE } from "~/lib/password-rules";
import { getPageContext } from "~/services/auth.server";
import { checkResetToken, requestPasswordReset, resetPassword } from "~/services/password-flows.server";
import { ResetPasswordSchema, ResetRequestSchema } from "~/services/password-forms.server";
import { readForm } from "~/services/http.server";
import { requireSameOrigin } from "~/services/request-context.server";

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
    return { businessName: branding.businessName, mode: "external" as const, token: null, email: "", tokenValid: false };
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
  const { branding } = await getPageContext(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "request") {
    const parsed = parseFields(ResetRequestSchema, form, ["email"]);
    if (!parsed.ok) return data({ intent, errors: parsed.errors, sent: false, message: null }, { status: 400 });
    const result = await requestPasswordReset(branding, parsed.value.email, request);
    if (!result.ok) return data({ intent, errors: {}, sent: false, message: result.message }, { status: result.status });
    return data({ intent, errors: {}, sent: true, message: RESET_SENT_MESSAGE });
  }
  if (intent === "reset") {
    const parsed = parseFields(ResetPasswordSchema, form, ["email", "token", "password", "confirm"]);
    if (!parsed.ok) return data({ intent, errors: parsed.errors, sent: false, message: null }, { status: 400 });
    const result = await resetPassword(branding, parsed.value, request);
    if (!result.ok) return data({ intent, errors: {}, sent: false, message: result.message }, { status: result.status });
    return redirect(`/auth/signin?${new URLSearchParams({ error: "ResetDone" })}`);
  }
  return data({ intent: null, errors: {}, sent: false, message: "Unknown request." }, { status: 400 });
}

export default function PasswordReset() {
  const { businessName, mode, token, email, tokenValid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = result?.errors ?? {};

  if (mode === "external") {
    return (
      <>
        <h1>Reset your password</h1>
        <p>
          {businessName} signs you in through your organisation's identity provider. Reset your password there, then{" "}
          <Link to="/auth/signin">sign in again</Link>.
        </p>
      </>
    );
  }

  if (mode === "reset" && tokenValid) {
    return (
      <>
        <h1>Choose a new password</h1>
        {result?.message ? <FormMessage kind="error">{result.message}</FormMessage> : null}
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="intent" value="reset" />
          <input type="hidden" name="token" value={token ?? ""} />
          <input type="hidden" name="email" value={email} />
          <p>
            For <strong>{email}</strong>
          </p>
          <Field
            id="password"
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN}
            maxLength={PASSWORD_MAX}
            hint={`At least ${PASSWORD_MIN} characters. Any characters are fine, including spaces.`}
            error={errors.password}
          />
          <Field
            id="confirm"
            name="confirm"
            label="New password again"
            type="password"
            autoComplete="new-password"
            required
            maxLength={PASSWORD_MAX}
            error={errors.confirm}
          />
          <div>
            <button type="submit" className={button} disabled={busy}>
              Set new password
            </button>
          </div>
        </Form>
      </>
    );
  }

  return (
    <>
      <h1>Reset your password</h1>
      {mode === "reset" && !tokenValid ? (
        <FormMessage kind="error">
          This reset link has expired or has already been used. Ask for a new one below.
        </FormMessage>
      ) : null}
      {result?.sent ? (
        <FormMessage kind="notice">{result.message}</FormMessage>
      ) : result?.message ? (
        <FormMessage kind="error">{result.message}</FormMessage>
      ) : null}
      <p>Enter the email you sign in with and we'll send you a link to choose a new password.</p>
      <Form method="post" className={formStyles.form}>
        <input type="hidden" name="intent" value="request" />
        <Field
          id="email"
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          defaultValue={mode === "reset" ? email : ""}
          error={errors.email}
        />
        <div>
          <button type="submit" className={button} disabled={busy}>
            Send reset link
          </button>
        </div>
      </Form>
      <p>
        <Link to="/auth/signin">Back to sign in</Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Reset password · ${data.businessName}` : "Reset password" },
];
