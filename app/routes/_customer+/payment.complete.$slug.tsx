import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReceiptPage } from "~/components/ReceiptPage";
import { receiptForPage } from "./customer.server";
import { metaTranslator } from "~/lib/i18n";
import type { HydrateHandle } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * The receipt (spec §2 /payment/complete/[slug], customer-style): reference, amounts, fee
 * breakdown, masked method and the invoices paid, and for a part payment what is still owing and
 * where to pay the rest (decision 076). Only contacts who may see the payment's account get it;
 * anyone else gets 'Page not found'. A payment still being confirmed is reconciled first.
 *
 * A payment made from an emailed link (issue 14) is also shown to the browser that made it,
 * with no session: then without the links into the portal, and with the way back to the link page
 * it paid from when the browser kept it. The receipt email's own link is `/customer/receipt/<token>`.
 * Who may see it: `receiptForPage` (its PDF has the same access).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return (await receiptForPage(request, params.slug ?? "")).data;
}

/**
 * A receipt is read-only (decision 049), except a PayTo payment's while the bank has not answered:
 * that one asks again by itself, which needs script.
 */
export const handle: HydrateHandle = {
  hydrate: (data) => {
    const receipt = (data as { receipt?: { payTo?: unknown; status?: string } } | undefined)?.receipt;
    return Boolean(receipt?.payTo) && receipt?.status !== "succeeded" && receipt?.status !== "failed";
  },
};

export default function PaymentComplete() {
  return <ReceiptPage data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("receipt.title", { reference: data.receipt.reference })} · ${data.businessName}` },
    metaDescription(matches, "meta.receipt", data.businessName),
  ];
};
