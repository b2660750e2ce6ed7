import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AgreementClosed, AgreementRecord } from "~/components/Agreement";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { agreementBySession, agreementView, LINK_PAGE_HEADERS } from "./agreement.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * One agreement as decided (spec §2 customer-style `/customer/agreement/[...slug]`, the slug being
 * the offer's reference; issue 15; decision 036), for a signed-in contact who may act for its
 * account (anyone else: "Page not found"): the exact version that was accepted or declined, the
 * record — who, when, from where, the version and its SHA-256 — and the download "as accepted".
 * An offer still waiting leads to its acceptance page; a withdrawn or expired one says so.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await agreementBySession(request, params.reference);
  if (context.offer.state === "offered") throw redirect(`/agreements/acceptance/${context.offer.reference}`);
  return agreementView(request, context);
}

/** A personal record: kept out of caches. */
export const headers: HeadersFunction = () => ({ "Cache-Control": LINK_PAGE_HEADERS["Cache-Control"] });

/** The record as decided (plain download links), or a closed offer, only shows: no script (decision 049). */
export const handle = STATIC_PAGE;

export default function AgreementAsDecided() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  if (data.kind === "closed") return <AgreementClosed data={data} />;
  if (data.kind === "open") return null;
  return <AgreementRecord data={data} backHref={{ href: "/customer/agreement/all", label: t("agreements.back") }} />;
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
