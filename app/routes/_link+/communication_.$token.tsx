import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PreferencesPage } from "~/components/CommunicationPreferences";
import type { PreferencesPageData } from "~/lib/communication";
import { metaTranslator } from "~/lib/i18n";
import { getPageContext, preferencesByLink, saveByLink, LINK_PAGE_HEADERS, requireSameOrigin } from "./link.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * `/communication/<token>`: a contact's communication preferences from the signed link at the foot
 * of every email to them (issue 17; decision 039). No session: the link stands in for one, for
 * that contact's preferences alone — no account, no menu, nothing of whoever may be signed in in
 * this browser (the shell ignores the session on link pages). A link that does not check out
 * (tampered, expired, another host's) is one page, "This link isn't valid", and changes nothing.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  return preferencesByLink(branding, params.token, request);
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  return saveByLink(branding, params.token, request);
}

/** The token is in the path: no Referer carries it on, no cache keeps the page (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** No script at all (decision 084): an emailed link's page has no session and no Menu; its form posts as HTML does. */
export const handle = STATIC_PAGE;

export default function CommunicationByLink() {
  const loaded = useLoaderData<typeof loader>() as PreferencesPageData;
  const data = useActionData<typeof action>() ?? loaded;
  return <PreferencesPage data={data} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  const page = data as PreferencesPageData | undefined;
  const title = page?.kind === "invalid" ? t("communication.invalid.title") : t("communication.title");
  // No page data means the link was refused before a page could be made: say so.
  const invalid = !page || page.kind === "invalid";
  return [
    { title: `${title}${page?.businessName ? ` · ${page.businessName}` : ""}` },
    metaDescription(matches, invalid ? "meta.linkInvalid" : "meta.communication", page?.businessName),
  ];
};
