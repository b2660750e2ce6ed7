import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReceiptPage } from "~/components/ReceiptPage";
import {
  accountNotFound,
  requireAccountAccess,
  getPageContext,
  requireSession,
  browserUsedLink,
  findPaymentByReference,
  receiptPageData,
} from "./customer.server";
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
 */
/**
 * Who may see a payment's receipt: the browser that paid it from an emailed link (its link
 * session holds that link, decision 031), with or without a session; else a signed-in contact
 * who may see its account. Signed out with neither: sign in. Anyone else: "Page not found".
 */
async function requireReceiptAccess(request: Request, reference: string) {
  const { branding, session } = await getPageContext(request);
  const payment = await findPaymentByReference(branding.businessId, reference);
  if (payment?.link_token_id && (await browserUsedLink(request, branding.businessId, payment.link_token_id))) {
    return { branding, payment, viaLink: true };
  }
  if (!session) await requireSession(request);
  if (!payment) throw accountNotFound();
  await requireAccountAccess(branding.businessId, session!.contact.id, payment.account_id);
  return { branding, payment, viaLink: false };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, payment, viaLink } = await requireReceiptAccess(request, params.slug ?? "");
  return receiptPageData(request, branding, payment, viaLink);
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
