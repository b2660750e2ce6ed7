import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { questionTitle, ResponseClosed, ResponseOpen } from "./components/ResponseRequest";
import { metaTranslator } from "~/lib/i18n";
import {
  getPageContext,
  LINK_PAGE_HEADERS,
  recordLinkOpened,
  requireSameOrigin,
  answerAction,
  questionView,
  responseByLink,
  pageDates,
} from "./link.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * A question a business asks by emailed link (spec §2 public `/response/[...slug]`; issue 17;
 * decisions 031 and 040): confirm a delivery address, acknowledge a statement, or respond to a
 * proposal on a disputed invoice. No session: the token stands in for one, for exactly this
 * request, and its contact answers — once. A GET counts the opening and changes nothing else;
 * any token that does not check out is "This link isn't valid"; an expired, replaced, withdrawn
 * or already answered link says so with the business's contact details. Once answered, the link
 * opens `/response/complete/<token>`, which shows exactly what was recorded.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // The root loader reads the same context: one host lookup for the request.
  const { branding } = await getPageContext(request);
  const context = await responseByLink(branding, params.slug, await pageDates(request, branding));
  await recordLinkOpened(context.branding.businessId, context.link.id);
  return questionView(context);
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  // The root loader reads the same context: one host lookup for the request.
  const { branding } = await getPageContext(request);
  return answerAction(request, await responseByLink(branding, params.slug, await pageDates(request, branding)));
}

/** The token stays out of any Referer and out of caches (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/**
 * No script in any state (decision 084): an emailed link's page has no session and no Menu, and its
 * form posts as HTML does; the error summary takes focus with `autofocus`.
 */
export const handle = STATIC_PAGE;

export default function ResponseQuestionPage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  if (data.kind === "closed") return <ResponseClosed data={data} />;
  return <ResponseOpen data={data} reply={reply} />;
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
    { title: `${questionTitle(t, data.question)} · ${data.question.businessName}` },
    metaDescription(matches, "meta.response", data.question.businessName),
  ];
};
