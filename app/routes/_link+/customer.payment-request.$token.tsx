import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RequestClosed, RequestOpen } from "~/components/PaymentRequest";
import { metaTranslator } from "~/lib/i18n";
import { payFormShouldRevalidate } from "~/lib/pay-form";
import {
  pageDates,
  getPageContext,
  LINK_PAGE_HEADERS,
  linkInvalid,
  checkLinkAccess,
  recordLinkOpened,
  rememberLinkInBrowser,
  closedReason,
  loadPayerRequest,
  markPaymentRequestOpened,
  closedView,
  openView,
  requestPayAction,
  toReceipt,
  clientAddress,
  requireSameOrigin,
} from "./link.server";
import type { HydrateHandle } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * A payment request opened from its emailed link (spec §2 public `/customer/payment-request/
 * [...slug]`; issue 14; decision 031). No session: the token stands in for one, for exactly
 * this request. The page shows the request, what is owing, its invoices (each printable
 * through the same link) and the pay form — a new card, or a transfer to the account's PayID —
 * and a link to sign in for saved cards and PayTo. The link's contact is the payer of record.
 *
 * A GET counts the opening and marks the request opened; it never spends the link (mail
 * scanners open links). Only the POST that pays uses it. A paid, expired, cancelled or
 * replaced request says so, with the business's contact details; a link whose contact is no
 * longer one of the account's (or is disabled) says only that it was withdrawn; any token that
 * does not check out gets one "This link isn't valid" page.
 */
async function linkContext(request: Request, token: string | undefined) {
  const { branding } = await getPageContext(request);
  const access = await checkLinkAccess(branding.businessId, "payment-request", token, (link) =>
    loadPayerRequest(branding.businessId, { id: link.subjectId }),
  );
  if (access.status === "unknown") throw linkInvalid();
  const { link, record: payerRequest } = access;
  // What the holder of the real link is told: withdrawn (its contact has left the account, or
  // was disabled) before anything about the request; then paid or cancelled, whatever became
  // of the link; then replaced or expired.
  const closed = closedReason(payerRequest);
  const reason =
    access.status === "withdrawn"
      ? access.status
      : closed === "paid" || closed === "cancelled"
        ? closed
        : access.status === "revoked"
          ? ("replaced" as const)
          : access.status === "expired"
            ? ("expired" as const)
            : closed;
  return { branding, link, request: payerRequest, reason };
}

function payerOf(request: Request, context: Awaited<ReturnType<typeof linkContext>>) {
  return {
    branding: context.branding,
    request: context.request,
    actor: {
      businessId: context.branding.businessId,
      accountId: context.request.accountId,
      // The contact the link was sent to pays (payments.created_by): the receipt goes to them.
      contactId: context.link.contactId,
      clientIp: clientAddress(request),
    },
    linkTokenId: context.link.id,
    signedIn: false,
    mayManagePaymentMethods: false,
    closed: context.reason !== null,
    withdrawn: context.reason === "withdrawn",
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await linkContext(request, params.token);
  await recordLinkOpened(context.branding.businessId, context.link.id);
  if (context.reason) {
    return closedView(context.branding, context.request.reference, context.reason);
  }
  await markPaymentRequestOpened(context.branding.businessId, context.request.id);
  const token = params.token!;
  return openView(payerOf(request, context), await pageDates(request, context.branding), {
    invoiceHref: (id) => `/customer/payment-request/${token}/invoice/${id}`,
    signInHref: `/payment/payment-request/${context.request.reference}`,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const context = await linkContext(request, params.token);
  return requestPayAction(request, payerOf(request, context), async (reference) => {
    // This browser may now open the receipt of what it paid from this link (decision 031).
    const cookie = await rememberLinkInBrowser(request, context.link, params.token);
    return toReceipt(reference, { ...LINK_PAGE_HEADERS, "Set-Cookie": cookie });
  });
}

export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** A quote changes nothing the loader reads. */
export const shouldRevalidate = payFormShouldRevalidate;

/** A paid, expired, cancelled or withdrawn request only says so: no script (decision 049). */
export const handle: HydrateHandle = {
  hydrate: (data) => (data as { kind?: string } | undefined)?.kind === "open",
};

export default function PaymentRequestLink() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  if (data.kind === "closed") return <RequestClosed data={data} />;
  return <RequestOpen data={data} reply={reply} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
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
