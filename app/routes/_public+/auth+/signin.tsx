import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import { SIGN_IN_NOTICES, signInErrorKey } from "~/lib/auth-errors";
import { metaTranslator } from "~/lib/i18n";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  auth0StrategyFor,
  authenticatorFor,
  finishSignIn,
  getPageContext,
  SignInError,
  readForm,
  requestOrigin,
  requireSameOrigin,
} from "./auth-pages.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await getPageContext(request);
  const url = new URL(request.url);
  const callbackUrl = safeSameOriginPath(url.searchParams.get("callbackUrl"), requestOrigin(request), "/");
  // Spec §4 step 6: a verified user on an auth route goes home (or where they were going),
  // except a host admin previewing a draft brand, who is shown the sign-in page customers get (issue 16).
  if (session?.contact.verified && !branding.preview) throw redirect(callbackUrl);
  const code = url.searchParams.get("error");
  const rawCallback = url.searchParams.get("callbackUrl");
  const unsafeCallback = rawCallback !== null && rawCallback !== "" && callbackUrl === "/" && rawCallback !== "/";
  return {
    businessName: branding.businessName,
    provider: branding.authProvider,
    auth0Ready: branding.authProvider === "auth0" ? auth0StrategyFor(branding, request) !== null : false,
    callbackUrl,
    message: signInErrorKey(unsafeCallback && !code ? "INVALID_CALLBACK_URL_ERROR" : code),
    messageKind: code && SIGN_IN_NOTICES.has(code) ? ("notice" as const) : ("error" as const),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  // Checked (type, size, shape) on a copy: the form strategy reads the original.
  const form = await readForm(request.clone());
  const email = String(form.get("email") ?? "").slice(0, 254);
  const callbackUrl = safeSameOriginPath(String(form.get("callbackUrl") ?? "/"), requestOrigin(request), "/");
  if (branding.authProvider !== "credentials") {
    return data({ error: signInErrorKey("Configuration"), email: "", attempt: "" }, { status: 400 });
  }
  try {
    const contact = await authenticatorFor(branding, request).authenticate("form", request);
    const { cookie, next } = await finishSignIn(branding, request, contact, callbackUrl);
    return redirect(next, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof SignInError) {
      const status = error.code === "RateLimited" ? 429 : 401;
      // The email is kept so the user can fix a typo; the password never comes back.
      // `attempt` gives the password field a new identity, so it is emptied with JavaScript too.
      return data({ error: signInErrorKey(error.code), email, attempt: crypto.randomUUID() }, { status });
    }
    throw error;
  }
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function SignIn() {
  const { businessName, provider, auth0Ready, callbackUrl, message, messageKind } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const busy = navigation.state === "submitting";
  const error = actionData?.error ?? (messageKind === "error" ? message : null);
  const notice = !actionData && messageKind === "notice" ? message : null;
  return (
    <>
      <h1>{t("auth.signin.title")}</h1>
      <p>{t("auth.signin.intro", { businessName })}</p>
      {notice ? <FormMessage kind="notice">{t(notice)}</FormMessage> : null}
      {error ? (
        <FormMessage kind="error" id="signin-error">
          {t(error)}
        </FormMessage>
      ) : null}
      {provider === "auth0" ? (
        auth0Ready ? (
          <Form method="post" action="/auth/auth0" className={formStyles.form}>
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <button type="submit" className={button} disabled={busy}>
              {t("auth.signin.continue")}
            </button>
          </Form>
        ) : (
          <FormMessage kind="error">{t("auth.error.configuration")}</FormMessage>
        )
      ) : (
        <>
          <Form method="post" className={formStyles.form} aria-describedby={error ? "signin-error" : undefined}>
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <Field
              id="email"
              name="email"
              label={t("auth.field.email")}
              type="email"
              autoComplete="username"
              required
              maxLength={254}
              defaultValue={actionData?.email ?? ""}
            />
            <Field
              key={actionData?.attempt ?? "first"}
              id="password"
              name="password"
              label={t("auth.field.password")}
              type="password"
              autoComplete="current-password"
              required
              maxLength={1024}
            />
            <div>
              <button type="submit" className={button} disabled={busy}>
                {busy ? t("auth.signin.busy") : t("auth.signin.submit")}
              </button>
            </div>
          </Form>
          <p>
            <Link to="/auth/password/reset">{t("auth.signin.forgot")}</Link>
          </p>
        </>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches)("auth.signin.title");
  return [
    { title: data ? `${title} · ${data.businessName}` : title },
    metaDescription(matches, "meta.signin", data?.businessName),
  ];
};
