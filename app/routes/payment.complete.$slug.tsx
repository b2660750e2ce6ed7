import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/components/Form";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatDate, formatMoney } from "~/lib/format";
import { accountNotFound, requireAccountAccess } from "~/services/accounts/accounts.server";
import { requireSession } from "~/services/auth/auth.server";
import { findPaymentByReference } from "~/services/payments/invoices.server";
import { reconcilePayment } from "~/services/payments/payments.server";
import { metaTranslator } from "~/lib/i18n";

/**
 * The receipt (spec §2 /payment/complete/[slug], customer-style): reference, amounts, fee
 * breakdown, masked method and the invoices paid. Only contacts who may see the payment's
 * account get it; anyone else gets 'Page not found'. A payment still being confirmed is
 * reconciled here first.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, session } = await requireSession(request);
  let payment = await findPaymentByReference(branding.businessId, params.slug ?? "");
  if (!payment) throw accountNotFound();
  await requireAccountAccess(branding.businessId, session.contact.id, payment.account_id);
  if (payment.status === "pending" || payment.status === "unknown") {
    await reconcilePayment(payment.id);
    payment = (await findPaymentByReference(branding.businessId, payment.reference))!;
  }
  const money = (cents: number) => formatMoney(cents, { currency: payment!.currency });
  return {
    businessName: branding.businessName,
    receipt: {
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
    },
  };
}

export default function PaymentComplete() {
  const { receipt } = useLoaderData<typeof loader>();
  const t = useT();
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
      <dl className={styles.details}>
        <dt>{t("receipt.referenceLabel")}</dt>
        <dd>{receipt.reference}</dd>
        <dt>{t("receipt.date")}</dt>
        <dd>{receipt.date}</dd>
        {receipt.method ? (
          <>
            <dt>{t("receipt.method")}</dt>
            <dd>{receipt.method}</dd>
          </>
        ) : null}
        <dt>{t("pay.subtotal")}</dt>
        <dd>{receipt.subTotal}</dd>
        {receipt.lateFee ? (
          <>
            <dt>{t("pay.lateFee")}</dt>
            <dd>{receipt.lateFee}</dd>
          </>
        ) : null}
        {receipt.discount ? (
          <>
            <dt>{t("pay.discount")}</dt>
            <dd>−{receipt.discount}</dd>
          </>
        ) : null}
        {receipt.surcharge ? (
          <>
            <dt>{t("pay.surcharge")}</dt>
            <dd>{receipt.surcharge}</dd>
          </>
        ) : null}
        <dt>{receipt.status === "promised" ? t("receipt.promisedTotal") : t("receipt.total")}</dt>
        <dd>
          <strong>{receipt.status === "promised" ? receipt.subTotal : receipt.total}</strong>
        </dd>
      </dl>
      <h2>{t("receipt.invoices")}</h2>
      <ul className={styles.list} aria-label={t("receipt.invoices")}>
        {receipt.invoices.map((invoice) => (
          <li key={invoice.number} className={styles.listItem}>
            <span>{invoice.number}</span>
            <span>{invoice.amount}</span>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/customer/invoices-and-payments/invoices">{t("pay.backToInvoices")}</Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [
    {
      title: data
        ? `${t("receipt.title", { reference: data.receipt.reference })} · ${data.businessName}`
        : t("errors.notFound.title"),
    },
  ];
};
