import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { formStyles } from "~/components/Form";
import { Filters, FilterSelect, Pager } from "~/components/ListControls";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatDate, formatMoney, formatNumber } from "~/lib/format";
import {
  INVOICE_FILTER_OPTIONS,
  INVOICE_PAGE_SIZE,
  INVOICE_SORT_OPTIONS,
  invoiceSearch,
  invoiceStatusKey as statusKey,
  parseInvoiceQuery,
} from "~/lib/invoice-query";
import {
  listInvoices,
  listPayments,
  PAYABLE_STATUSES,
  requireCustomerAccountPage,
  updateSessionData,
} from "./invoices-and-payments.server";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { StackedTable } from "~/components/StackedTable";

/**
 * No client runtime (decisions 049, 052): the list's filter and its "pay selected" form are GET
 * forms, its pager and invoices links; nothing on it needs script.
 */
export const handle = STATIC_PAGE;

const PATH = "/customer/invoices-and-payments/invoices";

/**
 * The selected account's invoices (status, dates, amount, balance, days overdue), filtered,
 * sorted and paged by the query string (the session's invoicePagination remembers it), with
 * the account's latest payments and what each paid. Choosing invoices to pay is a plain GET
 * form to the pay page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session, account } = await requireCustomerAccountPage(request);
  const url = new URL(request.url);
  const remembered = (session.data.invoicePagination as { invoices?: string } | undefined)?.invoices;
  if (url.search === "" && remembered) throw redirect(`${PATH}${remembered}`);
  const query = parseInvoiceQuery(url.searchParams);
  const search = invoiceSearch(query);
  if (search !== (remembered ?? "")) {
    await updateSessionData(session, {
      invoicePagination: { ...(session.data.invoicePagination ?? {}), invoices: search },
    });
  }
  const scope = { businessId: branding.businessId, accountId: account.accountId };
  const [page, payments] = await Promise.all([listInvoices(scope, query), listPayments(scope)]);
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const date = (value: string | Date) => formatDate(value, { timeZone: branding.timeZone });
  return {
    businessName: branding.businessName,
    account: { name: account.name, number: account.number },
    query,
    total: page.total,
    pages: Math.max(1, Math.ceil(page.total / INVOICE_PAGE_SIZE)),
    capped: page.capped,
    balance: page.balanceCents === null ? null : money(page.balanceCents),
    invoices: page.items.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      description: invoice.description,
      status: invoice.status,
      issueDate: date(invoice.issueDate),
      dueDate: date(invoice.dueDate),
      amount: money(invoice.amountCents),
      balance: money(invoice.balanceCents),
      daysOverdue: invoice.balanceCents > 0 ? invoice.daysOverdue : 0,
      payable: (PAYABLE_STATUSES as readonly number[]).includes(invoice.status) && invoice.balanceCents > 0,
    })),
    payments: payments.map((payment) => ({
      id: payment.id,
      reference: payment.reference,
      status: payment.status,
      date: date(payment.createdAt),
      amount: money(payment.amountCents),
      method: payment.method === "promise" ? null : `${payment.cardBrand ?? ""} ${payment.cardLast4 ?? ""}`.trim(),
      invoices: payment.allocations.map((a) => `${a.number} (${money(a.amountCents)})`).join(", "),
    })),
  };
}

export default function Invoices() {
  const { account, query, total, capped, pages, balance, invoices, payments } = useLoaderData<typeof loader>();
  const t = useT();
  const first = total === 0 ? 0 : (query.page - 1) * INVOICE_PAGE_SIZE + 1;
  const last = Math.min(query.page * INVOICE_PAGE_SIZE, total);
  return (
    <>
      <h1>{t("inv.title")}</h1>
      <p>
        {account.name} ({account.number})
      </p>
      <Filters
        label={t("inv.filter")}
        actions={
          <button type="submit" className={button}>
            {t("inv.show")}
          </button>
        }
      >
        <FilterSelect
          id="status"
          label={t("inv.filter.status")}
          defaultValue={query.filter}
          options={INVOICE_FILTER_OPTIONS.map((option) => ({
            value: option,
            label:
              option === "outstanding"
                ? t("inv.filter.outstanding")
                : option === "all"
                  ? t("inv.filter.all")
                  : t(statusKey(Number(option))),
          }))}
        />
        <FilterSelect
          id="sort"
          label={t("inv.sort")}
          defaultValue={query.sort}
          options={INVOICE_SORT_OPTIONS.map((option) => ({ value: option, label: t(`inv.sort.${option}`) }))}
        />
      </Filters>
      <p role="status">
        {invoices.length === 0
          ? t("inv.none")
          : capped || balance === null
            ? t("inv.showingMany", { first: formatNumber(first), last: formatNumber(last), total: formatNumber(total) })
            : t("inv.showing", {
                first: formatNumber(first),
                last: formatNumber(last),
                total: formatNumber(total),
                balance,
              })}
      </p>
      {invoices.length > 0 ? (
        <Form method="get" action="/customer/invoices-and-payments/pay">
          <div className={styles.scroll} tabIndex={0} role="region" aria-label={t("inv.list")}>
            <StackedTable
              rows={invoices}
              rowKey={(invoice) => invoice.id}
              columns={[
                {
                  label: t("inv.col.pay"),
                  cell: (invoice) =>
                    invoice.payable ? (
                      <input
                        type="checkbox"
                        name="invoice"
                        value={invoice.id}
                        className={formStyles.checkbox}
                        aria-label={t("inv.select", { number: invoice.number })}
                      />
                    ) : null,
                },
                {
                  label: t("inv.col.number"),
                  kind: "title",
                  cell: (invoice) => (
                    <Link to={`/customer/invoices-and-payments/invoice/${invoice.id}`}>{invoice.number}</Link>
                  ),
                },
                { label: t("inv.col.status"), cell: (invoice) => t(statusKey(invoice.status)) },
                { label: t("inv.col.issued"), cell: (invoice) => invoice.issueDate },
                { label: t("inv.col.due"), cell: (invoice) => invoice.dueDate },
                { label: t("inv.col.amount"), kind: "amount", cell: (invoice) => invoice.amount },
                { label: t("inv.col.balance"), kind: "amount", cell: (invoice) => invoice.balance },
                {
                  label: t("inv.col.overdue"),
                  kind: "number",
                  cell: (invoice) => (invoice.daysOverdue > 0 ? t("inv.days", { days: invoice.daysOverdue }) : ""),
                },
              ]}
            />
          </div>
          {invoices.some((invoice) => invoice.payable) ? (
            <div className={formStyles.actions}>
              <button type="submit" className={button}>
                {t("inv.paySelected")}
              </button>
              <Link to="/customer/invoices-and-payments/pay?all=1" className={secondaryButton}>
                {t("inv.payAll")}
              </Link>
            </div>
          ) : null}
        </Form>
      ) : null}
      <Pager
        label={t("inv.pages")}
        page={query.page}
        pages={pages}
        hrefFor={(page) => `${PATH}${invoiceSearch(query, { page })}`}
      />

      <h2>{t("inv.payments")}</h2>
      {payments.length === 0 ? (
        <p>{t("inv.payments.none")}</p>
      ) : (
        <ul className={styles.list} aria-label={t("inv.payments")}>
          {payments.map((payment) => (
            <li key={payment.id} className={styles.listItem}>
              <div>
                <strong>{payment.amount}</strong> · {payment.date} ·{" "}
                {t(
                  payment.status === "succeeded"
                    ? "inv.payment.paid"
                    : payment.status === "promised"
                      ? "inv.payment.promised"
                      : payment.status === "submitted"
                        ? "paytoPay.payments.pending"
                        : "inv.payment.failed",
                )}
                {payment.method ? ` · ${payment.method}` : ""}
                <br />
                {t("inv.payment.for", { invoices: payment.invoices })}
              </div>
              {payment.status === "failed" ? null : (
                <Link to={`/payment/complete/${payment.reference}`} className={secondaryButton}>
                  {t("inv.payment.receipt", { reference: payment.reference })}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("inv.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.invoices", data.businessName),
  ];
};
