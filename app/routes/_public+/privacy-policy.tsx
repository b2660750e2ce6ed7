import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RichText } from "./components/RichText";
import { loadLegalPage } from "./public.server";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadLegalPage(request, "privacy_policy");
}

/** Read-only: the document carries no script (decision 049). */
export const handle = STATIC_PAGE;

export default function PrivacyPolicy() {
  const { content } = useLoaderData<typeof loader>();
  const t = useT();
  return <RichText source={content} fallbackTitle={t("shell.privacy")} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("shell.privacy")} · ${data.businessName}` },
    metaDescription(matches, "meta.privacy", data.businessName),
  ];
};
