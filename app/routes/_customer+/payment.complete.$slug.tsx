import type { ReactNode } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useRecheckWhile } from "~/components/useRecheckWhile";
import { FormMessage, formStyles } from "~/components/Form";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatDate, formatMoney } from "~/lib/format";
import {
  accountNotFound,
  requireAccountAccess,
  getPageContext,
  requireSession,
  browserUsedLink,
  paymentRequestOf,
  findPaymentByReference,
  reconcilePayment,
} from "./customer.server";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import type { HydrateHandle } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * The receipt (spec §2 /payment/complete/[slug], customer-style): reference, amounts, fee
 * breakdown, masked method and the invoices paid. Only contacts who may see the payment's
 * account get it; anyone else gets 'Page not found'. A payment still being confirmed is
 * reconciled here first.
 *
 * PayTo (decision 029): the payment is "submitted" until the payer's bank pays it, which may
 * take seconds or a day. The page says so and, with JavaScript, asks again every few seconds
 * (Remix revalidation; the loader asks the provider by our key), announcing the change in a
 * live region; without JavaScript, a "Check again" link reloads it. Once settled it says
 * "Paid"; rejected, it says why in words and links back to paying the same thing again: the same
 * invoices, the payment request, or the account's ad-hoc page.
 *
 * A payment made from an emailed link (issue 14) is also shown to the browser that made it,
 * with no session: then without the links into the portal. The receipt names the payment
 * request it paid, and money kept on the account as credit with the payer's reference.
 */
/** How often an open receipt of a pending PayTo payment asks again. */
const RECHECK_MS = 3_000;

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
  const access = await requireReceiptAccess(request, params.slug ?? "");
  const { branding, viaLink } = access;
  let payment = access.payment;
  if (payment.status === "pending" || payment.status === "unknown" || payment.status === "submitted") {
    await reconcilePayment(payment.id);
    payment = (await findPaymentByReference(branding.businessId, payment.reference))!;
  }
  const money = (cents: number) => formatMoney(cents, { currency: payment!.currency });
  const forRequest = await paymentRequestOf(branding.businessId, payment.payment_request_id);
  return {
    businessName: branding.businessName,
    viaLink,
    receipt: {
      // What the money was for: a payment request, and money kept as credit (ad hoc, a stated amount).
      forRequest,
      credited: payment.purpose !== "invoices" ? money(payment.subtotal_cents) : null,
      payerReference: payment.payer_reference,
      reference: payment.reference,
      status: payment.status,
      date: formatDate(payment.created_at, { timeZone: branding.timeZone }),
      promiseDate: payment.promise_date ? formatDate(payment.promise_date, { timeZone: branding.timeZone }) : null,
      method: payment.card_last4 ? `${payment.card_brand ?? ""} •••• ${payment.card_last4}` : null,
      subTotal: money(payment.subtotal_cents),
      lateFee: payment.late_fee_cents > 0 ? money(payment.late_fee_cents) : null,
      discount: payment.discount_cents > 0 ? money(payment.discount_cents) : null,
      surcharge: payment.merchant_fee_cents > 0 ? money(payment.merchant_fee_cents) : null,
      total: money(payment.amount_cents),
      note: payment.note,
      invoices: payment.allocations.map((a) => ({ number: a.number, amount: money(a.amountCents) })),
      payTo: payment.method === "payto",
      failure: payment.failure_code,
      payAgain: payAgainOf(payment, forRequest, viaLink),
    },
  };
}

/**
 * Where a rejected payment is made again: the page of what it paid for. A payment request's
 * signed-in page, the account's ad-hoc page, or the invoices' pay page. A browser that paid from
 * an emailed link is pointed back to its email: the receipt never carries a link's token
 * (decision 031), and without it there is no page to send it to.
 */
function payAgainOf(
  payment: { purpose: string; account_id: string; allocations: { invoiceId: string }[] },
  forRequest: { reference: string } | null,
  viaLink: boolean,
): { kind: "request" | "adhoc" | "invoices"; href: string | null } {
  const kind = forRequest ? "request" : payment.purpose === "adhoc" ? "adhoc" : "invoices";
  if (viaLink) return { kind, href: null };
  if (forRequest) return { kind, href: `/payment/payment-request/${encodeURIComponent(forRequest.reference)}` };
  if (kind === "adhoc") return { kind, href: `/payment/adhoc/${encodeURIComponent(payment.account_id)}` };
  return {
    kind,
    href: `/customer/invoices-and-payments/pay?${payment.allocations
      .map((a) => `invoice=${encodeURIComponent(a.invoiceId)}`)
      .join("&")}`,
  };
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
  const { receipt, viaLink } = useLoaderData<typeof loader>();
  const t = useT();
  if (receipt.payTo) return <PayToReceipt receipt={receipt} viaLink={viaLink} />;
  const title =
    receipt.status === "succeeded"
      ? t("receipt.paid")
      : receipt.status === "promised"
        ? t("receipt.promised")
        : receipt.status === "failed"
          ? t("receipt.failed")
          : t("receipt.pending");
  return (
    <>
      <h1>{title}</h1>
      <FormMessage kind={receipt.status === "failed" ? "error" : "notice"}>
        {receipt.status === "promised"
          ? t("receipt.promisedText", { date: receipt.promiseDate ?? "" })
          : t("receipt.reference", { reference: receipt.reference })}
      </FormMessage>
      <ReceiptDetails
        receipt={receipt}
        method={receipt.method}
        totalLabel={receipt.status === "promised" ? t("receipt.promisedTotal") : t("receipt.total")}
        total={receipt.status === "promised" ? receipt.subTotal : receipt.total}
        viaLink={viaLink}
      />
    </>
  );
}

type Receipt = ReturnType<typeof useLoaderData<typeof loader>>["receipt"];

/** What a rejected payment's receipt says, and its way to pay again, by what the payment was for. */
const REJECTED = {
  invoices: "paytoPay.receipt.rejected",
  request: "paytoPay.receipt.rejected.request",
  adhoc: "paytoPay.receipt.rejected.adhoc",
} as const satisfies Record<string, MessageKey>;
const PAY_AGAIN = {
  invoices: "paytoPay.receipt.payAgain",
  request: "paytoPay.receipt.payAgain.request",
  adhoc: "paytoPay.receipt.payAgain.adhoc",
} as const satisfies Record<string, MessageKey>;

/** A PayTo payment's receipt: pending until the bank pays, then paid or rejected. */
function PayToReceipt({ receipt, viaLink }: { receipt: Receipt; viaLink: boolean }) {
  const t = useT();
  const location = useLocation();
  const pending = receipt.status !== "succeeded" && receipt.status !== "failed";
  useRecheckWhile(pending, RECHECK_MS);
  const title = pending
    ? t("paytoPay.receipt.pendingTitle")
    : receipt.status === "succeeded"
      ? t("paytoPay.receipt.paidTitle")
      : t("paytoPay.receipt.rejectedTitle");
  const reason = t(`paytoPay.reason.${receipt.failure ?? "declined"}` as MessageKey);
  return (
    <>
      <h1>{title}</h1>
      {/*
        One live region for the state, whose role never changes (screen readers track a region by
        its role from the first render): the change from pending to paid or rejected is read out.
      */}
      <div
        role="status"
        data-testid="payto-receipt-state"
        className={receipt.status === "failed" ? formStyles.alert : formStyles.notice}
      >
        {pending
          ? t("paytoPay.receipt.pending", { reference: receipt.reference })
          : receipt.status === "succeeded"
            ? t("paytoPay.receipt.paid", { reference: receipt.reference })
            : t(REJECTED[receipt.payAgain.kind], { reason })}
      </div>
      {pending ? (
        <p>
          {t("paytoPay.receipt.autoCheck")}{" "}
          <Link to={`${location.pathname}${location.search}`} reloadDocument>
            {t("paytoPay.receipt.checkAgain")}
          </Link>
        </p>
      ) : null}
      {receipt.status === "failed" ? (
        <p>
          {receipt.payAgain.href ? (
            <Link to={receipt.payAgain.href}>
              {t(PAY_AGAIN[receipt.payAgain.kind], { reference: receipt.forRequest?.reference ?? "" })}
            </Link>
          ) : (
            t("paytoPay.receipt.payAgain.fromEmail")
          )}
        </p>
      ) : null}
      <ReceiptDetails
        receipt={receipt}
        method={t("paytoPay.receipt.method")}
        totalLabel={t("receipt.total")}
        total={receipt.total}
        viaLink={viaLink}
      />
    </>
  );
}

/** What every receipt lists: reference, date, method, the figures, and the invoices paid. */
function ReceiptDetails({
  receipt,
  method,
  totalLabel,
  total,
  viaLink,
}: {
  receipt: Receipt;
  method: string | null;
  totalLabel: string;
  total: string;
  /** Opened by the browser that paid from an emailed link: no way into the portal from here. */
  viaLink: boolean;
}) {
  const t = useT();
  const row = (label: string, value: ReactNode) => (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <>
      <dl className={styles.details}>
        {row(t("receipt.referenceLabel"), receipt.reference)}
        {row(t("receipt.date"), receipt.date)}
        {receipt.forRequest
          ? row(
              t("receipt.for"),
              <>
                {t("receipt.forRequest", { reference: receipt.forRequest.reference })}
                {receipt.forRequest.description ? <>: {receipt.forRequest.description}</> : null}
              </>,
            )
          : null}
        {receipt.credited ? row(t("receipt.credited"), receipt.credited) : null}
        {receipt.payerReference ? row(t("receipt.payerReference"), receipt.payerReference) : null}
        {method ? row(t("receipt.method"), method) : null}
        {row(t(SUBTOTAL[receipt.payAgain.kind]), receipt.subTotal)}
        {receipt.lateFee ? row(t("pay.lateFee"), receipt.lateFee) : null}
        {receipt.discount ? row(t("pay.discount"), `−${receipt.discount}`) : null}
        {receipt.surcharge ? row(t("pay.surcharge"), receipt.surcharge) : null}
        {row(totalLabel, <strong>{total}</strong>)}
      </dl>
      {receipt.invoices.length > 0 ? (
        <>
          <h2>{t("receipt.invoices")}</h2>
          <ul className={styles.list} aria-label={t("receipt.invoices")}>
            {receipt.invoices.map((invoice) => (
              <li key={invoice.number} className={styles.listItem}>
                <span>{invoice.number}</span>
                <span>{invoice.amount}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {viaLink ? null : (
        <p>
          <Link to="/customer/invoices-and-payments/invoices">{t("pay.backToInvoices")}</Link>
        </p>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("receipt.title", { reference: data.receipt.reference })} · ${data.businessName}` },
    metaDescription(matches, "meta.receipt", data.businessName),
  ];
};

/** What the money paid, as its line on the receipt: invoices, a request, or a payment on account (issue 31). */
const SUBTOTAL = {
  invoices: "pay.subtotal",
  request: "requestPage.subtotal",
  adhoc: "receipt.subtotal.adhoc",
} as const;
