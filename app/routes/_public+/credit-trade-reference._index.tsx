import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BusinessContact } from "~/components/BusinessContact";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { getPageContext, businessContact } from "./public.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * The spec's public `/credit-trade-reference` without a link (issue 17; decision 041): a referee
 * answers only from the link in their email, so this page says so, with the business's contact
 * details — not a form, and not "Page not found" for someone who typed the address from a letter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  return { businessName: branding.businessName, contact: await businessContact(branding.businessId) };
}

/** Only words and a way to ask: no script at all (decision 049). */
export const handle = STATIC_PAGE;

export default function TradeReferenceStart() {
  const t = useT();
  const data = useLoaderData<typeof loader>();
  const params = { business: data.businessName };
  return (
    <>
      <h1>{t("tradeReference.start.title")}</h1>
      <p>{t("tradeReference.start.text", params)}</p>
      <p>{t("tradeReference.start.help", params)}</p>
      <BusinessContact businessName={data.businessName} contact={data.contact} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [
    { title: `${t("tradeReference.start.title")}${data ? ` · ${data.businessName}` : ""}` },
    metaDescription(matches, "meta.tradeReference", data?.businessName),
  ];
};
