import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { topicInSentence, UnsubscribePage } from "~/components/CommunicationPreferences";
import type { UnsubscribePageData } from "~/lib/communication";
import { metaTranslator } from "~/lib/i18n";
import {
  getPageContext,
  unsubscribeAction,
  unsubscribeIntentOf,
  unsubscribePage,
  LINK_PAGE_HEADERS,
  readForm,
  requireSameOrigin,
} from "./link.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * `/communication/unsubscribe?token=<token>`: the `List-Unsubscribe` URL of every email that is a
 * contact's choice (issue 17; decision 039; RFC 8058).
 *
 * - GET never changes anything (mail scanners open every link): it shows the choice for the link's
 *   topic, one button to unsubscribe (or, once off, to subscribe again) and a link to every
 *   preference.
 * - POST `List-Unsubscribe=One-Click` is the mail provider's one click, made server to server with
 *   no cookie and usually no Origin: the signed link is the authority, so this one body is taken
 *   whatever Origin comes with it (or none). It turns off that topic by email and nothing else, and
 *   answers 200 (again: no change).
 * - Any other POST is the page's own button: same-origin like every action, then the same link.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  return unsubscribePage(branding, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const { branding } = await getPageContext(request);
  const form = await readForm(request);
  const intent = unsubscribeIntentOf(form);
  // A cross-site page could post the button's body as well as a provider's: only the RFC 8058
  // one click is exempt from the Origin check, and it can only ever turn a topic off.
  if (intent !== "one-click") requireSameOrigin(request);
  return unsubscribeAction(branding, request, intent);
}

/** The token is in the query: no Referer carries it on, no cache keeps the page (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** No script at all (decision 084): an emailed link's page has no session and no Menu; its form posts as HTML does. */
export const handle = STATIC_PAGE;

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>() as UnsubscribePageData;
  const data = useActionData<typeof action>() ?? loaded;
  return <UnsubscribePage data={data} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  const page = data as UnsubscribePageData | undefined;
  if (!page || page.kind === "invalid")
    return [
      { title: t("communication.invalid.title") },
      metaDescription(matches, "meta.linkInvalid", page?.businessName),
    ];
  const topic = t(topicInSentence(page.topic));
  const title = page.enabled
    ? t("communication.unsubscribe.title", { topic })
    : t("communication.unsubscribed.title", { topic });
  return [
    { title: `${title} · ${page.businessName}` },
    metaDescription(matches, "meta.unsubscribe", page.businessName),
  ];
};
