import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { parseFields } from "~/lib/form-errors";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/password-rules";
import { requireSession } from "~/services/auth.server";
import { changePassword } from "~/services/password-flows.server";
import { ChangePasswordSchema } from "~/services/password-forms.server";
import { readForm } from "~/services/http.server";
import { requireSameOrigin } from "~/services/request-context.server";

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
    const errors: Record<string, string> = result.field ? { [result.field]: result.message } : {};
    return data({ done: false, errors, message: result.field ? null : result.message }, { status: result.status });
  }
  return data({
    done: true,
    errors: {} as Record<string, string>,
    message: "Your password has been changed. You've been signed out everywhere else.",
  });
}

export default function ChangePassword() {
  const { email, external } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  if (external) {
    return (
      <>
        <h1>Change password</h1>
        <p>You sign in through your organisation's identity provider: change your password there.</p>
        <p>
          <Link to="/">Back to the portal</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Change password</h1>
      <p>
        Signed in as <strong>{email}</strong>. Changing your password signs you out on every other device.
      </p>
      {result?.done ? <FormMessage kind="notice">{result.message}</FormMessage> : null}
      {!result?.done && result?.message ? <FormMessage kind="error">{result.message}</FormMessage> : null}
      {/* A new form after success, so the browser does not keep the typed passwords. */}
      <Form method="post" className={formStyles.form} key={result?.done ? "done" : "form"}>
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          id="oldPassword"
          name="oldPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
          error={errors.oldPassword}
        />
        <Field
          id="newPassword"
          name="newPassword"
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`At least ${PASSWORD_MIN} characters. Any characters are fine, including spaces.`}
          error={errors.newPassword}
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
            Change password
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Change password · ${data.businessName}` : "Change password" },
];
