import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReceiptPage } from "~/components/ReceiptPage";
import { metaTranslator } from "~/lib/i18n";
import type { HydrateHandle } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";
import { getPageContext, LINK_PAGE_HEADERS, linkInvalid, receiptByLink, receiptTokenShape } from "./link.server";

/**
 * `/customer/receipt/<token>`: one receipt, from the signed link in its receipt email (issue 31;
 * decision 076). No session and no cookie needed: the token stands in for one, for that payment
 * alone — no other receipt, no account, no menu (the shell ignores any session on link pages). A
 * part payment's receipt says what is still owing and how to pay the rest. A token that is too long
 * or malformed is refused before the host is even looked up; one that does not check out
 * (tampered, expired, another host's) is the one "This link isn't valid" page, 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!receiptTokenShape(params.token)) throw linkInvalid();
  const { branding } = await getPageContext(request);
  return receiptByLink(request, branding, params.token);
}

/** The token is in the path: no Referer carries it on, no cache keeps the page (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** A receipt is read-only (decision 049), except a PayTo payment's while the bank has not answered. */
export const handle: HydrateHandle = {
  hydrate: (data) => {
    const receipt = (data as { receipt?: { payTo?: unknown; status?: string } } | undefined)?.receipt;
    return Boolean(receipt?.payTo) && receipt?.status !== "succeeded" && receipt?.status !== "failed";
  },
};

export default function ReceiptByLink() {
  return <ReceiptPage data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  return [
    { title: `${t("receipt.title", { reference: data.receipt.reference })} · ${data.businessName}` },
    metaDescription(matches, "meta.receipt", data.businessName),
  ];
};
