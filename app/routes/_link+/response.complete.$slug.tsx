import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ResponseClosed, ResponseComplete } from "./components/ResponseRequest";
import { metaTranslator } from "~/lib/i18n";
import { getPageContext, LINK_PAGE_HEADERS, completeView, pageDates, responseByLink } from "./link.server";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * What a contact's answer recorded (spec §2 public `/response/complete/[slug]`; issue 17;
 * decision 040): the page an answer redirects to, and what the emailed link shows from then on —
 * the choice and what came with it, the name typed and when (not the network address: that stays
 * in the record and the back-office API), and the question as asked. The slug is the same link token as the question's, checked the same way; a
 * request not yet answered goes back to its question, a closed one says why.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // The root loader reads the same context: one host lookup for the request.
  const { branding } = await getPageContext(request);
  return completeView(request, await responseByLink(branding, params.slug, await pageDates(request, branding)));
}

/** The token stays out of any Referer and out of caches (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** Read-only: the document carries no script (decision 049). */
export const handle = STATIC_PAGE;

export default function ResponseCompletePage() {
  const data = useLoaderData<typeof loader>();
  if (data.kind === "closed") return <ResponseClosed data={data} />;
  return <ResponseComplete data={data} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  if (data.kind === "closed")
    return [
      { title: `${t(`response.closed.${data.reason}.title`)} · ${data.businessName}` },
      metaDescription(matches, "meta.responseClosed", data.businessName),
    ];
  return [
    { title: `${t("response.complete.title")} · ${data.question.businessName}` },
    metaDescription(matches, "meta.responseComplete", data.question.businessName),
  ];
};
