import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RichText } from "~/components/RichText";
import { loadLegalPage } from "~/services/host/legal.server";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadLegalPage(request, "privacy_policy");
}

export default function PrivacyPolicy() {
  const { content } = useLoaderData<typeof loader>();
  const t = useT();
  return <RichText source={content} fallbackTitle={t("shell.privacy")} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [{ title: data ? `${t("shell.privacy")} · ${data.businessName}` : t("errors.notFound.title") }];
};
