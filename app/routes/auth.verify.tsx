import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import { peekToken } from "~/services/auth-tokens.server";
import { getPageContext, requireSession } from "~/services/auth.server";
import { confirmEmail, sendVerificationMail } from "~/services/password-flows.server";
import { readForm } from "~/services/http.server";
import { requireSameOrigin } from "~/services/request-context.server";

/**
 * Email confirmation (spec §2 /auth/verify, §4 steps 6–7). Opening the emailed link only
 * shows a button: the token is spent by the POST, so mail scanners and prefetchers that
 * open links cannot use it up. Without a token, an unverified contact can ask for a link,
 * and a verified one is sent home.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await getPageContext(request);
  const token = new URL(request.url).searchParams.get("token");
  const base = { businessName: branding.businessName, token: null as string | null, email: null as string | null };
  if (token !== null) {
    const live = await peekToken(branding.businessId, token, "email-verify");
    if (!live) return { ...base, state: "bad-link" as const };
    return { ...base, state: "confirm" as const, token, email: live.email };
  }
  if (!session) return { ...base, state: "signed-out" as const };
  if (session.contact.verified) throw redirect("/");
  return { ...base, state: "unverified" as const, email: session.contact.email };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await getPageContext(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "confirm") {
    const token = form.get("token");
    const confirmed = typeof token === "string" && (await confirmEmail(branding, token));
    if (!confirmed) return data({ sent: false, confirmed: false, message: "This confirmation link has expired or has already been used." }, { status: 400 });
    if (session) throw redirect("/");
    return data({ sent: false, confirmed: true, message: "Thank you: your email address is confirmed." });
  }
  if (intent === "send") {
    const { session: signedIn } = await requireSession(request);
    if (signedIn.contact.verified) throw redirect("/");
    const result = await sendVerificationMail(branding, signedIn, request);
    if (!result.ok) return data({ sent: false, confirmed: false, message: result.message }, { status: result.status });
    return data({ sent: true, confirmed: false, message: `We've sent a confirmation link to ${signedIn.contact.email}. It works for 24 hours.` });
  }
  return data({ sent: false, confirmed: false, message: "Unknown request." }, { status: 400 });
}

export default function Verify() {
  const { businessName, state, email, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (result?.confirmed) {
    return (
      <>
        <h1>Email confirmed</h1>
        <FormMessage kind="notice">{result.message}</FormMessage>
        <p>
          <Link to="/auth/signin">Sign in to the portal</Link>
        </p>
      </>
    );
  }
  if (state === "confirm") {
    return (
      <>
        <h1>Confirm your email</h1>
        {result ? <FormMessage kind="error">{result.message}</FormMessage> : null}
        <p>
          Confirm that <strong>{email}</strong> is your email address for the {businessName} portal.
        </p>
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={token ?? ""} />
          <div>
            <button type="submit" className={button} disabled={busy}>
              Confirm my email
            </button>
          </div>
        </Form>
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
        <input type="hidden" name="intent" value="send" />
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
