import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { StatusScreen } from "~/components/StatusScreen";
import { useT } from "~/components/useT";
import { signInErrorKey } from "~/lib/auth-errors";
import { metaTranslator } from "~/lib/i18n";
import { requireHostBranding } from "./public.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/** The sign-in error page (spec §2 /error): the provider could not be loaded or used. */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  const code = new URL(request.url).searchParams.get("error") ?? "Configuration";
  return { message: signInErrorKey(code) ?? "auth.error.configuration", businessName: branding.businessName };
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function SignInErrorPage() {
  const { message } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <StatusScreen
      eyebrow={t("auth.errorPage.eyebrow")}
      title={t("auth.errorPage.title")}
      actions={
        <Link to="/auth/signin" className={button}>
          {t("auth.signin.back")}
        </Link>
      }
    >
      <p>{t(message)}</p>
    </StatusScreen>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches)("auth.errorPage.eyebrow");
  return [
    { title: data ? `${title} · ${data.businessName}` : title },
    metaDescription(matches, "meta.signinProblem", data?.businessName),
  ];
};
