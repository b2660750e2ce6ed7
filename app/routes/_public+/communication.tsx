import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PreferencesPage } from "~/components/CommunicationPreferences";
import type { PreferencesPageData } from "~/lib/communication";
import { metaTranslator } from "~/lib/i18n";
import { getPageContext, preferencesBySession, saveBySession, requireSameOrigin } from "./public.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * `/communication` signed in (spec §2: public and customer-style; issue 17; decision 039): the
 * signed-in contact chooses which messages they get, and how, for themselves. Public, so the loader
 * reads the session itself: signed out it says how to get here (sign in, or the link in any email);
 * an unconfirmed email address is asked to confirm first. Signed-out changes go through the signed
 * link's own page, `/communication/<token>`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await getPageContext(request);
  return preferencesBySession(branding, session, request);
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return saveBySession(request);
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function Communication() {
  const loaded = useLoaderData<typeof loader>() as PreferencesPageData;
  // A refused form comes back as the action's page (400), showing what is stored now.
  const data = useActionData<typeof action>() ?? loaded;
  return <PreferencesPage data={data} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  const businessName = (data as PreferencesPageData | undefined)?.businessName;
  return [
    { title: `${t("communication.title")}${businessName ? ` · ${businessName}` : ""}` },
    metaDescription(matches, "meta.communication", businessName),
  ];
};
