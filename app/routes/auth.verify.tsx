import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import { getPageContext, requireSession } from "~/services/auth.server";
import { confirmEmail, sendVerificationMail } from "~/services/password-flows.server";
import { requireSameOrigin } from "~/services/request-context.server";

/**
 * Email verification (spec §2 /auth/verify, §4 steps 6–7). A link with a token confirms
 * the email (it works signed in or not); otherwise an unverified contact can ask for a
 * link, and a verified one is sent home.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await getPageContext(request);
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    const confirmed = await confirmEmail(branding, token);
    if (confirmed && session) throw redirect("/");
    return { businessName: branding.businessName, state: confirmed ? ("confirmed" as const) : ("bad-link" as const), email: null };
  }
  if (!session) {
    return { businessName: branding.businessName, state: "signed-out" as const, email: null };
  }
  if (session.contact.verified) throw redirect("/");
  return { businessName: branding.businessName, state: "unverified" as const, email: session.contact.email };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await requireSession(request);
  if (session.contact.verified) throw redirect("/");
  const result = await sendVerificationMail(branding, session, request);
  if (!result.ok) return data({ sent: false, message: result.message }, { status: result.status });
  return data({ sent: true, message: `We've sent a confirmation link to ${session.contact.email}. It works for 24 hours.` });
}

export default function Verify() {
  const { businessName, state, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (state === "confirmed") {
    return (
      <>
        <h1>Email confirmed</h1>
        <FormMessage kind="notice">Thank you: your email address is confirmed.</FormMessage>
        <p>
          <Link to="/auth/signin">Sign in to the portal</Link>
        </p>
      </>
    );
  }
  if (state === "bad-link" || state === "signed-out") {
    return (
      <>
        <h1>Confirm your email</h1>
        {state === "bad-link" ? (
          <FormMessage kind="error">This confirmation link has expired or has already been used.</FormMessage>
        ) : null}
        <p>
          <Link to="/auth/signin?callbackUrl=%2Fauth%2Fverify">Sign in</Link> to ask for a new confirmation link.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Confirm your email</h1>
      <p>
        Before you can use the {businessName} portal, please confirm that <strong>{email}</strong> is your email address.
      </p>
      {result ? <FormMessage kind={result.sent ? "notice" : "error"}>{result.message}</FormMessage> : null}
      <Form method="post" className={formStyles.form}>
        <div>
          <button type="submit" className={button} disabled={busy}>
            Send confirmation link
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Confirm your email · ${data.businessName}` : "Confirm your email" },
];
