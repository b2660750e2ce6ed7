import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import {
  peekToken,
  getPageContext,
  requireSession,
  confirmEmail,
  sendVerificationMail,
  requestLanguage,
  readForm,
  requireSameOrigin,
} from "./auth-pages.server";
import { useT, withElements } from "~/components/useT";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

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

// Action messages are message keys: the page shows them in its language.
const key = (message: MessageKey) => message;

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await getPageContext(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "confirm") {
    const token = form.get("token");
    const confirmed = typeof token === "string" && (await confirmEmail(branding, token));
    if (!confirmed)
      return data({ sent: false, confirmed: false, message: key("auth.verify.badLink") }, { status: 400 });
    if (session) throw redirect("/");
    return data({ sent: false, confirmed: true, message: key("auth.verify.confirmed") });
  }
  if (intent === "send") {
    const { session: signedIn } = await requireSession(request);
    if (signedIn.contact.verified) throw redirect("/");
    const { language } = await requestLanguage(request, branding.businessId, signedIn.data.selectedAccount);
    const result = await sendVerificationMail(branding, signedIn, request, language);
    if (!result.ok)
      return data({ sent: false, confirmed: false, message: key(result.message) }, { status: result.status });
    // The page fills in the email (its loader has it).
    return data({ sent: true, confirmed: false, message: key("auth.verify.sent") });
  }
  return data({ sent: false, confirmed: false, message: key("auth.form.unknownRequest") }, { status: 400 });
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function Verify() {
  const { businessName, state, email, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const t = useT();
  const bold = <strong>{email}</strong>;
  if (result?.confirmed) {
    return (
      <>
        <h1>{t("auth.verify.confirmedTitle")}</h1>
        <FormMessage kind="notice">{t(result.message)}</FormMessage>
        <p>
          <Link to="/auth/signin">{t("auth.verify.signInToPortal")}</Link>
        </p>
      </>
    );
  }
  if (state === "confirm") {
    return (
      <>
        <h1>{t("auth.verify.title")}</h1>
        {result ? <FormMessage kind="error">{t(result.message)}</FormMessage> : null}
        <p>{withElements(t("auth.verify.confirmText", { businessName }), { email: bold })}</p>
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={token ?? ""} />
          <div>
            <button type="submit" className={button} disabled={busy}>
              {t("auth.verify.confirmButton")}
            </button>
          </div>
        </Form>
      </>
    );
  }
  if (state === "bad-link" || state === "signed-out") {
    return (
      <>
        <h1>{t("auth.verify.title")}</h1>
        {state === "bad-link" ? <FormMessage kind="error">{t("auth.verify.badLink")}</FormMessage> : null}
        <p>
          {withElements(t("auth.verify.signInToAsk"), {
            signIn: <Link to="/auth/signin?callbackUrl=%2Fauth%2Fverify">{t("auth.verify.signIn")}</Link>,
          })}
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{t("auth.verify.title")}</h1>
      <p>{withElements(t("auth.verify.intro", { businessName }), { email: bold })}</p>
      {result ? (
        <FormMessage kind={result.sent ? "notice" : "error"}>{t(result.message, { email: email ?? "" })}</FormMessage>
      ) : null}
      <Form method="post" className={formStyles.form}>
        <input type="hidden" name="intent" value="send" />
        <div>
          <button type="submit" className={button} disabled={busy}>
            {t("auth.verify.send")}
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches)("auth.verify.title");
  return [
    { title: data ? `${title} · ${data.businessName}` : title },
    metaDescription(matches, "meta.verify", data?.businessName),
  ];
};
