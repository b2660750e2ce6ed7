import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RequestClosed, RequestInvoice, RequestOpen } from "~/components/PaymentRequest";
import { metaTranslator } from "~/lib/i18n";
import { payFormShouldRevalidate } from "~/lib/pay-form";
import { amountPageChoiceOf } from "~/lib/pay-return";
import {
  pageDates,
  accountNotFound,
  requireAccountAccess,
  hasPortalAccess,
  requireSession,
  closedReason,
  loadPayerRequest,
  closedView,
  openView,
  requestInvoiceView,
  requestPayAction,
  toReceipt,
  clientAddress,
  requireSameOrigin,
  updateSessionData,
} from "./customer.server";
import type { HydrateHandle } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * A payment request for a signed-in contact (spec §2 customer-style `/payment/payment-request/
 * [slug]`, the slug being the request's reference; issue 14). A session is needed, not the
 * portal permission; the contact must be linked to the request's account (or see it as a
 * parent's branch), which need not be the selected one: anyone else gets "Page not found".
 * The account's saved cards, active PayTo agreements or a new card (saved when the contact
 * may manage payment methods) pay it, under the same rules as the link. The emailed link's
 * "Sign in to use a saved card" leads here (sign-in returns to this page).
 */
async function requestContext(request: Request, reference: string | undefined) {
  const { branding, session } = await requireSession(request);
  const payerRequest = await loadPayerRequest(branding.businessId, { reference: reference ?? "" });
  if (!payerRequest) throw accountNotFound();
  await requireAccountAccess(branding.businessId, session.contact.id, payerRequest.accountId);
  return {
    branding,
    request: payerRequest,
    actor: {
      businessId: branding.businessId,
      accountId: payerRequest.accountId,
      contactId: session.contact.id,
      clientIp: clientAddress(request),
    },
    linkTokenId: null,
    signedIn: true,
    mayManagePaymentMethods: hasPortalAccess(session.contact),
    // The payment-methods pages act on the selected account: "Set up PayTo" selects this one.
    selectAccount: async () => {
      if (session.data.selectedAccount === payerRequest.accountId) return;
      await updateSessionData(session, { selectedAccount: payerRequest.accountId, invoicePagination: undefined });
    },
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const payer = await requestContext(request, params.slug);
  const self = `/payment/payment-request/${payer.request.reference}`;
  // One of its invoices to view and print: the spec's path has one segment, so it is a query.
  const query = new URL(request.url).searchParams;
  const invoiceId = query.get("invoice");
  const dates = await pageDates(request, payer.branding);
  if (invoiceId !== null) return requestInvoiceView(payer.branding, payer.request, invoiceId, self, dates);
  const closed = closedReason(payer.request);
  if (closed) return closedView(payer.branding, payer.request.reference, closed);
  // A part payment typed before "Sign in to use a saved card" or "Set up PayTo", and the agreement
  // set up on the way (decision 077): well formed here, then checked against the request and account.
  return openView(
    payer,
    dates,
    { invoiceHref: (id) => `${self}?invoice=${id}`, signInHref: null },
    amountPageChoiceOf(query, false)!,
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const payer = await requestContext(request, params.slug);
  return requestPayAction(request, payer, async (reference) => toReceipt(reference));
}

/** A quote changes nothing the loader reads. */
export const shouldRevalidate = payFormShouldRevalidate;

/** An invoice view, or a paid, expired or cancelled request, only shows: no script (decision 049). */
export const handle: HydrateHandle = {
  hydrate: (data) => (data as { kind?: string } | undefined)?.kind === "open",
};

export default function PaymentRequestSignedIn() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  if (data.kind === "invoice") return <RequestInvoice data={data} />;
  if (data.kind === "closed") return <RequestClosed data={data} />;
  return <RequestOpen data={data} reply={reply} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  if (data.kind === "invoice")
    return [
      { title: `${t("invoice.title", { number: data.invoice.number })} · ${data.businessName}` },
      metaDescription(matches, "meta.requestInvoice", data.businessName),
    ];
  if (data.kind === "closed")
    return [
      { title: `${t(`requestPage.closed.${data.reason}.title`)} · ${data.businessName}` },
      metaDescription(matches, "meta.requestClosed", data.businessName),
    ];
  return [
    { title: `${t("requestPage.title", { reference: data.request.reference })} · ${data.businessName}` },
    metaDescription(matches, "meta.request", data.businessName),
  ];
};
