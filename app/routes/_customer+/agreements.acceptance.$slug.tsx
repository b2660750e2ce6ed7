import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AgreementClosed, AgreementOpen, AgreementRecord } from "~/components/Agreement";
import { metaTranslator } from "~/lib/i18n";
import {
  getPageContext,
  agreementByLink,
  agreementBySession,
  agreementView,
  decideAction,
  isAgreementReference,
  LINK_PAGE_HEADERS,
  recordLinkOpened,
  requireSameOrigin,
} from "./customer.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * An agreement to read and accept or decline (spec §2 customer-style `/agreements/acceptance/
 * [slug]`; issue 15; decisions 034 and 036). Two ways in, one page:
 * - the emailed link, `/agreements/acceptance/<token>`: no session; the token stands in for one,
 *   for exactly this offer, and its contact decides (decision 031's rules: a GET counts the
 *   opening and changes nothing else; any token that does not check out is "This link isn't
 *   valid"; an expired, replaced or withdrawn link says so with the business's contact details);
 * - signed in, `/agreements/acceptance/<reference>`: a portal contact who may act for the
 *   offer's account, or a customer-style contact the offer is addressed to (anything else,
 *   another account's or business's reference is "Page not found"), who decides as themselves.
 * The page shows the latest version's exact text, printable, and posts the version it showed:
 * a newer one published meanwhile is refused and shown. Once decided, it shows the record.
 */
async function context(request: Request, slug: string | undefined) {
  if (isAgreementReference(slug)) return agreementBySession(request, slug);
  const { branding } = await getPageContext(request);
  return agreementByLink(branding, slug);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const found = await context(request, params.slug);
  if (found.wayIn.kind === "link") await recordLinkOpened(found.wayIn.link.businessId, found.wayIn.link.id);
  return agreementView(request, found);
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return decideAction(request, await context(request, params.slug));
}

/**
 * The link's page keeps its token out of any Referer and out of caches (decision 031); the
 * signed-in page, a personal record, is kept out of caches too.
 */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/**
 * No script in any state (decision 084): an emailed link's page has no session and no Menu, and its
 * form posts as HTML does; the error summary takes focus with `autofocus`.
 */
export const handle = STATIC_PAGE;

export default function AgreementAcceptance() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  if (data.kind === "closed") return <AgreementClosed data={data} />;
  if (data.kind === "record") return <AgreementRecord data={data} />;
  return <AgreementOpen data={data} reply={reply} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  if (data.kind === "closed")
    return [
      { title: `${t(`agreement.closed.${data.reason}.title`)} · ${data.businessName}` },
      metaDescription(matches, "meta.agreementClosed", data.businessName),
    ];
  return [
    { title: `${data.offer.title} · ${data.businessName}` },
    metaDescription(matches, "meta.agreement", data.businessName),
  ];
};
