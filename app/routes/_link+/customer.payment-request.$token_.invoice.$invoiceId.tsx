import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RequestInvoice } from "~/components/PaymentRequest";
import { metaTranslator } from "~/lib/i18n";
import { LINK_PAGE_HEADERS, payerRequestInvoice } from "./link.server";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * One invoice a payment request covers, to view and print, through the request's own link
 * (`/customer/payment-request/<token>/invoice/<invoice id>`, inside the spec's public
 * `[...slug]`; decision 031). Only the request's invoices: any other id — another account's,
 * or this account's but not in the request — is "Page not found". A link that no longer opens
 * the request (expired, replaced, or withdrawn because its contact left the account) goes back
 * to the request's page, which says why.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return (await payerRequestInvoice(request, params.token, params.invoiceId)).view;
}

export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** Read-only: the document carries no script (decision 049). */
export const handle = STATIC_PAGE;

export default function PaymentRequestInvoice() {
  const data = useLoaderData<typeof loader>();
  return <RequestInvoice data={data} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  return [
    { title: `${t("invoice.title", { number: data.invoice.number })} · ${data.businessName}` },
    metaDescription(matches, "meta.requestInvoice", data.businessName),
  ];
};
