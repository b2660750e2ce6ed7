import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { TradeReferenceClosed, TradeReferenceOpen } from "./components/TradeReference";
import { metaTranslator } from "~/lib/i18n";
import {
  getPageContext,
  LINK_PAGE_HEADERS,
  refereeAction,
  refereePage,
  requireRefereeLink,
  requireSameOrigin,
} from "./link.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * A trade referee answers about a credit applicant (spec §2 public `/credit-trade-reference`;
 * issue 17; decision 041), signed out, from the link in the email the business sent them. The
 * token stands in for a session for exactly one referee of one application of this host's
 * business (decision 031's rules: a token that does not check out is "This link isn't valid"; a
 * GET shows the page and counts the opening, never spends the link; the answer is written once).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding } = await getPageContext(request);
  const link = await requireRefereeLink(request, branding, params.token);
  return refereePage(request, branding, link);
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  const link = await requireRefereeLink(request, branding, params.token);
  return refereeAction(request, branding, link);
}

/** The path carries the token: no Referer may carry it on, and no cache may keep the page (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/**
 * No script in any state (decision 084): an emailed link's page has no session and no Menu, and its
 * form posts as HTML does; the error summary takes focus with `autofocus`.
 */
export const handle = STATIC_PAGE;

export default function TradeReferencePage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  if (data.kind === "closed") return <TradeReferenceClosed data={data} />;
  return <TradeReferenceOpen data={data} reply={reply} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  const open = data.kind === "open";
  const title =
    open || data.reason === "thanks"
      ? t("tradeReference.title", { applicant: data.applicant })
      : t(`tradeReference.${data.reason}.title`);
  return [
    { title: `${title} · ${data.businessName}` },
    metaDescription(matches, open ? "meta.tradeReference" : "meta.tradeReferenceClosed", data.businessName),
  ];
};
