import type { ReactNode } from "react";
import { Link, useLocation } from "@remix-run/react";
import { useRecheckWhile } from "~/components/useRecheckWhile";
import { FormMessage, formStyles } from "~/components/Form";
import { secondaryButton } from "~/components/Button.css";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import type { MessageKey } from "~/lib/i18n";
import type { ReceiptPageData, ReceiptView } from "~/lib/receipt";

/**
 * A receipt (spec §2 /payment/complete/[slug], and the receipt email's `/customer/receipt/<token>`,
 * decision 076): reference, amounts, fee breakdown, masked method, the invoices paid, and for a part
 * payment what is still owing and where to pay the rest.
 *
 * PayTo (decision 029): the payment is "submitted" until the payer's bank pays it, which may
 * take seconds or a day. The page says so and, with JavaScript, asks again every few seconds
 * (Remix revalidation; the loader asks the provider by our key), announcing the change in a
 * live region; without JavaScript, a "Check again" link reloads it. Once settled it says
 * "Paid"; rejected, it says why in words and links back to paying the same thing again.
 *
 * Opened without a session (`viaLink`: the browser that paid from an emailed link, or the receipt
 * email's link), it has no links into the portal.
 */
/** How often an open receipt of a pending PayTo payment asks again. */
const RECHECK_MS = 3_000;

export function ReceiptPage({ data }: { data: ReceiptPageData }) {
  const { receipt, viaLink } = data;
  const t = useT();
  if (receipt.payTo) return <PayToReceipt receipt={receipt} viaLink={viaLink} businessName={data.businessName} />;
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
          : t(data.fromEmail ? "receipt.fromEmail" : "receipt.reference", { reference: receipt.reference })}
      </FormMessage>
      <ReceiptDetails
        receipt={receipt}
        method={receipt.method}
        totalLabel={receipt.status === "promised" ? t("receipt.promisedTotal") : t("receipt.total")}
        total={receipt.status === "promised" ? receipt.subTotal : receipt.total}
        viaLink={viaLink}
        businessName={data.businessName}
      />
    </>
  );
}

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
function PayToReceipt({
  receipt,
  viaLink,
  businessName,
}: {
  receipt: ReceiptView;
  viaLink: boolean;
  businessName: string;
}) {
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
        businessName={businessName}
      />
    </>
  );
}

/** What the money paid, as its line on the receipt: invoices, a request, or a payment on account (issue 31). */
const SUBTOTAL = {
  invoices: "pay.subtotal",
  request: "requestPage.subtotal",
  adhoc: "receipt.subtotal.adhoc",
} as const satisfies Record<string, MessageKey>;

/** What every receipt lists: reference, date, method, the figures, the invoices paid, and what is still owing. */
function ReceiptDetails({
  receipt,
  method,
  totalLabel,
  total,
  viaLink,
  businessName,
}: {
  receipt: ReceiptView;
  method: string | null;
  totalLabel: string;
  total: string;
  /** Opened without a session: no way into the portal from here. */
  viaLink: boolean;
  businessName: string;
}) {
  const t = useT();
  const location = useLocation();
  const row = (label: string, value: ReactNode) => (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
  const owing = receipt.owing;
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
        {owing
          ? row(
              owing.on === "request"
                ? t("receipt.owing.request", { reference: owing.reference ?? "" })
                : t("receipt.owing.invoices"),
              <strong data-testid="receipt-owing">{owing.amount}</strong>,
            )
          : null}
      </dl>
      {owing ? (
        <p>
          {owing.href ? (
            <Link to={owing.href}>{t("receipt.payRest", { amount: owing.amount })}</Link>
          ) : (
            t("receipt.payRest.fromEmail", { business: businessName })
          )}
        </p>
      ) : null}
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
      {receipt.status === "succeeded" || receipt.status === "promised" ? (
        // The page's own address plus /pdf: the same access as this page (issue 34).
        <p>
          <a href={`${location.pathname.replace(/\/$/, "")}/pdf`} download className={secondaryButton}>
            {t("pdf.download")}
          </a>{" "}
          {t("pdf.download.hint")}
        </p>
      ) : null}
      {viaLink ? null : (
        <p>
          <Link to="/customer/invoices-and-payments/invoices">{t("pay.backToInvoices")}</Link>
        </p>
      )}
    </>
  );
}
